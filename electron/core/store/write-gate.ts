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

/** The main thread's side: takes the word for each outermost write, waits precisely while the worker holds it. */
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
    this.held = Atomics.compareExchange(this.cells, this.slot, GATE_FREE, GATE_MAIN) === GATE_FREE || this.waitTurn();
  }

  leave(): void {
    if (--this.depth > 0) return;
    if (this.held) {
      this.held = false;
      Atomics.store(this.cells, this.slot, GATE_FREE);
    }
  }

  /** The worker is gone (it may have died holding the word): writes go straight to SQLite's locks. */
  release(): void {
    Atomics.store(this.cells, this.slot, GATE_FREE);
  }

  private waitTurn(): boolean {
    const until = performance.now() + this.maxWaitMs;
    for (;;) {
      const seen = Atomics.compareExchange(this.cells, this.slot, GATE_FREE, GATE_MAIN);
      if (seen === GATE_FREE) return true;
      const left = until - performance.now();
      if (left <= 0) return false;
      if (this.canBlock) {
        try {
          Atomics.wait(this.cells, this.slot, seen, Math.min(left, 50));
        } catch {
          this.canBlock = false;
        }
      }
    }
  }
}

/**
 * The worker's side, as source for the eval'd worker (checkpointer.ts):
 * `takeGate(shared, slot, ms)` waits up to `ms` for the main thread to finish
 * its current write (tens of µs) and takes the word; `releaseGate` frees it
 * and wakes a waiting main thread.
 */
export const WORKER_GATE_SOURCE = `
const takeGate = (cells, slot, ms) => {
  const until = Date.now() + ms;
  while (Atomics.compareExchange(cells, slot, ${GATE_FREE}, ${GATE_WORKER}) !== ${GATE_FREE}) {
    if (Date.now() >= until) return false;
    Atomics.wait(cells, slot, ${GATE_MAIN}, 0.02);
  }
  return true;
};
const releaseGate = (cells, slot) => {
  Atomics.store(cells, slot, ${GATE_FREE});
  Atomics.notify(cells, slot);
};
`;
