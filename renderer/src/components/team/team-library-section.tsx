/**
 * The sidebar's team library, next to the local sessions: published sessions
 * with their title, author and review state. Opening one makes a local
 * read-only copy (team.open) and replays it. A search box asks the server's
 * ranked full-text search (team.search); a hit opens its session at that step.
 */
import { useEffect, useState } from "react";
import type { ReviewState, TeamSearchHit, TeamSession } from "../../../../shared/team";
import { formatTime } from "../../lib/format";
import { openReplay } from "../../replay";
import { useAppStore } from "../../stores/app-store";
import { useTeamStore } from "../../stores/team-store";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { TeamStatusLine } from "../dialogs/team-settings";
import { SnippetText } from "../search/snippet-text";

export const REVIEW_STATE_LABEL: Record<ReviewState, string> = {
  open: "open",
  changesRequested: "changes requested",
  approved: "approved",
};

/** Opens a published session as a local copy and replays it (at `seq` when given). */
function useOpenTeamSession(): { busy: boolean; canOpen: boolean; openAt(teamId: string, seq?: number): void } {
  const workspaceId = useWorkspaceStore((s) => s.workspace?.id ?? null);
  const open = useTeamStore((s) => s.open);
  const [busy, setBusy] = useState(false);
  const openAt = (teamId: string, seq?: number) => {
    if (!workspaceId) return;
    setBusy(true);
    open(teamId, workspaceId)
      .then(async (localId) => {
        // The copy is a new local session: the list learns of it before replay opens it.
        await useWorkspaceStore.getState().refreshSessions();
        openReplay(localId, seq === undefined ? {} : { seq });
      })
      .catch((err: unknown) => useAppStore.getState().reportError("Could not open the published session", err))
      .finally(() => setBusy(false));
  };
  return { busy, canOpen: workspaceId !== null, openAt };
}

function TeamSearch() {
  const search = useTeamStore((s) => s.search);
  const { busy, canOpen, openAt } = useOpenTeamSession();
  const [query, setQuery] = useState("");
  const [result, setResult] = useState<{ query: string; hits: TeamSearchHit[]; error: string | null } | null>(null);
  const run = () => {
    const q = query.trim();
    if (!q) return setResult(null);
    search(q)
      .then((hits) => setResult({ query: q, hits, error: null }))
      .catch((err: unknown) => setResult({ query: q, hits: [], error: err instanceof Error ? err.message : String(err) }));
  };
  return (
    <div className="team-search">
      <input
        type="search"
        aria-label="Search the team library"
        placeholder="Search the team library… (Enter)"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") run();
          if (e.key === "Escape") {
            setQuery("");
            setResult(null);
          }
        }}
      />
      {result?.error && <p className="error-text">Team search failed: {result.error}</p>}
      {result && !result.error && result.hits.length === 0 && <p className="muted">No matches for “{result.query}”.</p>}
      {result && result.hits.length > 0 && (
        <ul aria-label="Team search results">
          {result.hits.map((hit) => (
            <li key={`${hit.sessionId}:${hit.seq}`}>
              <button
                type="button"
                className="list-button search-hit"
                disabled={busy || !canOpen}
                onClick={() => openAt(hit.sessionId, hit.seq)}
              >
                <span className="session-name">{hit.sessionTitle}</span>
                <span className="muted">
                  {hit.project} · <SnippetText snippet={hit.snippet} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function TeamItem({ session }: { session: TeamSession }) {
  const { busy, canOpen, openAt } = useOpenTeamSession();
  const onOpen = () => openAt(session.id);
  const state = session.reviewState;
  return (
    <li className="session-item team-item">
      <button
        type="button"
        className="session-select"
        title={`${session.title} · ${session.project} · revision ${session.revision}`}
        aria-label={`Open team session ${session.title}`}
        disabled={busy || !canOpen}
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
      <TeamSearch />
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
