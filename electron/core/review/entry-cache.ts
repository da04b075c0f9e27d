/**
 * Parsed entries of the sessions a reviewer is looking at, for the requests
 * made again and again on one session ("what the model saw", files at a step).
 * Reading and validating a long session's rows costs far more than rebuilding
 * a request from them, and a session's entries are append-only (each gets the
 * next seq and is never rewritten), so a later read adds only the rows after
 * the last one kept. A row that failed validation is skipped, as loadEntries does.
 */
import type { StoredEntry } from "../../../shared/protocol";
import type { EntryRange } from "../store";

/** Sessions kept (the one in replay, and the one it was forked from or compared with). */
const SESSIONS_KEPT = 2;

export interface EntryCache {
  /** All entries of the session, rows stored since the last call included. */
  entries(sessionId: string): readonly StoredEntry[];
  /** Entries a caller has just loaded in full (the timeline): kept for the next request. */
  remember(sessionId: string, entries: readonly StoredEntry[]): void;
}

export function createEntryCache(load: (sessionId: string, range: EntryRange) => StoredEntry[], kept = SESSIONS_KEPT): EntryCache {
  const cache = new Map<string, readonly StoredEntry[]>();
  const keep = (sessionId: string, entries: readonly StoredEntry[]) => {
    cache.delete(sessionId);
    cache.set(sessionId, entries);
    while (cache.size > kept) cache.delete(cache.keys().next().value as string);
  };
  return {
    entries(sessionId) {
      const known = cache.get(sessionId) ?? [];
      const after = known.at(-1)?.seq ?? 0;
      const added = load(sessionId, { fromSeq: after + 1 });
      const entries = added.length === 0 ? known : known.concat(added);
      keep(sessionId, entries);
      return entries;
    },
    remember: keep,
  };
}
