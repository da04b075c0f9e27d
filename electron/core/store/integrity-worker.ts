/**
 * The worker thread of integrity.ts: `PRAGMA quick_check` on its own
 * read-only connection, then (only when it finds damage) each stored table
 * alone, to say whether the data itself is intact. Answers once and exits.
 */
import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";
import { DERIVED_TABLES } from "./derived-tables";

interface Job {
  path: string;
  nativeBinding: string | null;
}

const port = parentPort;
const job = workerData as Job;
const codeOf = (e: unknown): string | null => {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : null;
};
const isDamage = (e: unknown): boolean => /^SQLITE_(CORRUPT|NOTADB)/.test(codeOf(e) ?? "");

let db: Database.Database | undefined;
try {
  db = new Database(job.path, { readonly: true, fileMustExist: true, ...(job.nativeBinding ? { nativeBinding: job.nativeBinding } : {}) });
  const open = db;
  // The check reports damage as rows, or (a page it cannot even walk) as a SQLITE_CORRUPT error.
  const check = (arg: string): string[] => {
    try {
      const rows = open.pragma(`quick_check${arg}`) as Array<{ quick_check: unknown }>;
      return rows.map((r) => String(r.quick_check)).filter((x) => x !== "ok");
    } catch (e) {
      if (isDamage(e)) return [e instanceof Error ? e.message : String(e)];
      throw e;
    }
  };
  const problems = check("");
  // Where the damage is: the stored tables each checked alone (derived ones, the search index, left out).
  let dataIntact = false;
  if (problems.length > 0) {
    try {
      const tables = (open.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all() as string[]).filter(
        (t) => !DERIVED_TABLES.test(t),
      );
      dataIntact = tables.every((t) => check(`("${t.replace(/"/g, '""')}")`).length === 0);
    } catch {
      dataIntact = false;
    }
  }
  port?.postMessage({ kind: "done", problems, dataIntact });
} catch (e) {
  port?.postMessage({ kind: "failed", code: codeOf(e), message: e instanceof Error ? e.message : String(e) });
} finally {
  db?.close();
}
