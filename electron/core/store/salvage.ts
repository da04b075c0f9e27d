/**
 * Salvage: every row that can still be read from a damaged database file,
 * copied into a store (the fresh one started in its place, or the current one
 * when the user asks to recover a file kept aside).
 *
 * How: the file is opened read-only and each table is read in rowid order.
 * A read that hits a damaged page fails; the reader then looks for the first
 * rowid after it that can be read again (doubling the step, then halving
 * back), so the damage costs the rows on the damaged pages and no more
 * (`readableRows`). What the fresh store derives (the search index) is not
 * copied but rebuilt from the copied entries. Sessions already in the target
 * (same id) are left as they are, so recovering the same file twice adds
 * nothing. A file whose header or schema page is damaged gives nothing to
 * read this way (the report then says so); it stays aside for other tools.
 */
import Database from "better-sqlite3";
import { closeSync, copyFileSync, existsSync, openSync, readSync, rmSync, statSync, truncateSync } from "node:fs";
import type { Db, StoreContext } from "./db";
import { isDamageError } from "./errors";
import { DERIVED_TABLES } from "./derived-tables";
import { SEQ_SPAN } from "./keys";

export interface SalvageReport {
  /** The file the rows were read from. */
  from: string;
  sessions: number;
  /** The ids of the sessions copied. */
  sessionIds: string[];
  entries: number;
  /** Seqs missing in the saved sessions (rows that could not be read). */
  missingEntries: number;
  /** Audit rows, notes, checkpoints, rules, settings and rows of other tables. */
  otherRows: number;
  /** Sessions skipped because the target already has them (a second recovery of the same file). */
  alreadyPresent: number;
  /** Stretches of rows that could not be read, per table. */
  unreadable: Record<string, number>;
}

type Row = Record<string, unknown>;

/** Copied in this order (parents before children); other tables follow. */
const ORDER = ["workspaces", "sessions", "entries", "tool_calls", "notes", "checkpoints", "approval_rules", "settings"];

/**
 * Rows of `table` in rowid order, skipping what cannot be read; `lost` is
 * told of each stretch skipped. Bounded: each damaged stretch costs about
 * 2 × 53 probes (rowids are below 2^53).
 */
export function* readableRows(src: Db, table: string, columns: readonly string[], lost: () => void): Generator<Row> {
  const cols = columns.map((c) => `"${c}"`).join(", ");
  const read = src.prepare(`SELECT rowid AS "__rowid", ${cols} FROM "${table}" WHERE rowid >= ? ORDER BY rowid`);
  const probe = src.prepare(`SELECT rowid FROM "${table}" WHERE rowid >= ? ORDER BY rowid LIMIT 1`);
  const readable = (at: number): boolean => {
    try {
      probe.get(at);
      return true;
    } catch {
      return false;
    }
  };
  let from = Number.MIN_SAFE_INTEGER;
  for (;;) {
    let progressed = false;
    try {
      for (const row of read.iterate(from) as IterableIterator<Row>) {
        const { __rowid, ...rest } = row;
        from = Number(__rowid) + 1;
        progressed = true;
        yield rest;
      }
      return;
    } catch {
      // A damaged page: read again from just after the last good row, which fails at once if the damage starts there.
    }
    if (progressed) continue;
    lost();
    const next = firstReadableAfter(from, readable);
    if (next === null) return;
    from = next;
  }
}

/** The lowest rowid above `bad` from which `readable` succeeds: steps doubling until one does, then halving back. */
function firstReadableAfter(bad: number, readable: (at: number) => boolean): number | null {
  let low = bad;
  let high: number | null = null;
  for (let step = 1; low < Number.MAX_SAFE_INTEGER; step *= 2) {
    const at = Math.min(Number.MAX_SAFE_INTEGER, low + step);
    if (readable(at)) {
      high = at;
      break;
    }
    low = at;
  }
  if (high === null) return null;
  while (high - low > 1) {
    const mid: number = low + Math.floor((high - low) / 2);
    if (readable(mid)) high = mid;
    else low = mid;
  }
  return high;
}

function columnsOf(db: Db, table: string): string[] {
  // table_xinfo: hidden 2/3 are generated columns, which cannot be inserted.
  const rows = db.prepare(`SELECT name, hidden FROM pragma_table_xinfo(?)`).all(table) as Array<{ name: string; hidden: number }>;
  return rows.filter((r) => r.hidden === 0).map((r) => r.name);
}

function tablesOf(db: Db): string[] {
  return (db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all() as string[]).filter(
    (t) => !DERIVED_TABLES.test(t),
  );
}

/**
 * Copies every readable row of the database at `path` into `ctx`'s store, in
 * one transaction. Never throws for damage in the source: what cannot be read
 * is counted; throws a storage error of the target as it is.
 */
export function salvageInto(ctx: StoreContext, path: string, nativeBinding?: string): SalvageReport {
  const padded = paddedCopy(path);
  let src: Db;
  try {
    src = new Database(padded?.path ?? path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  } catch {
    padded?.remove();
    return emptyReport(path);
  }
  try {
    return copyAll(ctx, src, path);
  } catch (e) {
    // The schema itself cannot be read (its page is damaged): nothing SQLite can find rows through.
    if (isDamageError(e)) return emptyReport(path);
    throw e;
  } finally {
    src.close();
    padded?.remove();
  }
}

/**
 * A file cut short (its header counts more pages than it holds) is refused
 * by SQLite as a whole. A copy padded with zeros to its full length reads up
 * to the cut, where the zero pages are damage like any other. The copy goes
 * beside the file (it may be large), never over it: the kept file stays as it
 * was found. Null when the file is not short.
 */
function paddedCopy(path: string): { path: string; remove(): void } | null {
  let header: Buffer;
  let size: number;
  try {
    size = statSync(path).size;
    header = Buffer.alloc(100);
    const fd = openSync(path, "r");
    try {
      readSync(fd, header, 0, 100, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pages = header.readUInt32BE(28);
  if (pageSize < 512 || pages === 0 || size >= pageSize * pages) return null;
  const copy = `${path}.salvage-${process.pid}`;
  const remove = () => {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(copy + suffix, { force: true });
  };
  try {
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    truncateSync(copy, pageSize * pages);
    return { path: copy, remove };
  } catch {
    remove();
    return null;
  }
}

function emptyReport(from: string): SalvageReport {
  return { from, sessions: 0, sessionIds: [], entries: 0, missingEntries: 0, otherRows: 0, alreadyPresent: 0, unreadable: {} };
}

function copyAll(ctx: StoreContext, src: Db, from: string): SalvageReport {
  const report = emptyReport(from);
  const srcTables = new Set(tablesOf(src));
  const targetTables = new Set(tablesOf(ctx.db));
  const lostIn = (table: string) => () => {
    report.unreadable[table] = (report.unreadable[table] ?? 0) + 1;
  };
  const rows = (table: string): Generator<Row> | Row[] =>
    srcTables.has(table) ? readableRows(src, table, columnsOf(src, table), lostIn(table)) : [];

  ctx.tx(() => {
    // Workspaces by path (the target may know the folder under another id).
    const workspaceIds = new Map<string, string>();
    const findWorkspace = ctx.db.prepare(`SELECT id FROM workspaces WHERE path = ?`).pluck();
    for (const w of rows("workspaces")) {
      if (typeof w.path !== "string" || typeof w.id !== "string") continue;
      if (findWorkspace.get(w.path) === undefined) insertRow(ctx.db, "workspaces", w);
      const id = findWorkspace.get(w.path) as string | undefined;
      if (id !== undefined) workspaceIds.set(w.id, id);
    }

    // Sessions by id, under a new num; a session the target has is left alone with everything of it.
    const sessionNums = new Map<number, { id: string; num: number }>();
    const copied = new Set<string>();
    const skipped = new Set<string>();
    const parents: Array<[string, unknown]> = [];
    const hasSession = ctx.db.prepare(`SELECT num FROM sessions WHERE id = ?`).pluck();
    for (const s of rows("sessions")) {
      if (typeof s.id !== "string" || typeof s.num !== "number") continue;
      if (hasSession.get(s.id) !== undefined) {
        skipped.add(s.id);
        continue;
      }
      const workspaceId = typeof s.workspace_id === "string" ? workspaceIds.get(s.workspace_id) : undefined;
      if (workspaceId === undefined) continue;
      const { num: _num, parent_session_id: parent, ...rest } = s;
      // The index is rebuilt, and unanswered calls are looked for anew (repair.ts).
      const num = Number(insertRow(ctx.db, "sessions", { ...rest, workspace_id: workspaceId, fts_indexed_seq: 0, calls_checked: 0 }));
      sessionNums.set(s.num, { id: s.id, num });
      copied.add(s.id);
      if (parent !== null && parent !== undefined) parents.push([s.id, parent]);
    }

    // Entries whose session row is lost: kept, under a session that says so.
    let orphanWorkspace: string | null = null;
    const lastSeq = new Map<string, { num: number; rows: number; last: number }>();
    for (const e of rows("entries")) {
      if (typeof e.id !== "number") continue;
      const srcNum = Math.floor(e.id / SEQ_SPAN);
      const seq = e.id - srcNum * SEQ_SPAN;
      let target = sessionNums.get(srcNum);
      if (target === undefined) {
        const sessionId = typeof e.session_id === "string" ? e.session_id : null;
        if (sessionId === null || skipped.has(sessionId) || hasSession.get(sessionId) !== undefined) continue;
        orphanWorkspace ??= recoveredWorkspace(ctx, from);
        const num = Number(
          insertRow(ctx.db, "sessions", {
            id: sessionId,
            workspace_id: orphanWorkspace,
            title: "Recovered session",
            created_at: ctx.now(),
            updated_at: ctx.now(),
            fts_indexed_seq: 0,
            calls_checked: 0,
          }),
        );
        target = { id: sessionId, num };
        sessionNums.set(srcNum, target);
        copied.add(sessionId);
      }
      insertRow(ctx.db, "entries", { ...e, id: target.num * SEQ_SPAN + seq, session_id: target.id });
      const t = lastSeq.get(target.id) ?? { num: target.num, rows: 0, last: 0 };
      t.rows++;
      t.last = Math.max(t.last, seq);
      lastSeq.set(target.id, t);
      report.entries++;
    }
    for (const t of lastSeq.values()) report.missingEntries += t.last - t.rows;

    const setParent = ctx.db.prepare(
      `UPDATE sessions SET parent_session_id = ? WHERE id = ? AND EXISTS (SELECT 1 FROM sessions WHERE id = ?)`,
    );
    for (const [id, parent] of parents) if (typeof parent === "string") setParent.run(parent, id, parent);

    // The rest: rows of copied sessions (audit, notes, checkpoints), the workspaces' rules, settings the target lacks, other tables.
    const rest = [...ORDER.slice(3), ...[...srcTables].filter((t) => !ORDER.includes(t)).sort()];
    for (const table of rest) {
      if (!targetTables.has(table)) continue;
      for (const row of rows(table)) {
        const r = { ...row };
        if ("session_id" in r && !(typeof r.session_id === "string" && copied.has(r.session_id))) continue;
        if ("workspace_id" in r) {
          const id = typeof r.workspace_id === "string" ? workspaceIds.get(r.workspace_id) : undefined;
          if (id === undefined) continue;
          r.workspace_id = id;
        }
        // Integer keys are the target's to assign; settings (keyed by name) keep the target's value.
        if (table !== "settings" && table !== "approval_rules" && typeof r.id === "number") delete r.id;
        if (insertRow(ctx.db, table, r, true) !== null) report.otherRows++;
      }
    }
    report.sessions = copied.size;
    report.sessionIds = [...copied];
    report.alreadyPresent = skipped.size;
  });
  return report;
}

function recoveredWorkspace(ctx: StoreContext, from: string): string {
  const path = `${from} (recovered sessions)`;
  const existing = ctx.db.prepare(`SELECT id FROM workspaces WHERE path = ?`).pluck().get(path) as string | undefined;
  if (existing !== undefined) return existing;
  const id = `recovered-${ctx.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  insertRow(ctx.db, "workspaces", { id, path, name: "Recovered sessions", created_at: ctx.now(), last_opened_at: ctx.now() });
  return id;
}

interface TableStatements {
  columns: Set<string>;
  sql: Map<string, Database.Statement>;
}
const statements = new WeakMap<Db, Map<string, TableStatements>>();

/** Inserts the row's columns that the target table has; returns the new rowid, or null when `orIgnore` skipped it. */
function insertRow(db: Db, table: string, row: Row, orIgnore = false): number | bigint | null {
  let tables = statements.get(db);
  if (tables === undefined) statements.set(db, (tables = new Map<string, TableStatements>()));
  let info = tables.get(table);
  if (info === undefined)
    tables.set(table, (info = { columns: new Set(columnsOf(db, table)), sql: new Map<string, Database.Statement>() }));
  const names = Object.keys(row).filter((k) => info.columns.has(k));
  const sql = `INSERT ${orIgnore ? "OR IGNORE " : ""}INTO "${table}" (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`;
  let stmt = info.sql.get(sql);
  if (stmt === undefined) info.sql.set(sql, (stmt = db.prepare(sql)));
  const result = stmt.run(...names.map((n) => row[n]));
  return result.changes === 0 ? null : result.lastInsertRowid;
}
