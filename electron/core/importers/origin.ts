/**
 * Where an imported session came from, kept in a settings record keyed by
 * session (as review/import-times.ts keeps imported times): the agent, its own
 * id, the file, and what the format could not hold. The replay header and the
 * sidebar badge read it; nothing else depends on it.
 */
import { ORIGIN_SETTING_PREFIX, SessionOriginSchema, type SessionOrigin } from "../../../shared/foreign-agents";
import type { ReviewStorePort } from "../review/store-port";

const PREFIX = ORIGIN_SETTING_PREFIX;

export type Origin = SessionOrigin;

export function saveOrigin(store: Pick<ReviewStorePort, "setSetting">, sessionId: string, origin: Origin): void {
  store.setSetting(PREFIX + sessionId, origin);
}

export function loadOrigin(store: Pick<ReviewStorePort, "getSetting">, sessionId: string): Origin | null {
  const parsed = SessionOriginSchema.safeParse(store.getSetting(PREFIX + sessionId));
  return parsed.success ? parsed.data : null;
}

export function deleteOrigin(store: Pick<ReviewStorePort, "deleteSetting">, sessionId: string): void {
  store.deleteSetting(PREFIX + sessionId);
}

const BY_PATH = "import.byPath";

/** Session ids imported from each file (discovery marks files already imported). */
export function importedByPath(store: Pick<ReviewStorePort, "getSetting">): Record<string, string[]> {
  const v = store.getSetting(BY_PATH);
  if (v === null || typeof v !== "object" || Array.isArray(v)) return {};
  const out: Record<string, string[]> = {};
  for (const [path, ids] of Object.entries(v as Record<string, unknown>))
    if (Array.isArray(ids)) out[path] = ids.filter((x): x is string => typeof x === "string");
  return out;
}

export function rememberImport(store: Pick<ReviewStorePort, "getSetting" | "setSetting">, path: string, sessionId: string): void {
  const all = importedByPath(store);
  all[path] = [...(all[path] ?? []), sessionId];
  store.setSetting(BY_PATH, all);
}
