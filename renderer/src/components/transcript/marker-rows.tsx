/** Rows for session events that are not messages: model switch, compaction, rename, fork, Ask-mode switches, orphans, damaged entries. */
import { memo, useState } from "react";
import type { DamagedEntry, ModeChange } from "../../../../shared/api";
import type {
  ApprovalEntry,
  CompactionEntry,
  ForkEntry,
  ModelSwitchEntry,
  ReasoningChangeEntry,
  ReasoningLevel,
  RenameEntry,
  ToolResultMessage,
} from "../../../../shared/protocol";
import { client } from "../../api/current";
import { useCoreRead } from "../use-core-read";
import { formatTime, formatTokens } from "../../lib/format";
import { modelLabel } from "../../stores/models-store";
import { useTranscriptContext } from "./transcript-context";

export const ModelSwitchRow = memo(function ModelSwitchRow({ entry }: { entry: ModelSwitchEntry }) {
  const { models } = useTranscriptContext();
  return (
    <div className="marker model-switch" role="note" aria-label="Model switched">
      <span>
        Model switched{" "}
        {entry.from ? (
          <>
            from <strong>{modelLabel(models, entry.from)}</strong>{" "}
          </>
        ) : null}
        to <strong>{modelLabel(models, entry.to)}</strong>
      </span>
      <time>{formatTime(entry.timestamp)}</time>
    </div>
  );
});

export const ModeChangeRow = memo(function ModeChangeRow({ change }: { change: ModeChange }) {
  return (
    <div className="marker mode-marker" role="note" aria-label="Mode switched">
      <span>
        {change.mode === "ask" ? (
          <>
            <strong>Ask mode</strong> on: the agent may only read
          </>
        ) : (
          <>
            Back to <strong>Agent mode</strong>: the agent may change files again, with approval
          </>
        )}
      </span>{" "}
      <time>{formatTime(change.timestamp)}</time>
    </div>
  );
});

export const REASONING_LABELS: Record<ReasoningLevel, string> = {
  default: "model default",
  off: "off",
  low: "low",
  medium: "medium",
  high: "high",
};

export const ReasoningChangeRow = memo(function ReasoningChangeRow({ entry }: { entry: ReasoningChangeEntry }) {
  return (
    <div className="marker model-switch" role="note" aria-label="Reasoning level changed">
      <span>
        Reasoning changed from <strong>{REASONING_LABELS[entry.from]}</strong> to <strong>{REASONING_LABELS[entry.to]}</strong>
      </span>
      <time>{formatTime(entry.timestamp)}</time>
    </div>
  );
});

/** What a compaction did, in one line (the full history stays in the transcript above it). */
export function compactionLabel(entry: CompactionEntry): string {
  const sizes = `${formatTokens(entry.tokensBefore)}${entry.tokensAfter !== undefined ? ` → ${formatTokens(entry.tokensAfter)}` : ""} tokens`;
  const why = entry.trigger === "overflow" ? ", after the provider said it was too long" : entry.trigger === "manual" ? ", on request" : "";
  if (entry.step === "prune") {
    return `Context pruned: ${entry.pruned ?? 0} old tool output${entry.pruned === 1 ? "" : "s"} shown to the model as stubs (${sizes}${why})`;
  }
  return `Context compacted: older messages summarised (${sizes}${why})`;
}

export const CompactionRow = memo(function CompactionRow({ entry }: { entry: CompactionEntry }) {
  const [open, setOpen] = useState(false);
  const details = entry.step !== "prune" || entry.carried !== undefined;
  return (
    <div className="marker compaction" role="note" aria-label="Context compacted">
      {details ? (
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
          {compactionLabel(entry)}
        </button>
      ) : (
        <span>{compactionLabel(entry)}</span>
      )}
      <time>{formatTime(entry.timestamp)}</time>
      {open && (
        <div className="compaction-summary">
          {entry.step !== "prune" && entry.summary}
          {entry.userRequest && `\n\nThe user's request, kept word for word:\n${entry.userRequest}`}
          {entry.carried && `\n\nKept across compaction:\n${entry.carried}`}
        </div>
      )}
    </div>
  );
});

export const RenameRow = memo(function RenameRow({ entry }: { entry: RenameEntry }) {
  return (
    <div className="marker" role="note">
      Renamed to “{entry.title}” <time>{formatTime(entry.timestamp)}</time>
    </div>
  );
});

/** Says the source and its step as replay numbers them (asked once the row shows; the source may be gone). */
export const ForkRow = memo(function ForkRow({ entry }: { entry: ForkEntry }) {
  // The row keeps its generic text when the source is gone.
  const { value: origin } = useCoreRead(`${entry.sourceSessionId}:${entry.sourceSeq}`, () =>
    client().call("review.forkOrigin", { sourceSessionId: entry.sourceSessionId, sourceSeq: entry.sourceSeq }),
  );
  return (
    <div className="marker fork" role="note">
      {origin ? (
        <>
          Forked from “<strong>{origin.title}</strong>” at step {origin.step}
        </>
      ) : (
        "Forked from another session"
      )}{" "}
      <time>{formatTime(entry.timestamp)}</time>
    </div>
  );
});

export const OrphanResultRow = memo(function OrphanResultRow({ message }: { message: ToolResultMessage }) {
  const text = message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n");
  return (
    <div className={`marker orphan${message.isError ? " error" : ""}`} role="note">
      Result of {message.toolName} ({message.toolCallId}) without its call: <span className="muted">{text.slice(0, 200)}</span>
    </div>
  );
});

export const OrphanApprovalRow = memo(function OrphanApprovalRow({ entry }: { entry: ApprovalEntry }) {
  return (
    <div className="marker" role="note">
      {entry.toolName}: {entry.decision}
      {entry.reason ? ` — ${entry.reason}` : ""}
    </div>
  );
});

/** A stored entry the app cannot read, or a run of lost ones: its place in the session stays visible. */
export const DamagedRow = memo(function DamagedRow({ damaged }: { damaged: DamagedEntry }) {
  if (damaged.code === "MISSING") {
    const span =
      damaged.toSeq !== undefined && damaged.toSeq !== damaged.seq
        ? `Entries ${damaged.seq}–${damaged.toSeq} are`
        : `Entry ${damaged.seq} is`;
    return (
      <div className="marker damaged error" role="note">
        {span} missing: they were lost to damage to the session database.
      </div>
    );
  }
  return (
    <div className="marker damaged error" role="note">
      Damaged entry {damaged.seq} ({damaged.kind}) could not be read: <span className="muted">{damaged.message.slice(0, 200)}</span>. Its
      stored bytes are kept and go into a JSON export of this session.
    </div>
  );
});
