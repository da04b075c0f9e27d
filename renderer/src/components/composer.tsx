/**
 * The message box: Enter sends, Shift+Enter breaks the line. While a turn runs,
 * Stop is offered and new messages are queued (shown until delivered).
 */
import { useRef, useState, type KeyboardEvent } from "react";
import type { TurnState } from "../../../shared/api";

/** The message box's element id (New session on an empty session focuses it). */
export const COMPOSER_ID = "composer-input";

export function Composer({
  turn,
  disabled,
  disabledReason,
  onSend,
  onStop,
}: {
  turn: TurnState | null;
  disabled: boolean;
  disabledReason?: string;
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
}) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const running = turn !== null && turn.status !== "idle";

  const send = async () => {
    const value = text.trim();
    if (!value || disabled || sending) return;
    setSending(true);
    const ok = await onSend(value);
    setSending(false);
    if (ok) setText("");
    ref.current?.focus();
  };

  // Stop drops the messages queued behind the turn; give them back to the user instead of losing them.
  const stop = () => {
    const queued = turn?.queued ?? [];
    if (queued.length > 0) setText((current) => [current, ...queued].filter((t) => t.trim()).join("\n\n"));
    onStop();
    ref.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
    if (e.key === "Escape" && running) {
      e.preventDefault();
      stop();
    }
  };

  return (
    <div className="composer">
      {turn && turn.queued.length > 0 && (
        <ul className="queued" aria-label="Queued messages">
          {turn.queued.map((q, i) => (
            <li key={i}>
              <span className="badge">queued</span> {q}
            </li>
          ))}
        </ul>
      )}
      <div className="composer-row">
        <textarea
          ref={ref}
          id={COMPOSER_ID}
          aria-label="Message"
          placeholder={disabled ? (disabledReason ?? "") : running ? "Type to queue a message for after this step…" : "Ask the agent… (Enter to send, Shift+Enter for a new line)"}
          value={text}
          rows={Math.min(10, Math.max(2, text.split("\n").length))}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="composer-buttons">
          {running && (
            <button type="button" className="danger" onClick={stop} aria-label="Stop" aria-keyshortcuts="Escape">
              Stop
            </button>
          )}
          <button type="button" className="primary" onClick={() => void send()} disabled={disabled || sending || !text.trim()} aria-label={running ? "Queue message" : "Send"}>
            {running ? "Queue" : "Send"}
          </button>
        </div>
      </div>
      <p className="composer-status" aria-live="polite">
        {turn?.status === "awaitingApproval" ? "Waiting for your approval…" : running ? "The agent is working…" : ""}
      </p>
    </div>
  );
}
