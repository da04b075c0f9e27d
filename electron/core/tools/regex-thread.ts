/**
 * The worker thread of regex-worker.ts: runs one regex job at a time and
 * answers with its result. Never given anything but a pattern and texts; the
 * main thread terminates it when a job passes its deadline.
 */
import { parentPort } from "node:worker_threads";
import type { RegexJob } from "./regex-worker";

/** The 1-based numbers of the lines of `text` (split on "\n", a final "\r" dropped) that match. */
function matchingLines(re: RegExp, text: string): number[] {
  const hits: number[] = [];
  let start = 0;
  let n = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    const last = end === -1;
    if (last) end = text.length;
    if (last && start === end) break;
    n++;
    let line = text.slice(start, end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (re.test(line)) hits.push(n);
    if (last) break;
    start = end + 1;
  }
  return hits;
}

const port = parentPort;
port?.on("message", (job: RegexJob) => {
  try {
    const re = new RegExp(job.source, job.flags);
    const value = job.op === "test" ? job.inputs.map((s) => re.test(s)) : job.texts.map((text) => matchingLines(re, text));
    port.postMessage({ ok: true, value });
  } catch (err) {
    port.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
