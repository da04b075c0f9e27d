/**
 * The write gate between the main connection's writes and the checkpoint
 * worker's WAL restart (electron/core/store/write-gate.ts): a write that meets
 * the worker's restart waits on the gate word and goes on as soon as the
 * worker lets go; the worker never restarts while a write is in progress; and
 * a word left taken never blocks writes for good.
 */
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GATE_FREE, GATE_MAIN, GATE_WORKER, SharedWriteGate, WORKER_GATE_SOURCE } from "../../electron/core/store/write-gate";

/** The gate's word; the word after it is the worker's request. */
const WORD = 0;
/** Set by the test worker: 1 once it holds the gate, 2 once its work under the gate is done. */
const STATE = 2;
/** The test worker's last takeGate result: 1 taken, 2 refused. */
const TAKEN = 3;

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.terminate()));
});

/** A thread running the worker's side of the gate, told what to do by messages. */
function gateWorker(cells: Int32Array): Worker {
  const w = new Worker(
    `
    const { parentPort, workerData } = require("node:worker_threads");
    const cells = new Int32Array(workerData);
    ${WORKER_GATE_SOURCE}
    parentPort.on("message", (m) => {
      if (m.kind === "hold") {
        takeGate(cells, ${WORD}, 1000);
        Atomics.store(cells, ${STATE}, 1);
        // Work under the gate (a RESTART), then let go.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, m.ms);
        Atomics.store(cells, ${STATE}, 2);
        releaseGate(cells, ${WORD});
      } else if (m.kind === "try") {
        const ok = takeGate(cells, ${WORD}, m.ms);
        if (ok) releaseGate(cells, ${WORD});
        Atomics.store(cells, ${TAKEN}, ok ? 1 : 2);
      }
    });
    `,
    { eval: true, workerData: cells.buffer },
  );
  workers.push(w);
  return w;
}

const cellsOf = () => new Int32Array(new SharedArrayBuffer(4 * 4));

describe("the write gate", () => {
  it("a write that meets the worker's restart waits for it to end, then holds the gate until the write ends", async () => {
    const cells = cellsOf();
    const gate = new SharedWriteGate(cells, WORD, 10_000);
    gateWorker(cells).postMessage({ kind: "hold", ms: 40 });
    await vi.waitFor(() => expect(Atomics.load(cells, STATE)).toBe(1), { timeout: 20_000, interval: 1 });
    gate.enter();
    // Only after the worker's work under the gate: the write never overlaps it.
    expect(Atomics.load(cells, STATE)).toBe(2);
    expect(Atomics.load(cells, WORD)).toBe(GATE_MAIN);
    gate.leave();
    expect(Atomics.load(cells, WORD)).toBe(GATE_FREE);
  });

  it("the worker does not take the gate while a write holds it, and takes it once the write ended", async () => {
    const cells = cellsOf();
    const gate = new SharedWriteGate(cells, WORD, 10_000);
    const w = gateWorker(cells);
    gate.enter();
    w.postMessage({ kind: "try", ms: 20 });
    await vi.waitFor(() => expect(Atomics.load(cells, TAKEN)).toBe(2), { timeout: 20_000, interval: 1 });
    gate.leave();
    Atomics.store(cells, TAKEN, 0);
    w.postMessage({ kind: "try", ms: 1000 });
    await vi.waitFor(() => expect(Atomics.load(cells, TAKEN)).toBe(1), { timeout: 20_000, interval: 1 });
    expect(Atomics.load(cells, WORD)).toBe(GATE_FREE);
  });

  it("a writer that never pauses still lets the worker in: it holds back its next write while the worker asks", async () => {
    const cells = cellsOf();
    const gate = new SharedWriteGate(cells, WORD, 10_000);
    const w = gateWorker(cells);
    await once(w, "online"); // the worker thread runs before the busy loop below starts
    w.postMessage({ kind: "try", ms: 2000 });
    // Back-to-back writes with no gap at all between them, until the worker got its turn (or 5 s).
    const until = performance.now() + 5000;
    while (Atomics.load(cells, TAKEN) === 0 && performance.now() < until) {
      gate.enter();
      gate.leave();
    }
    expect(Atomics.load(cells, TAKEN)).toBe(1);
  });

  it("nested transactions take the gate once and free it at the outermost end", () => {
    const cells = cellsOf();
    const gate = new SharedWriteGate(cells, WORD, 10_000);
    gate.enter();
    gate.enter();
    gate.leave();
    expect(Atomics.load(cells, WORD)).toBe(GATE_MAIN);
    gate.leave();
    expect(Atomics.load(cells, WORD)).toBe(GATE_FREE);
  });

  it("a gate left taken (a worker that died holding it) delays a write by at most the bound, and is not stolen", () => {
    const cells = cellsOf();
    const gate = new SharedWriteGate(cells, WORD, 20);
    Atomics.store(cells, WORD, GATE_WORKER);
    gate.enter(); // returns: the write goes on under SQLite's own locks
    gate.leave();
    expect(Atomics.load(cells, WORD)).toBe(GATE_WORKER);
    gate.release();
    gate.enter();
    expect(Atomics.load(cells, WORD)).toBe(GATE_MAIN);
    gate.leave();
  });
});
