/**
 * WAL checkpoints while the store is idle.
 *
 * Why: SQLite checkpoints inside the commit that pushes the WAL past
 * `wal_autocheckpoint` pages (1,000 by default), so that one append pays for
 * copying the WAL into the database file. The app writes in bursts (a turn)
 * and then goes quiet: one PASSIVE checkpoint on the main connection `idleMs`
 * after the last write keeps the WAL short, so SQLite's own checkpoint is
 * rarely reached; it stays as the bound for a writer that never pauses.
 * PASSIVE never waits for a reader or a writer (a long read keeps its frames).
 */
import type { Db } from "./db";

export const DEFAULT_WAL_IDLE_MS = 1000;

export class WalCheckpoint {
  private timer: NodeJS.Timeout | null = null;
  private lastWrite = 0;
  /** Idle checkpoints run (diagnostics, tests). */
  checkpoints = 0;
  /** Why the last idle checkpoint failed (SQLite's own still bounds the WAL); null when it worked. */
  lastError: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly idleMs = DEFAULT_WAL_IDLE_MS,
  ) {}

  /** Called after each committed write: one timestamp, and a timer only when none is pending. */
  noteWrite(): void {
    this.lastWrite = Date.now();
    if (this.timer === null) this.arm(this.idleMs);
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.fire(), ms);
    // A pending checkpoint must not keep the process alive.
    this.timer.unref();
  }

  private fire(): void {
    this.timer = null;
    const quietFor = Date.now() - this.lastWrite;
    if (quietFor < this.idleMs) return this.arm(this.idleMs - quietFor);
    if (!this.db.open) return;
    try {
      this.db.pragma("wal_checkpoint(PASSIVE)");
      this.checkpoints++;
      this.lastError = null;
    } catch (e) {
      // Busy (another connection's checkpoint or recovery): the next idle moment tries again.
      const code = (e as { code?: unknown }).code;
      if (typeof code === "string" && code.startsWith("SQLITE_BUSY")) return;
      this.lastError = e instanceof Error ? e.message : String(e);
    }
  }
}
