/**
 * The integrity check (`PRAGMA quick_check`) off the main thread. Its cost
 * grows with the whole database (seconds for a multi-GB history), so the app
 * opens the store without it and runs it here, on a worker thread with its own
 * read-only connection, after start (and on demand); damage is
 * reported to the user as at open (docs/performance.md, "No main-process stall at any history size").
 */
import type { Worker } from "node:worker_threads";
import { z } from "zod";
import { startWorker } from "../process/worker-file";

/** `dataIntact`: every table the app stores (not the search index, which is rebuilt from them) passes the check on its own. */
export type IntegrityReport = { ok: true } | { ok: false; damaged: boolean; message: string; dataIntact?: boolean };

export { DERIVED_TABLES } from "./derived-tables";

const ReplySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("done"), problems: z.array(z.string()), dataIntact: z.boolean() }),
  z.object({ kind: z.literal("failed"), code: z.string().nullable(), message: z.string() }),
]);

/**
 * Runs quick_check on `path` in a worker thread. Never rejects: failures to run
 * are reported, not thrown. Settles when the thread has exited (its read-only
 * connection closed), so the caller may then move or remove the file.
 */
export function checkIntegrityOffThread(
  path: string,
  nativeBinding?: string,
  onStarted?: (worker: Worker) => void,
): Promise<IntegrityReport> {
  if (path === ":memory:" || path === "" || path.startsWith("file:")) return Promise.resolve({ ok: true });
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = startWorker("integrity-worker", import.meta.url, { workerData: { path, nativeBinding: nativeBinding ?? null } });
    } catch (e) {
      resolve({ ok: false, damaged: false, message: `the integrity check could not start: ${e instanceof Error ? e.message : String(e)}` });
      return;
    }
    // The first answer wins; it is handed over when the thread is gone.
    let report: IntegrityReport | null = null;
    const answer = (r: IntegrityReport) => {
      report ??= r;
    };
    worker.unref();
    onStarted?.(worker);
    worker.on("message", (raw: unknown) => {
      const reply = ReplySchema.safeParse(raw);
      if (!reply.success) return answer({ ok: false, damaged: false, message: "the integrity check sent an unreadable reply" });
      if (reply.data.kind === "done") {
        const problems = reply.data.problems;
        return answer(
          problems.length === 0
            ? { ok: true }
            : {
                ok: false,
                damaged: true,
                message: `integrity check failed: ${problems.slice(0, 5).join("; ")}`,
                dataIntact: reply.data.dataIntact,
              },
        );
      }
      const damaged = reply.data.code !== null && /^SQLITE_(CORRUPT|NOTADB)/.test(reply.data.code);
      answer({
        ok: false,
        damaged,
        message: damaged ? `integrity check failed: ${reply.data.message}` : `the integrity check could not run: ${reply.data.message}`,
      });
    });
    worker.on("error", (e) => answer({ ok: false, damaged: false, message: `the integrity check could not run: ${e.message}` }));
    worker.on("exit", () => resolve(report ?? { ok: false, damaged: false, message: "the integrity check stopped before it finished" }));
  });
}
