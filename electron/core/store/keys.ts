/**
 * Entry ids: `(sessions.num << 32) | seq`, so one rowid range holds a session's
 * entries in order. Kept below 2^53 so they stay exact as JS numbers.
 */
import { StoreError } from "./errors";

export const SEQ_SPAN = 2 ** 32;
/** Session numbers above this would push entry ids past Number.MAX_SAFE_INTEGER. */
export const MAX_SESSION_NUM = 2 ** 21 - 1;

export function entryId(num: number, seq: number): number {
  return num * SEQ_SPAN + seq;
}

/** [first, last] entry id of a session. */
export function sessionRange(num: number): [number, number] {
  return [num * SEQ_SPAN, num * SEQ_SPAN + SEQ_SPAN - 1];
}

export function checkSessionNum(num: number): void {
  if (num > MAX_SESSION_NUM) throw new StoreError("INTERNAL", `session number ${num} exceeds the entry-id space`);
}

/** SQL for "the session's last entry id", given a `s` alias for sessions. */
export const LAST_ENTRY_ID_SQL = `(SELECT id FROM entries WHERE id BETWEEN s.num * 4294967296 AND s.num * 4294967296 + 4294967295 ORDER BY id DESC LIMIT 1)`;

/** SQL for "the session is not an import still being written" (staged-imports.ts), given a `s` alias for sessions. */
export const VISIBLE = `s.staged_at IS NULL`;
