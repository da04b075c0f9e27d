/**
 * A handoff between the main connection's writes and the checkpoint worker's
 * WAL restart, in shared memory.
 *
 * Why: the worker's `wal_checkpoint(RESTART)` holds SQLite's writer lock for a
 * few ms (it copies the last frames and syncs both files). An append that
 * meets it waited in SQLite's busy handler, which sleeps 1, 2, 5, 10 ms…
 * between tries: a 5 ms restart cost the append 8 ms, a 9 ms one 18 ms
 * (measured with bench/store-stalls.ts). With the gate, the worker restarts
 * only while it holds the gate, and the main thread waits on the gate word,
 * so it wakes the moment the worker lets go (Atomics.notify). SQLite's locks
 * still decide correctness: a write that does not take the gate (or gave up
 * waiting) falls back to the busy handler, never to a race.
 */

/** What the store's writes call around each transaction (nesting allowed). */
export interface WriteGate {
  enter(): void;
  leave(): void;
}

/** For a store without a checkpoint worker: nothing to hand off. */
export const OPEN_GATE: WriteGate = { enter() {}, leave() {} };

/** Values of the gate word. */
export const GATE_FREE = 0;
export const GATE_MAIN = 1;
export const GATE_WORKER = 2;

/**
 * The main thread's side: takes the word for each outermost write, waits
 * precisely while the worker holds it, and holds back while the worker asks
 * for it (the word after the gate's, `slot + 1`): a writer that never pauses
 * would otherwise take the word again before the worker's next look.
 */
export class SharedWriteGate implements WriteGate {
  private depth = 0;
  private held = false;
  /** Atomics.wait may be refused on a thread that must not block (then the wait spins on the word). */
  private canBlock = true;

  constructor(
    private readonly cells: Int32Array,
    private readonly slot: number,
    /** Longest wait before writing without the gate (SQLite's busy handler then waits, as before). */
    private readonly maxWaitMs: number,
  ) {}

  enter(): void {
    if (this.depth++ > 0) return;
    const { cells, slot } = this;
    this.held =
      (Atomics.load(cells, slot + 1) === 0 && Atomics.compareExchange(cells, slot, GATE_FREE, GATE_MAIN) === GATE_FREE) || this.waitTurn();
  }

  leave(): void {
    if (--this.depth > 0) return;
    if (this.held) {
      this.held = false;
      Atomics.store(this.cells, this.slot, GATE_FREE);
      // The worker asked meanwhile: wake it now rather than at its next look.
      if (Atomics.load(this.cells, this.slot + 1) !== 0) Atomics.notify(this.cells, this.slot);
    }
  }

  /** The worker is gone (it may have died holding the word): writes go straight to SQLite's locks. */
  release(): void {
    Atomics.store(this.cells, this.slot + 1, 0);
    Atomics.store(this.cells, this.slot, GATE_FREE);
  }

  private waitTurn(): boolean {
    const { cells, slot } = this;
    const until = performance.now() + this.maxWaitMs;
    for (;;) {
      const asked = Atomics.load(cells, slot + 1) !== 0;
      const seen = asked ? Atomics.load(cells, slot) : Atomics.compareExchange(cells, slot, GATE_FREE, GATE_MAIN);
      if (!asked && seen === GATE_FREE) return true;
      const left = until - performance.now();
      if (left <= 0) return false;
      if (this.canBlock) {
        try {
          // Woken by the worker's release (or its giving up); while it only asks, look again soon.
          Atomics.wait(cells, slot, seen, Math.min(left, asked ? 1 : 50));
        } catch {
          this.canBlock = false;
        }
      }
    }
  }
}

/**
 * The worker's side, as source for the eval'd worker (checkpointer.ts):
 * `takeGate(cells, slot, ms)` asks for the word (the main thread then holds
 * back its next write), waits up to `ms` for the write in progress to end
 * and takes it; `releaseGate` frees it and wakes a waiting main thread.
 */
export const WORKER_GATE_SOURCE = `
const takeGate = (cells, slot, ms) => {
  const until = Date.now() + ms;
  Atomics.store(cells, slot + 1, 1);
  try {
    while (Atomics.compareExchange(cells, slot, ${GATE_FREE}, ${GATE_WORKER}) !== ${GATE_FREE}) {
      if (Date.now() >= until) return false;
      Atomics.wait(cells, slot, ${GATE_MAIN}, 1);
    }
    return true;
  } finally {
    Atomics.store(cells, slot + 1, 0);
    // A main thread held back by the request goes on (when the worker gave up; else at the release).
    Atomics.notify(cells, slot);
  }
};
const releaseGate = (cells, slot) => {
  Atomics.store(cells, slot, ${GATE_FREE});
  Atomics.notify(cells, slot);
};
`;
