/** The "Replay" action of a session in the list: opens it read-only in replay mode. */
import type { SessionSummary } from "../../../shared/api";
import { PlayIcon } from "../components/icons";
import { openReplay } from "./replay-store";

export function ReplayButton({ session }: { session: SessionSummary }) {
  return (
    <button
      type="button"
      className="icon"
      aria-label={`Replay session ${session.title}`}
      title="Replay (read-only review)"
      disabled={session.entryCount === 0}
      onClick={() => openReplay(session.id)}
    >
      <PlayIcon />
    </button>
  );
}
