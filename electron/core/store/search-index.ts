/**
 * The full-text index is derived data, built off the append path.
 *
 * Why: indexing a message in FTS5 inside every append transaction costs several
 * times the append itself (each commit writes a new FTS segment and merges),
 * and the agent loop waits on appends while streaming. So an append only
 * commits its entry row; `sessions.fts_indexed_seq` says how far each
 * session's entries are indexed, and the indexer catches up in one batched
 * transaction: when the app is idle (a short timer), when the backlog grows
 * past a bound, before every search (so search never misses a committed
 * message), and at close. A crash loses nothing: the watermark is in the
 * database and the next batch picks the rows up.
 */
import { messageText, type SessionEntry } from "../../../shared/protocol";
import type { StoreContext } from "./db";
import { lastEntry } from "./entries";
import { isSessionEntryShape } from "./entry-shape";
import { LAST_ENTRY_ID_SQL, sessionRange } from "./keys";

interface PendingRow {
  id: number;
  timestamp: number;
  content: string;
}

/**
 * Indexes every entry above the watermark of the given sessions (all sessions
 * when `sessionIds` is "all"), in one transaction. Rows are inserted in
 * timestamp order, so FTS rowids (and search results) run newest last.
 * Returns how many texts were indexed.
 */
export function indexPending(ctx: StoreContext, sessionIds: Iterable<string> | "all"): number {
  return ctx.tx(() => {
    const behind =
      sessionIds === "all"
        ? (ctx
            .stmt(
              `SELECT s.id, s.num, s.fts_indexed_seq FROM sessions s
               WHERE s.fts_indexed_seq < coalesce(${LAST_ENTRY_ID_SQL} - s.num * 4294967296, 0)`,
            )
            .raw()
            .all() as Array<[string, number, number]>)
        : [...sessionIds].flatMap((id) => {
            const row = ctx.stmt(`SELECT id, num, fts_indexed_seq FROM sessions WHERE id = ?`).raw().get(id) as
              | [string, number, number]
              | undefined;
            return row === undefined ? [] : [row];
          });
    const rowsOf = ctx.stmt(
      `SELECT id, timestamp, content FROM entries WHERE id BETWEEN ? AND ? AND kind IN ('user', 'assistant', 'toolResult')`,
    );
    const pending: PendingRow[] = [];
    for (const [sessionId, num, indexedSeq] of behind) {
      const [lo, hi] = sessionRange(num);
      pending.push(...(rowsOf.all(lo + indexedSeq + 1, hi) as PendingRow[]));
      const last = lastEntry(ctx, num);
      const lastSeq = last === undefined ? 0 : last.id - lo;
      if (lastSeq !== indexedSeq) ctx.stmt(`UPDATE sessions SET fts_indexed_seq = ? WHERE id = ?`).run(lastSeq, sessionId);
    }
    pending.sort((a, b) => a.timestamp - b.timestamp || a.id - b.id);
    const insertText = ctx.stmt(`INSERT INTO entries_fts (text) VALUES (?)`);
    const insertRow = ctx.stmt(`INSERT INTO search_rows (fts_rowid, entry_id) VALUES (?, ?)`);
    let indexed = 0;
    for (const row of pending) {
      const text = searchableText(row.content);
      if (text.length === 0) continue;
      insertRow.run(insertText.run(text).lastInsertRowid, row.id);
      indexed++;
    }
    return indexed;
  });
}

/** `messageText` of a stored message row; "" for a row that no longer parses (loading reports those). */
function searchableText(content: string): string {
  try {
    const value: unknown = JSON.parse(content);
    if (!isSessionEntryShape(value)) return "";
    const entry = value as SessionEntry;
    return entry.type === "message" ? messageText(entry.message) : "";
  } catch {
    return "";
  }
}

export interface IndexerOptions {
  /** Idle delay before a background batch; null disables the timer (batches still run on search, backlog and close). */
  idleMs: number | null;
  /** Appends after which the next append indexes synchronously, bounding the backlog. */
  maxBacklog: number;
}

export const DEFAULT_INDEXER_OPTIONS: IndexerOptions = { idleMs: 200, maxBacklog: 512 };

/** Decides when to run `indexPending`. One per store; assumes the store is the only writer. */
export class SearchIndexer {
  private backlog = 0;
  /** Sessions with unindexed rows; "all" at open, as a previous process may have died mid-backlog. */
  private pending: Set<string> | "all" = "all";
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ctx: StoreContext,
    private readonly options: IndexerOptions = DEFAULT_INDEXER_OPTIONS,
  ) {}

  /** Called for every inserted entry row (possibly inside a transaction: only bookkeeping here). */
  noteAppend(sessionId: string): void {
    this.backlog++;
    if (this.pending !== "all") this.pending.add(sessionId);
    this.schedule();
  }

  get overBacklog(): boolean {
    return this.backlog >= this.options.maxBacklog;
  }

  /** Brings the index up to date; cheap when nothing is pending. */
  flush(): number {
    this.cancel();
    if (this.pending !== "all" && this.pending.size === 0) return 0;
    const n = indexPending(this.ctx, this.pending);
    this.pending = new Set();
    this.backlog = 0;
    return n;
  }

  schedule(): void {
    if (this.timer !== undefined || this.options.idleMs === null) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      try {
        if (this.ctx.db.open) this.flush();
      } catch {
        // Still pending: the next search or close retries, and reports the error there.
      }
    }, this.options.idleMs);
    this.timer.unref?.();
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
