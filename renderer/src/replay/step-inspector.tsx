/**
 * The current step in detail: what it is, when, which model, tokens, cost,
 * latency and duration, tool outcome; the actions that apply to it ("What the
 * model saw" for assistant steps, fork); the files as of the step; its notes.
 */
import { memo } from "react";
import { revealInvisible } from "../../../shared/invisible-chars";
import type { TimelineItem } from "../../../shared/review";
import { EntryBoundary, PanelBoundary } from "../components/error-boundary";
import { formatCost, formatTokens } from "../lib/format";
import { modelLabel, useModelsStore } from "../stores/models-store";
import { FilesAtStep } from "./files-at-step";
import { KIND_LABEL, OUTCOME_LABEL, formatDateTime, formatLatency } from "./replay-format";
import { useReplayStore } from "./replay-store";
import { useRewindStore } from "../components/rewind/rewind-store";
import { StepNotes } from "./step-notes";
import { TeamStepNotes } from "./team-notes";
import { useTeamStore } from "../stores/team-store";
import type { StepIndex } from "./step-view";

/** Steps that are a request to a model: "what the model saw" applies. */
export function isModelStep(item: TimelineItem): boolean {
  return item.kind === "assistant" || item.kind === "error";
}

const StepDetails = memo(function StepDetails({ item }: { item: TimelineItem }) {
  const models = useModelsStore((s) => s.models);
  const showModelView = useReplayStore((s) => s.showModelView);
  const setForkOpen = useReplayStore((s) => s.setForkOpen);
  const sessionId = useReplayStore((s) => s.sessionId);
  const t = item.tokens;
  return (
    <section className="replay-details" aria-label="Step details">
      <h3 title={`Entry #${item.seq} of the stored session`}>
        <span className={`tl-kind kind-${item.kind}`}>{KIND_LABEL[item.kind]}</span> step {item.index + 1}
      </h3>
      <p className="step-summary">{revealInvisible(item.summary)}</p>
      <dl className="step-facts">
        <dt>Time</dt>
        <dd>{formatDateTime(item.timestamp)}</dd>
        {item.model && (
          <>
            <dt>Model</dt>
            <dd title={`${item.model.provider} · ${item.model.api} · ${item.model.id}`}>{modelLabel(models, item.model)}</dd>
          </>
        )}
        {t && (
          <>
            <dt>Tokens</dt>
            <dd title={`input ${t.input} · output ${t.output} · cache read ${t.cacheRead} · cache write ${t.cacheWrite}`}>
              {formatTokens(t.total)} ({formatTokens(t.input)} in, {formatTokens(t.output)} out
              {t.cacheRead > 0 ? `, ${formatTokens(t.cacheRead)} cached` : ""})
            </dd>
          </>
        )}
        {item.cost !== null && (
          <>
            <dt>Cost</dt>
            <dd>{formatCost(item.cost)}</dd>
          </>
        )}
        {item.latencyMs !== null && (
          <>
            <dt>Latency</dt>
            <dd>{formatLatency(item.latencyMs)}</dd>
          </>
        )}
        {item.durationMs !== null && (
          <>
            <dt>Tool time</dt>
            <dd>{formatLatency(item.durationMs)}</dd>
          </>
        )}
        {item.toolName && (
          <>
            <dt>Tool</dt>
            <dd>
              {item.toolName}
              {item.toolCallId && <code className="muted small"> {item.toolCallId}</code>}
            </dd>
          </>
        )}
        {item.outcome && item.kind !== "user" && (
          <>
            <dt>Outcome</dt>
            <dd className={item.isError ? "error-text" : undefined}>
              {OUTCOME_LABEL[item.outcome]}
              {item.errorCode ? ` (${item.errorCode})` : ""}
              {item.sideEffect ? <span className="badge warn">side effect</span> : null}
            </dd>
          </>
        )}
      </dl>
      <div className="step-actions">
        {isModelStep(item) && (
          <button type="button" onClick={() => void showModelView(item.seq)}>
            What the model saw
          </button>
        )}
        <button type="button" onClick={() => setForkOpen(true)} title="A new session with the entries up to this step, on another model">
          Fork onto another model…
        </button>
        {sessionId && (
          <button
            type="button"
            onClick={() =>
              void useRewindStore.getState().open({ sessionId, target: { seq: item.seq }, label: `to step ${item.index + 1}` })
            }
            title="Restore the workspace files and/or the conversation as they were at this step"
          >
            Rewind to this step…
          </button>
        )}
      </div>
    </section>
  );
});

export function StepInspector({ index }: { index: StepIndex }) {
  const item = useReplayStore((s) => s.data?.items[s.cursor] ?? null);
  const sessionId = useReplayStore((s) => s.sessionId);
  const teamCopy = useTeamStore((s) => sessionId !== null && sessionId in s.opened);
  if (!item) return null;
  const label = `step ${item.index + 1} (entry ${item.seq})`;
  return (
    <div className="replay-inspector">
      <div className="replay-inspector-main">
        <EntryBoundary label={`detail of ${label}`} resetKey={item}>
          <StepDetails item={item} />
        </EntryBoundary>
        <PanelBoundary name="the files at this step" resetKey={item}>
          <FilesAtStep index={index} />
        </PanelBoundary>
      </div>
      <PanelBoundary name="the notes of this step" resetKey={item}>
        {/* A copy opened from the team library is reviewed with the team: its notes go to the library. */}
        {teamCopy ? <TeamStepNotes seq={item.seq} step={item.index + 1} /> : <StepNotes seq={item.seq} step={item.index + 1} />}
      </PanelBoundary>
    </div>
  );
}
