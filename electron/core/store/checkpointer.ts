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
 * frame checkpointed, and a PASSIVE checkpoint sees the WAL as it was when it
 * began: a writer that never pauses adds frames during every checkpoint, so
 * the WAL would grow to the backstop, whose checkpoint on the main thread
 * syncs both files inside an append. So while writes come in during its
 * checkpoints, the worker looks again every `behindMs` (any pause of the
 * writer lets it catch up, and the next append restarts the WAL); once the
 * WAL holds `restartFrames` and at most `restartGap` writes came in during
 * the last PASSIVE checkpoint, it runs a RESTART one, which copies those few
 * frames under the writer lock and restarts the WAL: the writer waits that
 * long (a couple of ms), at most once per `restartFrames`, on the write gate
 * (write-gate.ts), so it wakes as the restart ends. A reader holding
 * old frames (the integrity check's long read) makes the worker neither
 * retry quickly nor restart. The backstop stays for a worker that cannot keep
 * up (a saturated disk) or has not started yet: a bounded WAL first.
 * docs/performance.md, "No main-process stall at any history size".
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import type { Db } from "./db";
import { OPEN_GATE, SharedWriteGate, WORKER_GATE_SOURCE, type WriteGate } from "./write-gate";

/** Main-connection autocheckpoint while the worker runs: only reached if the worker cannot restart the WAL in time. */
export const BACKSTOP_PAGES = 16384;
const SQLITE_DEFAULT_PAGES = 1000;

export interface CheckpointerOptions {
  /** How often the worker looks at the write counter (ms). */
  pollMs: number;
  /** Writes after which the worker checkpoints at its next look. */
  writes: number;
  /** Any write at all is checkpointed once this long passed since the last checkpoint (ms). */
  quietMs: number;
  /** How soon the worker looks again when the writer outran its checkpoint (ms). */
  behindMs: number;
  /** WAL frames past which the worker restarts the WAL under the writer lock (the writer never paused). */
  restartFrames: number;
  /** Most writes that may come in during the PASSIVE checkpoint before a RESTART (they are what the RESTART copies while the writer waits). */
  restartGap: number;
  /** How long a RESTART waits for the write gate and the writer lock (a writer that never pauses still leaves them free between appends). */
  restartBusyMs: number;
}

export const DEFAULT_CHECKPOINTER_OPTIONS: CheckpointerOptions = {
  pollMs: 25,
  writes: 64,
  quietMs: 1000,
  behindMs: 2,
  restartFrames: 4096,
  restartGap: 64,
  restartBusyMs: 5,
};

/** Slots of the shared counters: what the main thread wrote, and what the worker did (read without a message round trip). */
const WRITES = 0;
const CHECKPOINTS = 1;
const RESTARTS = 2;
const READY = 3;
/** The write gate's word and the worker's request for it (write-gate.ts): the worker restarts the WAL only while it holds the gate. */
const GATE = 4;
const SLOTS = 6;
/** Longest a main-thread write waits on the gate before leaving it to SQLite's busy handler (a stuck disk). */
const GATE_MAX_WAIT_MS = 2000;

// Plain CommonJS, as in integrity.ts: an eval'd worker needs no build step, in Node and in Electron alike.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.modulePath);
const shared = new Int32Array(workerData.counters);
const o = workerData.options;
let db;
try {
  db = new Database(workerData.path, Object.assign({ fileMustExist: true, timeout: o.restartBusyMs }, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}));
} catch (e) {
  parentPort.postMessage({ kind: "failed", message: String((e && e.message) || e) });
  process.exit(0);
}
Atomics.store(shared, ${READY}, 1);
${WORKER_GATE_SOURCE}
let done = 0;
let at = Date.now();
// A checkpoint reports the WAL as it was when it began: writes counted meanwhile mean frames it did not
// see. Then it looks again soon (behindMs, at any count of writes), so any pause of the writer lets it
// catch up; a checkpoint held back by a reader (the integrity check's long read) waits pollMs instead.
let behind = false;
const tick = () => {
  const now = Date.now();
  const total = Atomics.load(shared, ${WRITES});
  const pending = total - done;
  if (behind || pending >= o.writes || (pending > 0 && now - at >= o.quietMs)) {
    try {
      done = total;
      at = now;
      const [p] = db.pragma("wal_checkpoint(PASSIVE)");
      const log = Number(p.log);
      const held = Number(p.checkpointed) < log;
      const meanwhile = Atomics.load(shared, ${WRITES}) - total;
      behind = meanwhile > 0 && !held;
      // The writer never paused: once few writes came in during the PASSIVE one (or halfway to the
      // backstop, which would copy as much on the main thread), a RESTART copies them under the writer
      // lock and restarts the WAL. busy: the writer or a reader was in the way; the next look tries again.
      // Under the write gate: an append that comes meanwhile waits on the gate word and wakes as it is
      // released, not in SQLite's busy handler, whose sleeps (1, 2, 5, 10 ms…) overshoot the restart.
      if (behind && log >= o.restartFrames && (meanwhile <= o.restartGap || log >= ${BACKSTOP_PAGES} / 2) && takeGate(shared, ${GATE}, o.restartBusyMs)) {
        try {
          const [x] = db.pragma("wal_checkpoint(RESTART)");
          if (Number(x.busy) === 0) {
            behind = false;
            Atomics.add(shared, ${RESTARTS}, 1);
          }
        } finally {
          releaseGate(shared, ${GATE});
        }
      }
      Atomics.add(shared, ${CHECKPOINTS}, 1);
    } catch (e) {
      // Locked for longer than its short busy timeout (another checkpoint, a recovery): try at the next look.
      const busy = e && typeof e.code === "string" && e.code.startsWith("SQLITE_BUSY");
      if (!busy) {
        parentPort.postMessage({ kind: "failed", message: String((e && e.message) || e) });
        db.close();
        return;
      }
      behind = false;
    }
  }
  timer = setTimeout(tick, behind ? o.behindMs : o.pollMs);
};
let timer = setTimeout(tick, o.pollMs);
parentPort.on("message", () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

const MessageSchema = z.object({ kind: z.literal("failed"), message: z.string() });

/** One per store opened on a file with `checkpoints: "background"`. */
export class Checkpointer {
  private readonly counters = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
  private worker: Worker | null = null;
  private readonly sharedGate = new SharedWriteGate(this.counters, GATE, GATE_MAX_WAIT_MS);
  /** What the main connection's writes take (write-gate.ts); stays free once the worker is gone. */
  gate: WriteGate = OPEN_GATE;
  /** Settles once the worker thread is gone (its connection closed): a folder can be removed after it. */
  private exited: Promise<void> = Promise.resolve();
  /** Why background checkpoints stopped (SQLite's own then run at commits again); null while they work. */
  lastError: string | null = null;
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
        workerData: { path, modulePath, nativeBinding: nativeBinding ?? null, counters: this.counters.buffer, options },
      });
    } catch (e) {
      this.fallBack(`background checkpoints could not start: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const worker = this.worker;
    this.gate = this.sharedGate;
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
      this.fallBack(
        msg.success ? `background checkpoints failed: ${msg.data.message}` : "background checkpoints sent an unreadable message",
      );
    });
    this.worker.on("error", (e) => this.fallBack(`background checkpoints failed: ${e.message}`));
    this.worker.on("exit", () => {
      if (this.worker !== null) this.fallBack("background checkpoints stopped");
    });
  }

  /** Checkpoints the worker ran (for tests and diagnostics; readable while the main thread never yields). */
  get checkpoints(): number {
    return Atomics.load(this.counters, CHECKPOINTS);
  }

  /** Whether the worker has its connection open (it starts in a few hundred ms; until then the backstop bounds the WAL). */
  get ready(): boolean {
    return Atomics.load(this.counters, READY) === 1;
  }

  /** WAL restarts the worker made under the writer lock because the writer never paused. */
  get restarts(): number {
    return Atomics.load(this.counters, RESTARTS);
  }

  /** Counts a write (cheap: one atomic add); the worker decides when to checkpoint. */
  noteWrite(n = 1): void {
    if (this.worker !== null) Atomics.add(this.counters, WRITES, n);
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
    // Its RESTART releases the gate in a finally, so a worker that failed or exited holds none; a thread
    // killed mid-restart would have left it taken, and nothing will take it again.
    this.sharedGate.release();
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
