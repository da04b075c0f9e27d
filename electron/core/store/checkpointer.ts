/**
 * WAL checkpoints off the main thread.
 *
 * Why: SQLite checkpoints inside the commit that pushes the WAL past
 * `wal_autocheckpoint` pages (1,000 by default): that one append copies ~4 MB
 * into the database file and fsyncs both files, 7–12 ms of CPU and up to
 * 100+ ms of waiting on a busy disk (measured with bench/store-stalls.ts). Here
 * a worker thread with its own connection runs `PRAGMA wal_checkpoint(PASSIVE)`
 * (which never blocks the writer) once enough writes accumulated or the store
 * went quiet; the main connection keeps a high autocheckpoint only as a
 * backstop, and returns to SQLite's default if the worker fails.
 *
 * The WAL restarts from its first frame only when a write begins with every
 * frame checkpointed. A writer that never pauses (10,000 appends in a loop)
 * outruns a PASSIVE checkpoint, so the WAL then grows to the backstop, whose
 * checkpoint on the main thread copies only what the worker has not yet
 * copied (the last few ms of writes) before the WAL restarts. Real sessions
 * pause between turns, and the worker catches up completely there.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import type { Db } from "./db";

/** Main-connection autocheckpoint while the worker runs: only reached if the worker falls behind. */
export const BACKSTOP_PAGES = 8192;
const SQLITE_DEFAULT_PAGES = 1000;

export interface CheckpointerOptions {
  /** How often the worker looks at the write counter (ms). */
  pollMs: number;
  /** Writes after which the worker checkpoints at its next look. */
  writes: number;
  /** Any write at all is checkpointed once this long passed since the last checkpoint (ms). */
  quietMs: number;
}

export const DEFAULT_CHECKPOINTER_OPTIONS: CheckpointerOptions = { pollMs: 25, writes: 64, quietMs: 1000 };

// Plain CommonJS, as in integrity.ts: an eval'd worker needs no build step, in Node and in Electron alike.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.modulePath);
const writes = new Int32Array(workerData.counter);
let db;
try {
  db = new Database(workerData.path, Object.assign({ fileMustExist: true }, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}));
  db.pragma("busy_timeout = 1000");
} catch (e) {
  parentPort.postMessage({ kind: "failed", message: String((e && e.message) || e) });
  process.exit(0);
}
let done = 0;
let at = Date.now();
const tick = () => {
  const now = Date.now();
  const total = Atomics.load(writes, 0);
  const pending = total - done;
  if (pending >= workerData.options.writes || (pending > 0 && now - at >= workerData.options.quietMs)) {
    try {
      const [r] = db.pragma("wal_checkpoint(PASSIVE)");
      done = total;
      at = now;
      parentPort.postMessage({ kind: "checkpointed", frames: Number(r.checkpointed), log: Number(r.log) });
    } catch (e) {
      parentPort.postMessage({ kind: "failed", message: String((e && e.message) || e) });
      db.close();
      return;
    }
  }
  timer = setTimeout(tick, workerData.options.pollMs);
};
let timer = setTimeout(tick, workerData.options.pollMs);
parentPort.on("message", () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

const MessageSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("checkpointed"), frames: z.number(), log: z.number() }),
  z.object({ kind: z.literal("failed"), message: z.string() }),
]);

/** One per store opened on a file with `checkpoints: "background"`. */
export class Checkpointer {
  private readonly writes = new Int32Array(new SharedArrayBuffer(4));
  private worker: Worker | null = null;
  /** Settles once the worker thread is gone (its connection closed): a folder can be removed after it. */
  private exited: Promise<void> = Promise.resolve();
  /** Why background checkpoints stopped (SQLite's own then run at commits again); null while they work. */
  lastError: string | null = null;
  /** Checkpoints the worker ran (for tests and diagnostics). */
  checkpoints = 0;
  /** Whether the worker thread exists (started and not yet exited). */
  threadAlive = false;

  constructor(
    private readonly db: Db,
    path: string,
    nativeBinding: string | undefined,
    options: CheckpointerOptions = DEFAULT_CHECKPOINTER_OPTIONS,
  ) {
    try {
      const modulePath = createRequire(import.meta.url).resolve("better-sqlite3");
      this.worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { path, modulePath, nativeBinding: nativeBinding ?? null, counter: this.writes.buffer, options },
      });
    } catch (e) {
      this.fallBack(`background checkpoints could not start: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const worker = this.worker;
    this.threadAlive = true;
    this.exited = new Promise((resolve) =>
      worker.once("exit", () => {
        this.threadAlive = false;
        resolve();
      }),
    );
    this.db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.worker.unref();
    this.worker.on("message", (raw: unknown) => {
      const msg = MessageSchema.safeParse(raw);
      if (!msg.success) return this.fallBack("background checkpoints sent an unreadable message");
      if (msg.data.kind === "checkpointed") this.checkpoints++;
      else this.fallBack(`background checkpoints failed: ${msg.data.message}`);
    });
    this.worker.on("error", (e) => this.fallBack(`background checkpoints failed: ${e.message}`));
    this.worker.on("exit", () => {
      if (this.worker !== null) this.fallBack("background checkpoints stopped");
    });
  }

  /** Counts a write (cheap: one atomic add); the worker decides when to checkpoint. */
  noteWrite(n = 1): void {
    if (this.worker !== null) Atomics.add(this.writes, 0, n);
  }

  /**
   * Stops the worker (it closes its connection); call before closing the main
   * connection. Settles when the thread has exited: a worker still starting
   * would otherwise open the file (and create its -wal and -shm) after the
   * store was closed, in a folder its owner is already removing.
   */
  stop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    // Unref'd while it runs (it must not keep the app alive); a caller awaiting its exit needs the loop kept alive.
    w?.ref();
    w?.postMessage("stop");
    return this.exited;
  }

  private fallBack(reason: string): void {
    this.lastError = reason;
    const w = this.worker;
    this.worker = null;
    if (w) {
      w.removeAllListeners();
      const gone = () => {
        this.threadAlive = false;
      };
      this.exited = w.terminate().then(gone, gone);
    }
    // Checkpoints must still happen: SQLite's own, at the commit that crosses its threshold.
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
  }
}
