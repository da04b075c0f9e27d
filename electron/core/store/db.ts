/**
 * Opening the database file: pragmas, integrity check, migrations, and moving
 * a damaged file aside.
 */
import Database from "better-sqlite3";
import { accessSync, constants, existsSync, readdirSync, renameSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { LATEST_VERSION, MIGRATIONS, type Migration } from "./migrations";
import { StoreError, isDamageError, storageFailureText, toStoreError } from "./errors";

export type Db = Database.Database;
export type Statement = Database.Statement;

/** What every store module works with: the connection, the clock and a prepared-statement cache. */
export interface StoreContext {
  readonly db: Db;
  readonly now: () => number;
  /** Prepares `sql` once per connection; later calls reuse the statement. */
  stmt(sql: string): Statement;
  /** Runs `fn` in a transaction (a savepoint when nested); rolls back if it throws. */
  tx<T>(fn: () => T): T;
  /** Hooks the store sets; modules call them (cheaply, inside transactions). */
  readonly events: StoreEvents;
  /** The single writer's memory of session tails (see tails.ts). */
  readonly cache: WriterCache;
}

/** Session tail state: what the next append needs, kept so an append is one INSERT. */
export interface SessionTail {
  num: number;
  workspaceId: string;
  lastSeq: number;
  runningTokens: number;
  runningCost: number;
  /** The session's calls without a result (entries.ts, `OpenCall`), and their stored JSON (null when none). */
  openCalls: ReadonlyArray<{ id: string; name: string; late?: true }>;
  openCallsJson: string | null;
}

export interface WriterCache {
  tails: Map<string, SessionTail>;
  /** Per workspace: the session whose updated_at this store wrote last, and the value written. */
  top: Map<string, { sessionId: string; at: number }>;
}

export interface StoreEvents {
  /** Entry rows were inserted into this session (their search-index rows are pending). */
  appended(sessionId: string): void;
}

export function createContext(db: Db, now: () => number, events: StoreEvents = { appended() {} }): StoreContext {
  const cache = new Map<string, Statement>();
  // One wrapper created once: better-sqlite3 turns nested calls into savepoints. IMMEDIATE: the
  // write lock is taken at BEGIN, where SQLite waits for it (busy timeout). A deferred transaction
  // that reads first gets SQLITE_BUSY at once when it upgrades while another connection holds the
  // lock (another process on the same file).
  const wrapped = db.transaction((fn: () => unknown) => fn());
  const run = (fn: () => unknown): unknown => wrapped.immediate(fn);
  const ctx: StoreContext = {
    db,
    now,
    events,
    cache: { tails: new Map(), top: new Map() },
    stmt(sql) {
      let s = cache.get(sql);
      if (s === undefined) {
        s = db.prepare(sql);
        cache.set(sql, s);
      }
      return s;
    },
    tx<T>(fn: () => T): T {
      return run(fn) as T;
    },
  };
  return ctx;
}

/**
 * Opens `path`, applies pragmas, checks integrity (unless `checkAtOpen` is
 * false) and migrates.
 * Throws StoreError: DAMAGED (not a database / corrupt), TOO_NEW, IO, BUSY.
 * `nativeBinding`: path of a better_sqlite3.node built for another ABI (the
 * Electron app passes its Electron build; tests under Node pass nothing).
 */
export function openDatabase(path: string, migrations: readonly Migration[] = MIGRATIONS, nativeBinding?: string, checkAtOpen = true): Db {
  const binding = nativeBinding ? { nativeBinding } : {};
  // Without the check (the app: it runs it off-thread after start, integrity.ts), open costs the same at any size.
  const checked = checkAtOpen ? precheckExisting(path, binding) : true;
  let db: Db;
  try {
    db = new Database(path, binding);
  } catch (e) {
    throw explainOpenFailure(path, e);
  }
  try {
    configure(db);
    if (!checked) checkIntegrity(db);
    migrate(db, migrations);
    return db;
  } catch (e) {
    closeQuietly(db);
    throw explainOpenFailure(path, e);
  }
}

/** Closes a connection whose open failed; its own error is not the one to report. */
function closeQuietly(db: Db): void {
  try {
    db.close();
  } catch {
    // e.g. the WAL could not be checkpointed on a full disk: the open's error says why.
  }
}

/**
 * SQLite says "unable to open database file" for a missing folder, a
 * read-only folder (WAL needs its -wal and -shm files beside the database) and
 * a file it may not write alike; the folder tells which.
 */
function explainOpenFailure(path: string, e: unknown): StoreError {
  const err = toStoreError(e, `cannot open ${path}`);
  if (err.code !== "IO" && err.code !== "INTERNAL" && err.code !== "READ_ONLY") return err;
  if (path === ":memory:" || path === "" || path.startsWith("file:")) return err;
  const folder = dirname(path);
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // missing: said below
  }
  if (!isFolder) return new StoreError("IO", `The folder for the session database does not exist: ${folder}`, e);
  for (const [target, what] of [
    [folder, `the folder ${folder} is read-only`],
    [path, `the file ${path} is read-only`],
  ] as const) {
    if (target === path && !existsSync(path)) continue;
    try {
      accessSync(target, constants.W_OK);
    } catch (denied) {
      const reason = denied instanceof Error && "code" in denied && denied.code === "EROFS" ? `${what} (a read-only file system)` : what;
      return new StoreError("READ_ONLY", storageFailureText("READ_ONLY", reason), e, reason);
    }
  }
  // better-sqlite3 throws a plain TypeError (no SQLite code) for some open failures.
  return err.code === "INTERNAL" ? new StoreError("IO", err.message, e) : err;
}

/**
 * Checks an existing file through a read-only connection first: closing a
 * read-write connection lets SQLite checkpoint or delete the -wal file, which
 * would alter the evidence we keep aside. Returns true when the check ran.
 * Errors other than damage (e.g. no write access for -shm) skip the precheck;
 * the read-write open then checks instead.
 */
function precheckExisting(path: string, binding: { nativeBinding?: string }): boolean {
  if (path === ":memory:" || path === "" || path.startsWith("file:") || !existsSync(path)) return false;
  let ro: Db | undefined;
  try {
    ro = new Database(path, { ...binding, readonly: true, fileMustExist: true });
    checkIntegrity(ro);
    return true;
  } catch (e) {
    if (e instanceof StoreError || isDamageError(e)) throw toStoreError(e, `cannot open ${path}`);
    return false;
  } finally {
    ro?.close();
  }
}

function configure(db: Db): void {
  // Reading the journal mode is the first access to the file: a non-database fails here (SQLITE_NOTADB).
  db.pragma("journal_mode = WAL");
  // WAL + NORMAL: a commit is durable once it is in the WAL file, which survives a killed process
  // (the crash-safety test SIGKILLs a writer and finds every acknowledged append). Only an OS crash
  // or power loss can roll back the last few commits, never corrupt the file. FULL would fsync on
  // every append for that last case only.
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
}

function checkIntegrity(db: Db): void {
  const rows = db.pragma("quick_check") as Array<{ quick_check: string }>;
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== "ok");
  if (problems.length > 0) {
    throw new StoreError("DAMAGED", `integrity check failed: ${problems.slice(0, 5).join("; ")}`);
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma("user_version", { simple: true }) as number;
}

function migrate(db: Db, migrations: readonly Migration[]): void {
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  const current = schemaVersion(db);
  if (current > latest) {
    throw new StoreError("TOO_NEW", `database schema version ${current} is newer than this app's ${latest}`);
  }
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return;
  // IMMEDIATE: take the write lock before reading, so two processes cannot migrate at once.
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
  }).immediate();
}

export { LATEST_VERSION };

/**
 * Renames `path` and its -wal/-shm companions to `<path>.damaged-<timestamp>[-wal|-shm]`,
 * keeping SQLite's naming so the copy can still be opened for forensics. Never deletes.
 * Returns the new main path.
 */
export function moveAside(path: string, at: number): string {
  const stamp = new Date(at).toISOString().replace(/[:.]/g, "-");
  let target = `${path}.damaged-${stamp}`;
  for (let n = 2; existsSync(target) || existsSync(`${target}-wal`); n++) target = `${path}.damaged-${stamp}-${n}`;
  try {
    renameSync(path, target);
    // The tails marks (tail-marks.ts) belong to that file: the fresh one starts without them.
    for (const suffix of ["-wal", "-shm", ".tails"]) {
      if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
    }
  } catch (e) {
    throw toStoreError(e, `cannot move damaged database ${path} aside`);
  }
  return target;
}

export interface KeptFile {
  path: string;
  bytes: number;
  /** When it was moved aside (its modification time). */
  keptAt: number;
}

/** The files `moveAside` kept beside `path` (their -wal/-shm companions are not listed), newest first. */
export function listKeptFiles(path: string): KeptFile[] {
  if (path === ":memory:" || path === "" || path.startsWith("file:")) return [];
  const folder = dirname(path);
  const prefix = `${basename(path)}.damaged-`;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const kept: KeptFile[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || name.endsWith("-wal") || name.endsWith("-shm") || name.endsWith(".tails")) continue;
    try {
      const st = statSync(join(folder, name));
      if (st.isFile()) kept.push({ path: join(folder, name), bytes: st.size, keptAt: st.mtimeMs });
    } catch {
      // gone meanwhile
    }
  }
  return kept.sort((a, b) => b.keptAt - a.keptAt);
}

export { isDamageError };
