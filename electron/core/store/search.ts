/**
 * Full-text search over message text (FTS5, unicode61 tokenizer, diacritics folded).
 *
 * Indexed: text blocks of user and assistant messages and of tool results
 * (`messageText`). Not indexed: thinking, signatures, tool arguments, images,
 * non-message entries.
 */
import type { SearchHit } from "../../../shared/api";
import type { StoreContext } from "./db";
import { toStoreError } from "./errors";
import { VISIBLE } from "./keys";
import { clampLimit } from "./workspaces";
import { plainTitle } from "../../../shared/mentions";

export interface SearchOptions {
  workspaceId?: string;
  limit?: number;
}

/**
 * Turns what a user typed into a safe FTS5 query: every whitespace-separated
 * term becomes a quoted phrase (so `"`, `-`, `:`, `(`, `AND`, `NEAR` … are
 * plain text), control characters separate terms, all terms must match, and a trailing `*` keeps its prefix
 * meaning. Terms without a letter or digit are dropped (they hold no token).
 * Returns null when nothing searchable is left.
 */
export function toFtsQuery(query: string): string | null {
  const parts: string[] = [];
  // Control characters (NUL ends FTS5's query parser: "unterminated string") and lone surrogates separate terms.
  for (const raw of query.replace(/[\p{Cc}\p{Cs}]/gu, " ").split(/\s+/u)) {
    const prefix = raw.endsWith("*");
    const term = raw.replace(/\*+$/u, "");
    if (!/[\p{L}\p{N}]/u.test(term)) continue;
    parts.push(`"${term.replaceAll('"', '""')}"${prefix ? "*" : ""}`);
  }
  return parts.length > 0 ? parts.join(" ") : null;
}

interface HitRow {
  session_id: string;
  title: string;
  workspace_id: string;
  seq: number;
  timestamp: number;
  snippet: string;
}

/**
 * Hits ordered newest first: FTS rowids are assigned in timestamp order as
 * batches are indexed, and walking them descending lets SQLite stop after
 * `limit` matches instead of ranking them all. Snippets mark matches with
 * \u0002 … \u0003 and elide with "…". Never throws on what the user typed.
 */
export function search(ctx: StoreContext, query: string, opts: SearchOptions = {}): SearchHit[] {
  const fts = toFtsQuery(query);
  if (fts === null) return [];
  const limit = clampLimit(opts.limit ?? 50, 500);
  const byWorkspace = opts.workspaceId !== undefined;
  const sql = `SELECT e.session_id, s.title, s.workspace_id, e.seq, e.timestamp,
      snippet(entries_fts, 0, char(2), char(3), '…', 16) AS snippet
    FROM entries_fts f
    JOIN search_rows r ON r.fts_rowid = f.rowid
    JOIN entries e ON e.id = r.entry_id
    JOIN sessions s ON s.id = e.session_id
    WHERE entries_fts MATCH ? AND ${VISIBLE}${byWorkspace ? " AND s.workspace_id = ?" : ""}
    ORDER BY f.rowid DESC LIMIT ?`;
  let rows: HitRow[];
  try {
    const args = byWorkspace ? [fts, opts.workspaceId, limit] : [fts, limit];
    rows = ctx.stmt(sql).all(...args) as HitRow[];
  } catch (e) {
    throw toStoreError(e, "search failed");
  }
  return rows.map((r) => ({
    sessionId: r.session_id,
    sessionTitle: plainTitle(r.title),
    workspaceId: r.workspace_id,
    seq: r.seq,
    snippet: r.snippet,
    timestamp: r.timestamp,
  }));
}
