/** Rows for user and assistant messages. */
import { memo, useState } from "react";
import type { AssistantMessage, ThinkingContent, UserMessage } from "../../../../shared/protocol";
import { parseAttachedFile } from "../../../../shared/mentions";
import { formatCostOf, formatTime, formatTokens, timeAttribute, usageTitle } from "../../lib/format";
import { errorHint } from "../../lib/error-hint";
import { closeCutMarkdown } from "../../lib/markdown";
import { modelLabel, useModelsStore } from "../../stores/models-store";
import { useUiStore } from "../../stores/ui-store";
import { EntryBoundary } from "../error-boundary";
import { MarkdownView } from "./markdown-view";
import { ToolCard } from "./tool-card";
import { useTranscriptContext } from "./transcript-context";

export const UserRow = memo(function UserRow({ message, seq }: { message: UserMessage; seq: number }) {
  const { actions, readOnly } = useTranscriptContext();
  return (
    <div className="msg user" aria-label="Your message">
      <div className="msg-meta">
        <span className="who">You</span>
        <time dateTime={timeAttribute(message.timestamp)}>{formatTime(message.timestamp)}</time>
        {!readOnly && actions.forkAt && (
          <button type="button" className="row-action" onClick={() => actions.forkAt?.(seq)} aria-label="Fork from this message">
            Fork
          </button>
        )}
        {!readOnly && actions.rewindTo && (
          <button
            type="button"
            className="row-action"
            onClick={() => actions.rewindTo?.(seq - 1, `to before “${clipText(message)}”`)}
            aria-label="Rewind to before this message"
            title="Restore the files and/or the conversation as they were before this message"
          >
            Rewind
          </button>
        )}
      </div>
      {message.content.map((c, i) => {
        const attached = c.type === "text" ? parseAttachedFile(c.text) : null;
        if (attached) {
          const range = attached.startLine !== undefined ? `:${attached.startLine}-${attached.endLine}` : "";
          return (
            <span
              key={i}
              className="mention-chip"
              title={attached.body.split("\n").slice(0, 12).join("\n")}
              aria-label={`Attached file ${attached.path}${range}`}
            >
              @{attached.path}
              {range}
            </span>
          );
        }
        return c.type === "text" ? (
          <div key={i} className="user-text">
            {c.text}
          </div>
        ) : (
          <img key={i} className="user-image" alt="Attached image" src={`data:${c.mimeType};base64,${c.data}`} />
        );
      })}
    </div>
  );
});

function clipText(message: UserMessage): string {
  const text =
    message.content
      .map((c) => (c.type === "text" ? c.text : ""))
      .join(" ")
      .trim()
      .split("\n")[0] ?? "";
  return text.length > 40 ? `${text.slice(0, 39)}…` : text || "your message";
}

function ThinkingBlock({ block, streaming }: { block: ThinkingContent; streaming: boolean }) {
  const [open, setOpen] = useState(false);
  if (block.redacted) return <p className="thinking muted">Thinking (redacted by the provider)</p>;
  // A signature with no thought (Gemini signs its calls so): nothing to open, so no toggle.
  if (block.thinking.trim() === "") return streaming ? <p className="thinking muted">Thinking…</p> : null;
  const preview = block.thinking.trim().split("\n")[0]?.slice(0, 80) ?? "";
  return (
    <div className="thinking">
      <button type="button" className="thinking-toggle" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        {open ? "▾" : "▸"} {streaming ? "Thinking…" : "Thinking"} {!open && preview && <span className="muted">{preview}</span>}
      </button>
      {open && <div className="thinking-text">{block.thinking}</div>}
    </div>
  );
}

export const AssistantRow = memo(function AssistantRow({
  message,
  seq,
  streaming = false,
  attempts,
}: {
  message: AssistantMessage;
  seq: number | null;
  streaming?: boolean;
  /** Earlier failed attempts of this request (automatic retries), shown inside its error. */
  attempts?: readonly AssistantMessage[];
}) {
  const { models, actions, readOnly, running } = useTranscriptContext();
  const u = message.usage;
  return (
    <div
      className={`msg assistant${streaming ? " streaming" : ""}`}
      aria-label={streaming ? "Assistant message (streaming)" : "Assistant message"}
      aria-busy={streaming}
    >
      <div className="msg-meta">
        <span className="who">{modelLabel(models, message.model)}</span>
        <time dateTime={timeAttribute(message.timestamp)}>{formatTime(message.timestamp)}</time>
        {!streaming && u.totalTokens > 0 && (
          <span
            className="usage"
            title={usageTitle(u)}
            aria-label={`Usage: ${u.totalTokens} tokens, ${formatCostOf(u.cost.total, u.cost.unknown)}`}
          >
            {formatTokens(u.input + u.cacheRead + u.cacheWrite)} in
            {u.cacheRead > 0 && ` (${formatTokens(u.cacheRead)} cached)`} · {formatTokens(u.output)} out ·{" "}
            {formatCostOf(u.cost.total, u.cost.unknown)}
          </span>
        )}
        {message.stopReason === "aborted" && <span className="badge warn">stopped</span>}
        {message.stopReason === "length" && <span className="badge warn">output limit reached</span>}
        {!readOnly && !streaming && seq !== null && actions.forkAt && (
          <button type="button" className="row-action" onClick={() => actions.forkAt?.(seq)} aria-label="Fork from this message">
            Fork
          </button>
        )}
      </div>
      {message.content.map((block, i) => {
        if (block.type === "text") {
          // An answer cut off (stopped, failed, at the limit, still streaming) may end inside a code span.
          const cut = streaming || message.stopReason === "aborted" || message.stopReason === "error" || message.stopReason === "length";
          return <MarkdownView key={i} text={cut && i === message.content.length - 1 ? closeCutMarkdown(block.text) : block.text} />;
        }
        if (block.type === "thinking") return <ThinkingBlock key={i} block={block} streaming={streaming} />;
        return (
          <EntryBoundary key={block.id || i} label={`tool call ${block.name} (${block.id})`} resetKey={block}>
            <ToolCard call={block} streaming={streaming} />
          </EntryBoundary>
        );
      })}
      {streaming && message.content.length === 0 && <p className="muted typing">Waiting for the model…</p>}
      {message.limit && (
        <div className="marker turn-limit" role="note" aria-label="Turn stopped at a limit">
          Stopped: this turn reached {message.limit.detail}. The answer above is the model&apos;s summary of where it stands; send a message
          to go on.
        </div>
      )}
      {message.stopReason === "error" && (
        <RequestError
          message={message}
          attempts={attempts ?? []}
          retry={readOnly ? undefined : actions.retry}
          running={running}
          readOnly={readOnly}
        />
      )}
    </div>
  );
});

/** A failed request: the provider's words, what to do about them, and Retry. */
function RequestError({
  message,
  attempts,
  retry,
  running,
  readOnly,
}: {
  message: AssistantMessage;
  attempts: readonly AssistantMessage[];
  retry?: () => void;
  running: boolean;
  readOnly: boolean;
}) {
  const provider = useModelsStore((s) => s.providers.find((p) => p.key === message.model.provider));
  const setSettingsOpen = useUiStore((s) => s.setSettingsOpen);
  const hint = message.errorMessage ? errorHint(message.errorMessage, message.model.id, provider) : null;
  return (
    <div className="msg-error" role="alert">
      <div className="msg-error-text">
        <span>{message.errorMessage ?? "The model request failed."}</span>
        {attempts.length > 0 && (
          <details className="error-attempts">
            <summary>
              Failed {attempts.length + 1} times ({attempts.length} automatic {attempts.length === 1 ? "retry" : "retries"})
            </summary>
            <ol>
              {attempts.map((a, i) => (
                <li key={i}>
                  <time dateTime={timeAttribute(a.timestamp)}>{formatTime(a.timestamp)}</time> {a.errorMessage ?? "failed"}
                </li>
              ))}
            </ol>
          </details>
        )}
        {hint && (
          <p className="error-hint">
            {hint.text}
            {hint.opensSettings && !readOnly && (
              <>
                {" "}
                <button type="button" className="link-button" onClick={() => setSettingsOpen(true)}>
                  Open Settings
                </button>
              </>
            )}
          </p>
        )}
      </div>
      {retry && (
        <button type="button" onClick={retry} disabled={running}>
          Retry
        </button>
      )}
    </div>
  );
}
