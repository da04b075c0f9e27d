/**
 * The main thread's time on a CPU and waiting in the run queue (Linux
 * /proc schedstat, nanoseconds), or null elsewhere. On a shared machine an
 * append's wall time includes waiting for a core; wall minus the wait is what
 * the same append costs on a quiet machine.
 */
import { readFileSync } from "node:fs";

const PATH = `/proc/self/task/${process.pid}/schedstat`;

export function mainThreadSched(): { cpuMs: number; queuedMs: number } | null {
  try {
    const [cpu, queued] = readFileSync(PATH, "utf8").split(" ").map(Number);
    return { cpuMs: cpu / 1e6, queuedMs: queued / 1e6 };
  } catch {
    return null; // not Linux: the figure is reported as null
  }
}
