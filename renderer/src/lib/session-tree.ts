/**
 * The session list as a tree: a sub-agent's session under the session that
 * started it (docs/sub-agents.md#sub-agents), oldest first; a child whose
 * parent is not in the list (not loaded yet, or deleted) stays at the top.
 */
import type { SessionSummary } from "../../../shared/api";

export interface SessionNode {
  session: SessionSummary;
  children: SessionNode[];
}

export function sessionTree(sessions: readonly SessionSummary[]): SessionNode[] {
  const ids = new Set(sessions.map((s) => s.id));
  const byParent = new Map<string, SessionSummary[]>();
  const roots: SessionSummary[] = [];
  for (const s of sessions) {
    const parent = s.parentToolCallId !== undefined ? s.parentSessionId : null;
    if (parent && parent !== s.id && ids.has(parent)) byParent.set(parent, [...(byParent.get(parent) ?? []), s]);
    else roots.push(s);
  }
  const seen = new Set<string>();
  const node = (s: SessionSummary): SessionNode => {
    seen.add(s.id);
    const children = (byParent.get(s.id) ?? []).filter((c) => !seen.has(c.id)).sort((a, b) => a.createdAt - b.createdAt);
    return { session: s, children: children.map(node) };
  };
  return roots.map(node);
}
