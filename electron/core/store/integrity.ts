/**
 * The integrity check (`PRAGMA quick_check`) off the main thread. Its cost
 * grows with the whole database (seconds for a multi-GB history), so the app
 * opens the store without it and runs it here, on a worker thread with its own
 * read-only connection, after start (and on demand); damage is
 * reported to the user as at open (docs/performance.md, "No main-process stall at any history size").
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { z } from "zod";

/** `dataIntact`: every table the app stores (not the search index, which is rebuilt from them) passes the check on its own. */
export type IntegrityReport = { ok: true } | { ok: false; damaged: boolean; message: string; dataIntact?: boolean };

/** Tables derived from the others (the search index and its shadow tables) and SQLite's own. */
export const DERIVED_TABLES = /^(entries_fts(_.*)?|search_rows|sqlite_.*)$/;

// Plain CommonJS: an eval'd worker needs no build step or TS loader, in Node and in Electron alike.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.modulePath);
let db;
try {
  db = new Database(workerData.path, Object.assign({ readonly: true, fileMustExist: true }, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}));
  const damage = (e) => e && typeof e.code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(e.code);
  // The check reports damage as rows, or (a page it cannot even walk) as a SQLITE_CORRUPT error.
  const check = (arg) => {
    try {
      return db.pragma("quick_check" + arg).map((r) => String(r.quick_check)).filter((x) => x !== "ok");
    } catch (e) {
      if (damage(e)) return [String(e.message)];
      throw e;
    }
  };
  const problems = check("");
  // Where the damage is: the stored tables each checked alone (derived ones, the search index, left out).
  let dataIntact = false;
  if (problems.length > 0) {
    try {
      const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all()
        .filter((t) => !${DERIVED_TABLES.toString()}.test(t));
      dataIntact = tables.every((t) => check('("' + t.replace(/"/g, '""') + '")').length === 0);
    } catch (e) {
      dataIntact = false;
    }
  }
  parentPort.postMessage({ kind: "done", problems, dataIntact });
} catch (e) {
  parentPort.postMessage({ kind: "failed", code: e && typeof e.code === "string" ? e.code : null, message: String((e && e.message) || e) });
} finally {
  if (db) db.close();
}
`;

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
      const modulePath = createRequire(import.meta.url).resolve("better-sqlite3");
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, modulePath, nativeBinding: nativeBinding ?? null } });
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
