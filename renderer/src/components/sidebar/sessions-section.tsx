/** The session list (newest first), search across sessions with highlighted snippets, new session. */
import { useEffect, useMemo, useState } from "react";
import { sessionTree, type SessionNode } from "../../lib/session-tree";
import { formatTime } from "../../lib/format";
import { splitSnippet } from "../../lib/snippet";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { SessionItem } from "./session-item";

const SEARCH_DELAY_MS = 200;

/** A session and, nested under it, the sessions of the sub-agents it started. */
function SessionBranch({ node, activeId }: { node: SessionNode; activeId: string | null }) {
  return (
    <>
      <SessionItem session={node.session} active={node.session.id === activeId} />
      {node.children.length > 0 && (
        <li className="session-children">
          <ul aria-label={`Sub-agents of ${node.session.title}`}>
            {node.children.map((child) => (
              <SessionBranch key={child.session.id} node={child} activeId={activeId} />
            ))}
          </ul>
        </li>
      )}
    </>
  );
}

export function SessionsSection({ onNewSession }: { onNewSession: () => void }) {
  const workspace = useWorkspaceStore((s) => s.workspace);
  const sessions = useWorkspaceStore((s) => s.sessions);
  const hasMore = useWorkspaceStore((s) => s.hasMore);
  const activeId = useWorkspaceStore((s) => s.activeSessionId);
  const search = useWorkspaceStore((s) => s.search);
  const runSearch = useWorkspaceStore((s) => s.runSearch);
  const loadMore = useWorkspaceStore((s) => s.loadMoreSessions);
  const selectSession = useWorkspaceStore((s) => s.selectSession);
  const [query, setQuery] = useState("");
  const tree = useMemo(() => sessionTree(sessions), [sessions]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- switching workspace clears the session search
    setQuery("");
  }, [workspace?.id]);

  useEffect(() => {
    const t = setTimeout(() => void runSearch(query), query.trim() ? SEARCH_DELAY_MS : 0);
    return () => clearTimeout(t);
  }, [query, runSearch]);

  if (!workspace) return <p className="muted sidebar-hint">Open a workspace folder to start.</p>;
  const searching = query.trim().length > 0;

  return (
    <section className="sidebar-section sessions" aria-label="Sessions">
      <div className="sessions-head">
        <h2>Sessions</h2>
        <button type="button" className="primary" onClick={onNewSession} aria-keyshortcuts="Alt+N">
          New session
        </button>
      </div>
      <input
        type="search"
        aria-label="Search sessions"
        aria-keyshortcuts="Control+K"
        id="session-search"
        placeholder="Search all sessions…"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && setQuery("")}
      />
      {searching ? (
        <div className="search-results">
          {search.loading && <p className="muted">Searching…</p>}
          {search.error && <p className="error-text">Search failed: {search.error}</p>}
          {!search.loading && !search.error && search.query === query && search.hits.length === 0 && <p className="muted">No matches.</p>}
          <ul aria-label="Search results">
            {search.hits.map((hit) => (
              <li key={`${hit.sessionId}:${hit.seq}`}>
                <button type="button" className="list-button search-hit" onClick={() => selectSession(hit.sessionId, hit.seq)}>
                  <span className="hit-title">
                    {hit.sessionTitle} <span className="muted small">{formatTime(hit.timestamp)}</span>
                  </span>
                  <span className="hit-snippet">
                    {splitSnippet(hit.snippet).map((part, i) =>
                      part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
                    )}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <>
          {sessions.length === 0 && <p className="muted">No sessions yet.</p>}
          <ul className="session-list" aria-label="Session list">
            {tree.map((node) => (
              <SessionBranch key={node.session.id} node={node} activeId={activeId} />
            ))}
          </ul>
          {hasMore && (
            <button type="button" className="link-button" onClick={() => void loadMore()}>
              Load older sessions
            </button>
          )}
        </>
      )}
    </section>
  );
}
