/**
 * App settings: a small key → JSON table.
 *
 * Never store secrets here (API keys, tokens, passwords): they live in
 * Electron safeStorage or the environment (invariant 5, docs/architecture.md#invariants). Keys
 * that look like secrets are refused as a last line of defence.
 */
import type { StoreContext } from "./db";
import { StoreError } from "./errors";

const SECRET_LIKE = /api[-_]?key|secret|password|passwd|credential|bearer|auth[-_]?token|access[-_]?token/i;

/** The stored value (parsed JSON; validate it with the caller's schema), or undefined when unset or unreadable. */
export function getSetting(ctx: StoreContext, key: string): unknown {
  const row = ctx.stmt(`SELECT value FROM settings WHERE key = ?`).get(key) as { value: string } | undefined;
  if (row === undefined) return undefined;
  try {
    return JSON.parse(row.value);
  } catch {
    // Only setSetting writes this column (JSON.stringify): unreadable means a damaged file, and callers fall back to defaults as for an unset key.
    return undefined;
  }
}

export function setSetting(ctx: StoreContext, key: string, value: unknown): void {
  if (key.length === 0) throw new StoreError("INVALID_ARGUMENT", "setting key is empty");
  if (SECRET_LIKE.test(key))
    throw new StoreError("INVALID_ARGUMENT", `setting "${key}" looks like a secret; secrets never go into the database`);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (e) {
    throw new StoreError("INVALID_ARGUMENT", `setting "${key}" is not JSON-serialisable: ${String(e)}`);
  }
  if (json === undefined) throw new StoreError("INVALID_ARGUMENT", `setting "${key}" has no JSON value`);
  ctx
    .stmt(
      `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    )
    .run(key, json, ctx.now());
}

export function deleteSetting(ctx: StoreContext, key: string): boolean {
  return ctx.stmt(`DELETE FROM settings WHERE key = ?`).run(key).changes > 0;
}
