/** The review comments not yet sent, above the composer: remove one, or send them all as the next message. */
import { useCommentsStore } from "../../stores/comments-store";

const EMPTY: never[] = [];

export function PendingComments({ sessionId, disabled }: { sessionId: string; disabled: boolean }) {
  const comments = useCommentsStore((s) => s.pending[sessionId] ?? EMPTY);
  const send = useCommentsStore((s) => s.send);
  const remove = useCommentsStore((s) => s.remove);
  if (comments.length === 0) return null;
  return (
    <section className="pending-comments" aria-label="Review comments to send">
      <header>
        <strong>
          {comments.length} review comment{comments.length === 1 ? "" : "s"}
        </strong>
        <button type="button" className="primary" disabled={disabled} onClick={() => void send(sessionId)}>
          Send comments to the agent
        </button>
      </header>
      <ul>
        {comments.map((c) => (
          <li key={c.noteId}>
            <code>
              {c.path}:{c.line}
            </code>{" "}
            — {c.text}
            <button
              type="button"
              className="icon"
              aria-label={`Remove comment on ${c.path}:${c.line}`}
              onClick={() => void remove(sessionId, c.noteId)}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
