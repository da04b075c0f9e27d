/**
 * Model- and user-supplied regular expressions run here, never on the main
 * thread: JavaScript regexes backtrack, and `(a+)+$` against a 40-character
 * line would run for hours and freeze the process (the desktop app's main
 * process runs the tools). A job runs in a worker thread with a hard
 * deadline; past it the worker is terminated (V8 interrupts a running regex)
 * and the caller gets REGEX_TOO_SLOW. Idle workers are kept for the next job.
 *
 * Why not RE2: `re2` needs Node 22 or a native build, and `re2-wasm` aborts
 * the process on inputs over its 16 MB heap and costs ~7 µs per call
 * (docs/tool-sandbox.md).
 *
 * The thread's code is regex-thread.ts. Contract: `runRegexJob` never rejects; the pattern is compiled by the
 * caller first (compiling is linear and safe on the main thread).
 */
import type { Worker } from "node:worker_threads";
import { startWorker } from "../process/worker-file";
import { REGEX_JOB_TIMEOUT_MS } from "./limits";

export type RegexJob =
  /** For each text: the 1-based numbers of its lines (split on "\n", a final "\r" dropped) that match. */
  | { op: "lines"; source: string; flags: string; texts: string[] }
  /** For each input: whether it matches. */
  | { op: "test"; source: string; flags: string; inputs: string[] };

export type RegexJobResult<J extends RegexJob> = J extends { op: "lines" } ? number[][] : boolean[];

export type RegexOutcome<T> = { ok: true; value: T } | { ok: false; reason: "timeout" | "aborted" | "failed"; message: string };

const MAX_IDLE = 2;
const idle: Worker[] = [];

function takeWorker(): Worker {
  const w = idle.pop() ?? startWorker("regex-thread", import.meta.url);
  w.ref();
  return w;
}

function giveBack(w: Worker): void {
  w.removeAllListeners("message");
  w.removeAllListeners("error");
  w.removeAllListeners("exit");
  if (idle.length >= MAX_IDLE) {
    void w.terminate();
    return;
  }
  // An idle worker must not keep the process alive.
  w.unref();
  idle.push(w);
}

export function runRegexJob<J extends RegexJob>(
  job: J,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<RegexOutcome<RegexJobResult<J>>> {
  const timeoutMs = options.timeoutMs ?? REGEX_JOB_TIMEOUT_MS;
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve({ ok: false, reason: "aborted", message: "aborted" });
    const worker = takeWorker();
    let done = false;
    const finish = (outcome: RegexOutcome<RegexJobResult<J>>, keep: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (keep) giveBack(worker);
      else void worker.terminate();
      resolve(outcome);
    };
    const onAbort = () => finish({ ok: false, reason: "aborted", message: "aborted" }, false);
    const timer = setTimeout(() => finish({ ok: false, reason: "timeout", message: `stopped after ${timeoutMs} ms` }, false), timeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (m: { ok: true; value: RegexJobResult<J> } | { ok: false; message: string }) => {
      finish(m.ok ? { ok: true, value: m.value } : { ok: false, reason: "failed", message: m.message }, true);
    });
    worker.on("error", (err) => finish({ ok: false, reason: "failed", message: err.message }, false));
    worker.on("exit", () => finish({ ok: false, reason: "failed", message: "the regex worker exited" }, false));
    worker.postMessage(job);
  });
}
