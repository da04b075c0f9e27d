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
  /** The file could not be opened or written (permissions, missing folder, disk full). */
  | "IO"
  /** Another process holds the database locked past the busy timeout. */
  | "BUSY"
  | "NOT_FOUND"
  /** An entry failed the protocol schema (nothing was written). */
  | "INVALID_ENTRY"
  /** A caller passed an argument outside what the method accepts. */
  | "INVALID_ARGUMENT"
  | "INTERNAL";

export class StoreError extends Error {
  override readonly name = "StoreError";
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

export function isStoreError(e: unknown): e is StoreError {
  return e instanceof StoreError;
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

/** Maps any error thrown inside the store to a StoreError, keeping StoreErrors as they are. */
export function toStoreError(e: unknown, context: string): StoreError {
  if (e instanceof StoreError) return e;
  const message = e instanceof Error ? e.message : String(e);
  const code = sqliteCode(e) ?? "";
  if (isDamageError(e)) return new StoreError("DAMAGED", `${context}: ${message}`, e);
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return new StoreError("BUSY", `${context}: ${message}`, e);
  if (
    code.startsWith("SQLITE_CANTOPEN") ||
    code.startsWith("SQLITE_IOERR") ||
    code.startsWith("SQLITE_FULL") ||
    code.startsWith("SQLITE_READONLY") ||
    code.startsWith("SQLITE_PERM")
  ) {
    return new StoreError("IO", `${context}: ${message}`, e);
  }
  // Node fs errors (EACCES, ENOENT, EXDEV …)
  if (/^E[A-Z]+$/.test(code)) return new StoreError("IO", `${context}: ${message}`, e);
  return new StoreError("INTERNAL", `${context}: ${message}`, e);
}
