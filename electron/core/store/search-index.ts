/**
 * The full-text index is derived data, built off the append path.
 *
 * Why: indexing a message in FTS5 inside every append transaction costs several
 * times the append itself (each commit writes a new FTS segment and merges),
 * and the agent loop waits on appends while streaming. So an append only
 * commits its entry row; `sessions.fts_indexed_seq` says how far each
 * session's entries are indexed, and the indexer catches up: in fixed-size
 * slices (at most `sliceChars` of text, or `mergeSteps` FTS5 merge steps)
 * when the app is idle (a short timer, then one slice per timer turn), one
 * slice with an append when the backlog grows past a bound, and completely before every search (so search never misses a
 * committed message) and at close. A crash loses nothing: the watermark is in the
 * database and the next batch picks the rows up.
 */
import { messageText, type SessionEntry } from "../../../shared/protocol";
import type { StoreContext } from "./db";
import { isSessionEntryShape } from "./entry-shape";
import { LAST_ENTRY_ID_SQL, VISIBLE, sessionRange } from "./keys";

interface PendingRow {
  id: number;
  kind: string;
  content: string;
}

/** Rows read per session per statement (the size bound is checked before each row). */
const STEP_ROWS = 32;
const MESSAGE_KINDS = new Set(["user", "assistant", "toolResult"]);

export interface SliceResult {
  /** Texts added to the index. */
  indexed: number;
  /** Characters of those texts. */
  chars: number;
  /** Entry rows read (indexed or skipped as not searchable). */
  scanned: number;
  /** Sessions still behind after this slice (empty: the index is up to date). */
  behind: string[];
}

/**
 * Indexes entries above the watermark of the given sessions (all sessions when
 * `sessionIds` is "all"), in one transaction, up to `maxChars` of text
 * (Infinity: everything). Bounded by text, not rows: one tool result can hold
 * as much text as a hundred messages; the first row always goes in, so every
 * slice makes progress. A session's rows go in seq order and its watermark
 * moves with them, so a slice can stop anywhere and the next one carries on.
 * FTS rowids follow the order rows are indexed in, which is time order within
 * a session (search lists newest first by rowid).
 */
export function indexSlice(ctx: StoreContext, sessionIds: Iterable<string> | "all", maxChars = Infinity): SliceResult {
  return ctx.tx(() => {
    const behind =
      sessionIds === "all"
        ? (ctx
            .stmt(
              `SELECT s.id, s.num, s.fts_indexed_seq FROM sessions s
               WHERE ${VISIBLE} AND s.fts_indexed_seq < coalesce(${LAST_ENTRY_ID_SQL} - s.num * 4294967296, 0)`,
            )
            .raw()
            .all() as Array<[string, number, number]>)
        : [...sessionIds].flatMap((id) => {
            const row = ctx.stmt(`SELECT id, num, fts_indexed_seq FROM sessions s WHERE id = ? AND ${VISIBLE}`).raw().get(id) as
              [string, number, number] | undefined;
            return row === undefined ? [] : [row];
          });
    const rowsOf = ctx.stmt(`SELECT id, kind, content FROM entries WHERE id BETWEEN ? AND ? ORDER BY id LIMIT ${STEP_ROWS}`);
    const insertText = ctx.stmt(`INSERT INTO entries_fts (text) VALUES (?)`);
    const insertRow = ctx.stmt(`INSERT INTO search_rows (fts_rowid, entry_id) VALUES (?, ?)`);
    const setWatermark = ctx.stmt(`UPDATE sessions SET fts_indexed_seq = ? WHERE id = ?`);
    const result: SliceResult = { indexed: 0, chars: 0, scanned: 0, behind: [] };
    const full = (nextChars: number): boolean => result.scanned > 0 && result.chars + nextChars > maxChars;
    for (const [sessionId, num, indexedSeq] of behind) {
      const [lo, hi] = sessionRange(num);
      let seq = indexedSeq;
      let done = false;
      let stopped = full(0);
      while (!stopped) {
        const rows = rowsOf.all(lo + seq + 1, hi) as PendingRow[];
        for (const row of rows) {
          const text = MESSAGE_KINDS.has(row.kind) ? searchableText(row.content) : "";
          if (full(text.length)) {
            stopped = true;
            break;
          }
          if (text.length > 0) {
            insertRow.run(insertText.run(text).lastInsertRowid, row.id);
            result.indexed++;
            result.chars += text.length;
          }
          seq = row.id - lo;
          result.scanned++;
        }
        if (!stopped && rows.length < STEP_ROWS) done = true;
        if (done) break;
      }
      if (seq !== indexedSeq) setWatermark.run(seq, sessionId);
      if (!done) result.behind.push(sessionId);
    }
    return result;
  });
}

/** Indexes everything pending for these sessions in one transaction; returns how many texts were indexed. */
export function indexPending(ctx: StoreContext, sessionIds: Iterable<string> | "all"): number {
  return indexSlice(ctx, sessionIds).indexed;
}

// eslint-disable-next-line no-control-regex -- the snippet markers are control characters
const MARKERS = /[\u0002\u0003]/gu;

/** `messageText` of a stored message row; "" for a row that no longer parses (loading reports those). */
function searchableText(content: string): string {
  try {
    const value: unknown = JSON.parse(content);
    if (!isSessionEntryShape(value)) return "";
    const entry = value as SessionEntry;
    // \u0002 and \u0003 mark matches in snippets (search.ts): stored text must not be able to fake one.
    return entry.type === "message" ? messageText(entry.message).replace(MARKERS, " ") : "";
  } catch {
    return "";
  }
}

/** Pages one FTS5 'merge' step writes (4 KB each): well under a millisecond. */
const MERGE_PAGES = 16;

/**
 * FTS5 merges its segments inside the commit that writes a new one
 * ("automerge"): every 64 leaf pages written, 64 pages times the number of
 * levels, 15–40 ms of one commit once the index holds a few hundred thousand
 * texts. With automerge off the index slices merge instead, a few steps of
 * MERGE_PAGES at a time (`mergeSlice`). The setting lives in the FTS table's own config row; this
 * writes it only when it differs, so open stays one cheap read.
 */
export function useSlicedMerges(ctx: StoreContext): void {
  const current = ctx.stmt(`SELECT v FROM entries_fts_config WHERE k = 'automerge'`).pluck().get();
  if (current !== 0) ctx.stmt(`INSERT INTO entries_fts (entries_fts, rank) VALUES ('automerge', 0)`).run();
}

/**
 * Runs up to `steps` merge steps. Returns true when the last step still found
 * work (more may remain), false when FTS5 had nothing left to merge (its
 * "merge" did not change anything).
 */
export function mergeSlice(ctx: StoreContext, steps: number): boolean {
  const merge = ctx.stmt(`INSERT INTO entries_fts (entries_fts, rank) VALUES ('merge', ${MERGE_PAGES})`);
  const changes = ctx.stmt(`SELECT total_changes()`).pluck();
  for (let n = 0; n < steps; n++) {
    const before = changes.get() as number;
    merge.run();
    if ((changes.get() as number) - before < 2) return false;
  }
  return true;
}

export interface IndexerOptions {
  /** Idle delay before background slices start; null disables them (the index still catches up on search, backlog and close). */
  idleMs: number | null;
  /** Appends after which an append also runs one slice, bounding the backlog of a writer that never yields. */
  maxBacklog: number;
  /** Most text an index slice adds (characters): a few milliseconds of FTS5 work and commit. */
  sliceChars: number;
  /** Merge steps of a merge slice. */
  mergeSteps: number;
}

export const DEFAULT_INDEXER_OPTIONS: IndexerOptions = { idleMs: 200, maxBacklog: 512, sliceChars: 32_768, mergeSteps: 4 };

/**
 * Decides when to index. One per store; assumes the store is the only writer.
 * Background work runs in fixed-size slices, each its own transaction,
 * with the event loop free between them (a timer), so IPC and the window
 * never wait on the index for more than one slice. `flush`
 * (before every search, and at close) indexes everything, so search is never
 * stale.
 */
export class SearchIndexer {
  private backlog = 0;
  /** Sessions with unindexed rows; "all" at open, as a previous process may have died mid-backlog. */
  private pending: Set<string> | "all" = "all";
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The next slice of a catch-up (a timer: the event loop turns between slices). */
  private nextSlice: ReturnType<typeof setTimeout> | undefined;
  /** The last background slice's error, reported by the next flush if it fails the same way. */
  lastError: unknown = null;
  /** Segment merges may remain (checked once after open, then after every slice that merged). */
  private merging = true;
  /** The next slice merges if merges remain (slices alternate between indexing and merging). */
  private mergeNext = false;
  /** What the last slice did (tests). */
  lastSlice: { texts: number; mergeSteps: number } | null = null;

  constructor(
    private readonly ctx: StoreContext,
    private readonly options: IndexerOptions = DEFAULT_INDEXER_OPTIONS,
    /** Told after each committed slice or flush (the idle WAL checkpoint waits for quiet). */
    private readonly written: () => void = () => {},
  ) {}

  /** Called for every inserted entry row (possibly inside a transaction: only bookkeeping here). */
  noteAppend(sessionId: string): void {
    this.backlog++;
    if (this.pending !== "all") this.pending.add(sessionId);
    this.schedule();
  }

  /** Rows were added outside appends (a salvage): look at every session again. */
  noteBulkInsert(): void {
    this.pending = "all";
    this.schedule();
  }

  get overBacklog(): boolean {
    return this.backlog >= this.options.maxBacklog;
  }

  /**
   * One slice: indexes pending rows, or merges index segments (in turns
   * while both are due). Returns true when nothing is pending any more.
   */
  slice(): boolean {
    const wantsIndex = this.pending === "all" || this.pending.size > 0;
    if (!wantsIndex && !this.merging) return true;
    // One kind of work per slice. While both are wanted, slices alternate: every segment an index
    // slice writes is followed by merge steps; without them, the level-0 segments pile up to FTS5's
    // crisis merge (16 of them merged inside one commit, measured at 40-100 ms).
    const merge = this.merging && (!wantsIndex || this.mergeNext);
    const indexing = wantsIndex && !merge;
    this.mergeNext = indexing;
    let result: SliceResult = { indexed: 0, chars: 0, scanned: 0, behind: [] };
    this.ctx.tx(() => {
      if (indexing) result = indexSlice(this.ctx, this.pending, this.options.sliceChars);
      if (merge) this.merging = mergeSlice(this.ctx, this.options.mergeSteps);
    });
    this.lastSlice = { texts: result.indexed, mergeSteps: merge ? this.options.mergeSteps : 0 };
    this.written();
    // A new segment: merges may be due again.
    if (result.indexed > 0) this.merging = true;
    if (indexing) {
      this.pending = new Set(result.behind);
      this.backlog = Math.max(0, this.backlog - result.scanned);
      if (this.pending.size === 0) this.backlog = 0;
    }
    return this.pending !== "all" && this.pending.size === 0 && !this.merging;
  }

  /** Brings the index up to date; cheap when nothing is pending. */
  flush(): number {
    this.cancel();
    if (this.pending !== "all" && this.pending.size === 0) return 0;
    const n = indexPending(this.ctx, this.pending);
    this.written();
    if (n > 0) this.merging = true;
    this.pending = new Set();
    this.backlog = 0;
    return n;
  }

  schedule(): void {
    if (this.timer !== undefined || this.nextSlice !== undefined || this.options.idleMs === null) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.runSlices();
    }, this.options.idleMs);
    this.timer.unref?.();
  }

  private runSlices(): void {
    try {
      if (!this.ctx.db.open || this.slice()) return;
    } catch (e) {
      // Still pending: the next search or close retries, and reports the error there.
      this.lastError = e;
      return;
    }
    this.nextSlice = setTimeout(() => {
      this.nextSlice = undefined;
      this.runSlices();
    }, 0);
    this.nextSlice.unref?.();
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.nextSlice !== undefined) clearTimeout(this.nextSlice);
    this.timer = undefined;
    this.nextSlice = undefined;
  }
}
