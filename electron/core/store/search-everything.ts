/**
 * Search everything (docs/search.md): the FTS index across every workspace,
 * narrowed by filters, answered as groups per session with each session's
 * best hits.
 *
 * Cost: the FTS walk stays the one of `search` (newest first by rowid, stops
 * after `limit` hits), so it does not grow with the store. Session-level
 * filters (model, notes, tool, file) are resolved first into the set of
 * sessions that pass, from their own indexes, and each hit only checks that
 * set; the best hits of a session are picked among the hits read.
 */
import { ORIGIN_SETTING_PREFIX } from "../../../shared/foreign-agents";
import type { SearchEverythingResult, SearchFilters, SearchGroup } from "../../../shared/search";
import type { StoreContext } from "./db";
import { toStoreError } from "./errors";
import { VISIBLE } from "./keys";
import { toFtsQuery } from "./search";
import { clampLimit } from "./workspaces";

const BEST_PER_SESSION = 3;

interface Row {
  session_id: string;
  title: string;
  workspace_id: string;
  ws_name: string;
  ws_path: string;
  model_id: string | null;
  seq: number;
  kind: string;
  timestamp: number;
  snippet: string;
}

/** Session numbers passing the session-level filters; null when none is set (every session passes). */
function sessionsPassing(ctx: StoreContext, f: SearchFilters): number[] | null {
  if (f.model === undefined && f.hasNotes !== true && f.tool === undefined && f.file === undefined) return null;
  const where: string[] = [VISIBLE];
  const args: unknown[] = [];
  if (f.workspaceId !== undefined) {
    where.push("s.workspace_id = ?");
    args.push(f.workspaceId);
  }
  if (f.hasNotes === true) where.push("EXISTS (SELECT 1 FROM notes n WHERE n.session_id = s.id)");
  if (f.tool !== undefined) {
    where.push("EXISTS (SELECT 1 FROM tool_calls t WHERE t.session_id = s.id AND t.tool_name = ?)");
    args.push(f.tool);
  }
  if (f.file !== undefined) {
    // Exact path, or the path ending in "/<file>"; substr, not LIKE: a path's % and _ are plain characters.
    const tail = `/${f.file.replace(/^\/+/u, "")}`;
    where.push(`EXISTS (SELECT 1 FROM (SELECT CASE WHEN json_valid(args) THEN json_extract(args, '$.path') END AS p
        FROM tool_calls WHERE session_id = s.id)
      WHERE p = ? OR (length(p) > length(?) AND substr(p, -length(?)) = ?))`);
    args.push(f.file, tail, tail, tail);
  }
  if (f.model !== undefined) {
    // The answers' partial index (timestamp, model_id), bounded by the date filter: assistant rows only, no row read.
    const range = `${f.from !== undefined ? " AND timestamp >= ?" : ""}${f.to !== undefined ? " AND timestamp < ?" : ""}`;
    where.push(`(s.model_id = ? OR s.num IN (SELECT DISTINCT id / 4294967296 FROM entries INDEXED BY entries_assistant_by_time
      WHERE kind = 'assistant' AND model_id = ?${range}))`);
    args.push(f.model, f.model);
    if (f.from !== undefined) args.push(f.from);
    if (f.to !== undefined) args.push(f.to);
  }
  return ctx
    .stmt(`SELECT s.num FROM sessions s WHERE ${where.join(" AND ")}`)
    .pluck()
    .all(...args) as number[];
}

/** Never throws on what the user typed; a store failure is a StoreError. */
export function searchEverything(ctx: StoreContext, query: string, filters: SearchFilters = {}, limit = 200): SearchEverythingResult {
  const fts = toFtsQuery(query);
  if (fts === null) return { groups: [], truncated: false };
  const max = clampLimit(limit, 500);
  let rows: Row[];
  try {
    const passing = sessionsPassing(ctx, filters);
    if (passing !== null && passing.length === 0) return { groups: [], truncated: false };
    const where: string[] = ["entries_fts MATCH ?", VISIBLE];
    const args: unknown[] = [fts];
    if (filters.workspaceId !== undefined) {
      where.push("s.workspace_id = ?");
      args.push(filters.workspaceId);
    }
    if (filters.from !== undefined) {
      where.push("e.timestamp >= ?");
      args.push(filters.from);
    }
    if (filters.to !== undefined) {
      where.push("e.timestamp < ?");
      args.push(filters.to);
    }
    if (filters.agent !== undefined) {
      // Per hit, one lookup of the settings key index for the session's origin record ("import.origin:<id>").
      const origin = `SELECT 1 FROM settings st WHERE st.key = ? || s.id`;
      if (filters.agent === "ours") where.push(`NOT EXISTS (${origin})`);
      else where.push(`EXISTS (${origin} AND json_valid(st.value) AND json_extract(st.value, '$.agent') = ?)`);
      args.push(ORIGIN_SETTING_PREFIX);
      if (filters.agent !== "ours") args.push(filters.agent);
    }
    if (passing !== null) {
      where.push("s.num IN (SELECT value FROM json_each(?))");
      args.push(JSON.stringify(passing));
    }
    args.push(max);
    rows = ctx
      .stmt(
        `SELECT e.session_id, s.title, s.workspace_id, w.name AS ws_name, w.path AS ws_path, s.model_id,
           e.seq, e.kind, e.timestamp,
           snippet(entries_fts, 0, char(2), char(3), '…', 16) AS snippet
         FROM entries_fts f
         CROSS JOIN search_rows r ON r.fts_rowid = f.rowid
         CROSS JOIN entries e ON e.id = r.entry_id
         CROSS JOIN sessions s ON s.id = e.session_id
         CROSS JOIN workspaces w ON w.id = s.workspace_id
         WHERE ${where.join(" AND ")}
         ORDER BY f.rowid DESC LIMIT ?`,
      )
      .all(...args) as Row[];
  } catch (e) {
    throw toStoreError(e, "search failed");
  }
  return { groups: groupRows(rows), truncated: rows.length === max };
}

/**
 * How well a hit matches: the matches its snippet marks. Not BM25: FTS5's bm25() reads every
 * phrase's whole doclist to count documents, which makes a common word cost O(matches).
 */
function score(r: Row): number {
  return r.snippet.split("\u0002").length - 1;
}

/** Groups newest hit first; within one, the hits with the most matches first. */
function groupRows(rows: Row[]): SearchGroup[] {
  const groups = new Map<string, { group: SearchGroup; all: Row[] }>();
  for (const r of rows) {
    let g = groups.get(r.session_id);
    if (g === undefined) {
      g = {
        group: {
          sessionId: r.session_id,
          sessionTitle: r.title,
          workspaceId: r.workspace_id,
          workspaceName: r.ws_name,
          workspacePath: r.ws_path,
          model: r.model_id,
          hitCount: 0,
          hits: [],
          newest: r.timestamp,
        },
        all: [],
      };
      groups.set(r.session_id, g);
    }
    g.group.hitCount++;
    g.group.newest = Math.max(g.group.newest, r.timestamp);
    g.all.push(r);
  }
  // FTS rowids follow the order rows were indexed in, which is only roughly time order across sessions.
  const ordered = [...groups.values()].sort((a, b) => b.group.newest - a.group.newest);
  return ordered.map(({ group, all }) => ({
    ...group,
    hits: all
      .sort((a, b) => score(b) - score(a) || b.timestamp - a.timestamp)
      .slice(0, BEST_PER_SESSION)
      .map((r) => ({ seq: r.seq, kind: r.kind, snippet: r.snippet, timestamp: r.timestamp })),
  }));
}
