/**
 * Typed errors of the session store.
 *
 * Contract: every store method either returns its value or throws a
 * `StoreError` (never a raw SQLite or zod error). The API handlers are the
 * boundary that turns a StoreError into an ApiError value.
 */

export type StoreErrorCode =
  /** The file is not a database, is truncated, or fails the integrity check. */
  | "DAMAGED"
  /** The database was written by a newer app (schema version above ours). */
  | "TOO_NEW"
  /** The disk (or the file system's quota) holding the database is full. */
  | "DISK_FULL"
  /** The database file or its folder cannot be written (permissions, a read-only mount). */
  | "READ_ONLY"
  /** The file could not be opened, read or written for another reason (missing folder, an I/O error). */
  | "IO"
  /** Another process holds the database locked past the busy timeout. */
  | "BUSY"
  | "NOT_FOUND"
  /** An entry failed the protocol schema (nothing was written). */
  | "INVALID_ENTRY"
  /** A caller passed an argument outside what the method accepts. */
  | "INVALID_ARGUMENT"
  | "INTERNAL";

/** Codes that say the storage itself refused (the data was fine): the same write can work once the cause is gone. */
export const STORAGE_FAILURES: ReadonlySet<StoreErrorCode> = new Set(["DISK_FULL", "READ_ONLY", "IO", "BUSY"]);

export class StoreError extends Error {
  override readonly name = "StoreError";
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    override readonly cause?: unknown,
    /** The underlying error's own words (SQLite's or the OS's), when the message rewords it. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

export function isStoreError(e: unknown): e is StoreError {
  return e instanceof StoreError;
}

/** A storage failure (disk full, read-only, busy, I/O): retrying the same write can work once the cause is gone. */
export function isStorageFailure(e: unknown): e is StoreError {
  return e instanceof StoreError && STORAGE_FAILURES.has(e.code);
}

/**
 * What a storage failure means for the user, in plain words, with the next
 * step. `retry` names how to try again where the message is shown ("press
 * Retry" under a failed turn, "try again" elsewhere).
 */
export function storageFailureText(code: StoreErrorCode, detail: string, retry = "try again"): string {
  switch (code) {
    case "DISK_FULL":
      return `The disk holding your sessions is full (${detail}): free space and ${retry}.`;
    case "READ_ONLY":
      return `The session database cannot be written (${detail}): make its file and folder writable and ${retry}.`;
    case "BUSY":
      return `Another program is holding the session database locked (${detail}): close it (another Agent Workbench, a headless run or a database tool) and ${retry}.`;
    case "IO":
      return `The disk holding your sessions reported an error (${detail}): check the disk and ${retry}.`;
    default:
      return detail;
  }
}

/** The same failure worded for another place (a failed turn says "press Retry"). */
export function rewordStorageFailure(e: StoreError, retry: string): string {
  return e.detail !== undefined && STORAGE_FAILURES.has(e.code) ? storageFailureText(e.code, e.detail, retry) : e.message;
}

/** SQLite result codes (better-sqlite3 puts the extended name in `code`). */
function sqliteCode(e: unknown): string | undefined {
  if (typeof e === "object" && e !== null && "code" in e && typeof e.code === "string") return e.code;
  return undefined;
}

export function isDamageError(e: unknown): boolean {
  const code = sqliteCode(e);
  return code !== undefined && (code.startsWith("SQLITE_NOTADB") || code.startsWith("SQLITE_CORRUPT"));
}

/** The StoreError code of a storage failure, from SQLite's or the OS's error code; null for anything else. */
function storageCode(code: string): StoreErrorCode | null {
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "BUSY";
  if (code.startsWith("SQLITE_FULL") || code === "ENOSPC" || code === "EDQUOT") return "DISK_FULL";
  if (code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_PERM") || code === "EROFS" || code === "EACCES" || code === "EPERM")
    return "READ_ONLY";
  if (code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_IOERR") || /^E[A-Z]+$/.test(code)) return "IO";
  return null;
}

/** Maps any error thrown inside the store to a StoreError, keeping StoreErrors as they are. */
export function toStoreError(e: unknown, context: string): StoreError {
  if (e instanceof StoreError) return e;
  const message = e instanceof Error ? e.message : String(e);
  const detail = `${context}: ${message}`;
  if (isDamageError(e)) return new StoreError("DAMAGED", detail, e);
  const storage = storageCode(sqliteCode(e) ?? "");
  if (storage !== null) return new StoreError(storage, storageFailureText(storage, detail), e, detail);
  return new StoreError("INTERNAL", detail, e);
}
