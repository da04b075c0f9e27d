/**
 * The sidebar's team library, next to the local sessions: published sessions
 * with their title, author and review state. Opening one makes a local
 * read-only copy (team.open) and replays it.
 */
import { useEffect, useState } from "react";
import type { ReviewState, TeamSession } from "../../../../shared/team";
import { formatTime } from "../../lib/format";
import { openReplay } from "../../replay";
import { useAppStore } from "../../stores/app-store";
import { useTeamStore } from "../../stores/team-store";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { TeamStatusLine } from "../dialogs/team-settings";

export const REVIEW_STATE_LABEL: Record<ReviewState, string> = {
  open: "open",
  changesRequested: "changes requested",
  approved: "approved",
};

function TeamItem({ session }: { session: TeamSession }) {
  const workspaceId = useWorkspaceStore((s) => s.workspace?.id ?? null);
  const open = useTeamStore((s) => s.open);
  const [busy, setBusy] = useState(false);
  const onOpen = () => {
    if (!workspaceId) return;
    setBusy(true);
    open(session.id, workspaceId)
      .then(async (localId) => {
        // The copy is a new local session: the list learns of it before replay opens it.
        await useWorkspaceStore.getState().refreshSessions();
        openReplay(localId);
      })
      .catch((err: unknown) => useAppStore.getState().reportError("Could not open the published session", err))
      .finally(() => setBusy(false));
  };
  const state = session.reviewState;
  return (
    <li className="session-item team-item">
      <button
        type="button"
        className="session-select"
        title={`${session.title} · ${session.project} · revision ${session.revision}`}
        aria-label={`Open team session ${session.title}`}
        disabled={busy || !workspaceId}
        onClick={onOpen}
      >
        <span className="session-name">{session.title}</span>
        <span className="session-meta muted">
          {session.publisher} · {formatTime(session.publishedAt)}
          {session.revision > 1 ? ` · rev ${session.revision}` : ""}
          <span
            className={`badge session-state review-${state}${state === "approved" ? " ok" : state === "changesRequested" ? " warn" : ""}`}
          >
            {REVIEW_STATE_LABEL[state]}
          </span>
        </span>
      </button>
    </li>
  );
}

export function TeamLibrarySection() {
  const configured = useTeamStore((s) => s.settings?.connection != null);
  const sessions = useTeamStore((s) => s.sessions);
  const listError = useTeamStore((s) => s.listError);
  const refresh = useTeamStore((s) => s.refresh);

  useEffect(() => {
    const team = useTeamStore.getState();
    team
      .loadSettings()
      .then(() => team.refresh())
      .catch(() => undefined);
  }, []);

  if (!configured) return null;
  return (
    <section className="sidebar-section sessions team-library" aria-label="Team library">
      <div className="sessions-head">
        <h2>Team library</h2>
        <button type="button" onClick={() => void refresh()}>
          Refresh
        </button>
      </div>
      <TeamStatusLine />
      {listError && <p className="error-text">{listError}</p>}
      {sessions.length === 0 && !listError && <p className="muted">Nothing published yet.</p>}
      <ul className="session-list" aria-label="Team sessions">
        {sessions.map((s) => (
          <TeamItem key={s.id} session={s} />
        ))}
      </ul>
    </section>
  );
}
