/**
 * Detecting lost commits: a file beside the database (`<db>.tails`) records
 * the last seq of each recently written session, and the next open compares.
 *
 * Why: a `-wal` file cut short (a sync tool, a copy taken mid-write, a disk
 * that filled up) makes SQLite drop every commit after the cut without a word:
 * the database that remains is consistent, passes the integrity check, and
 * its seqs are still contiguous, so nothing inside it can tell. Something
 * outside it can. Seqs only grow (an entry is never removed from a session
 * but with the whole session), so a session whose last seq is now below its
 * mark lost acknowledged entries.
 *
 * Cost: the file is rewritten at most every `delayMs`, off the append path
 * (a timer), from the database's own committed values for the sessions
 * touched since (so it never records what did not commit, and a second
 * process writing the same database keeps it right); it holds the
 * `MAX_MARKS` most recent sessions only, as loss can only hit the newest
 * commits. A mark newer than the last flush is not there: commits in the
 * last `delayMs` before a loss can go unreported (the WAL check at open,
 * `walCutShort`, still says the file was cut).
 */
import { closeSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from "node:fs";
import { z } from "zod";
import type { StoreContext } from "./db";
import { LAST_ENTRY_ID_SQL } from "./keys";

/** Sessions kept in the file (the most recently written). */
export const MAX_MARKS = 200;
export const MARKS_DELAY_MS = 250;

const MarksSchema = z.object({
  version: z.literal(1),
  /** session id → [last seq, when written (ms)] */
  sessions: z.record(z.string(), z.tuple([z.number().int().nonnegative(), z.number()])),
});
type Marks = z.infer<typeof MarksSchema>["sessions"];

/** A session that has fewer entries than were acknowledged before. */
export interface EntryLoss {
  sessionId: string;
  title: string;
  /** Its last seq now. */
  kept: number;
  /** Its last seq when the marks were written. */
  acknowledged: number;
}

export function marksFile(dbPath: string): string {
  return `${dbPath}.tails`;
}

function readMarks(file: string): Marks {
  try {
    const parsed = MarksSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    return parsed.success ? parsed.data.sessions : {};
  } catch {
    // Missing or unreadable: nothing to compare (the marks are a safeguard, never a source of truth).
    return {};
  }
}

function lastSeqs(ctx: StoreContext, ids: Iterable<string>): Map<string, { seq: number; title: string } | null> {
  const stmt = ctx.stmt(`SELECT s.title, coalesce(${LAST_ENTRY_ID_SQL} - s.num * 4294967296, 0) AS seq FROM sessions s WHERE s.id = ?`);
  const out = new Map<string, { seq: number; title: string } | null>();
  for (const id of ids) {
    const row = stmt.get(id) as { title: string; seq: number } | undefined;
    out.set(id, row === undefined ? null : row);
  }
  return out;
}

/**
 * Sessions that hold fewer entries than their marks say. A session that no
 * longer exists is not counted (it may have been deleted). Rewrites the file
 * to the database as it is now, so a loss is reported once.
 */
export function checkMarks(ctx: StoreContext, dbPath: string): EntryLoss[] {
  const file = marksFile(dbPath);
  const marks = readMarks(file);
  const ids = Object.keys(marks);
  if (ids.length === 0) return [];
  const now = lastSeqs(ctx, ids);
  const losses: EntryLoss[] = [];
  const next: Marks = {};
  for (const id of ids) {
    const current = now.get(id);
    if (!current) continue;
    const [acknowledged, at] = marks[id];
    if (current.seq < acknowledged) losses.push({ sessionId: id, title: current.title, kept: current.seq, acknowledged });
    next[id] = [current.seq, at];
  }
  if (losses.length > 0) writeMarks(file, next);
  return losses;
}

function writeMarks(file: string, marks: Marks): void {
  const kept = Object.entries(marks)
    .sort((a, b) => b[1][1] - a[1][1])
    .slice(0, MAX_MARKS);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ version: 1, sessions: Object.fromEntries(kept) }));
    renameSync(tmp, file);
  } catch {
    // A full or read-only disk: the marks are a safeguard; the store reports its own write failures.
  }
}

/** Keeps the marks file in step with the sessions this store writes. */
export class TailMarks {
  private readonly touched = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ctx: StoreContext,
    private readonly dbPath: string,
    private readonly delayMs = MARKS_DELAY_MS,
  ) {}

  /** Entries were committed (or the session was deleted): its mark is brought up to date soon. */
  touch(sessionId: string): void {
    this.touched.add(sessionId);
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.delayMs);
    this.timer.unref?.();
  }

  /** Writes the marks of the sessions touched since the last flush, from what the database holds now. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.touched.size === 0 || !this.ctx.db.open || this.ctx.db.inTransaction) return;
    const file = marksFile(this.dbPath);
    const marks = readMarks(file);
    let now: Map<string, { seq: number; title: string } | null>;
    try {
      now = lastSeqs(this.ctx, this.touched);
    } catch {
      return; // the database refused the read (busy): the next touch or close tries again
    }
    const at = this.ctx.now();
    for (const [id, current] of now) {
      if (current === null) delete marks[id];
      else marks[id] = [current.seq, at];
    }
    this.touched.clear();
    writeMarks(file, marks);
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Whether the `-wal` beside `dbPath` ends inside a frame: SQLite writes whole
 * frames, so a size that is not the header plus whole frames means the file
 * was cut, and SQLite will drop the last transactions without a word. Read
 * before the database is opened (opening recovers the WAL and may rewrite it).
 */
export function walCutShort(dbPath: string): boolean {
  const wal = `${dbPath}-wal`;
  let size: number;
  try {
    size = statSync(wal).size;
  } catch {
    return false;
  }
  if (size === 0) return false;
  if (size < 32) return true;
  const header = Buffer.alloc(32);
  try {
    const fd = openSync(wal, "r");
    try {
      readSync(fd, header, 0, 32, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  const magic = header.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return false;
  const pageSize = header.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65536) return false;
  return (size - 32) % (pageSize + 24) !== 0;
}
