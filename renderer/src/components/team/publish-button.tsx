/** "Publish to team" on a session: an immutable snapshot in the team library (re-publishing adds a revision). */
import { useState } from "react";
import type { SessionSummary } from "../../../../shared/api";
import { useAppStore } from "../../stores/app-store";
import { useTeamStore } from "../../stores/team-store";

export function PublishButton({ session }: { session: SessionSummary }) {
  const configured = useTeamStore((s) => s.settings?.connection != null);
  const opened = useTeamStore((s) => session.id in s.opened);
  const publish = useTeamStore((s) => s.publish);
  const [busy, setBusy] = useState(false);
  // A copy opened from the library is someone else's snapshot: it is not published again from here.
  if (!configured || opened) return null;
  return (
    <button
      type="button"
      className="icon"
      aria-label={`Publish session ${session.title} to the team library`}
      title="Publish to the team library"
      disabled={busy || session.entryCount === 0}
      onClick={() => {
        setBusy(true);
        publish(session.id)
          .then((msg) => useAppStore.getState().notify("info", msg))
          .catch((err: unknown) => useAppStore.getState().reportError("Could not publish the session", err))
          .finally(() => setBusy(false));
      }}
    >
      ⇪
    </button>
  );
}
