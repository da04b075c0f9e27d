/**
 * Fork onto another model: a new session holding the source's entries up to
 * a step (store.forkSession, which links back through parentSessionId and
 * parentSeq and appends a `fork` entry), calls left open at that step closed
 * with synthesized "aborted" results, then a `modelSwitch` to the chosen model.
 */
import type { SessionSummary } from "../../../shared/api";
import type { ModelRef, StoredEntry } from "../../../shared/protocol";
import { fail, type ReviewResult } from "./result";
import type { ReviewStorePort } from "./store-port";
import { sameModel } from "./timeline";

export function forkAt(
  store: ReviewStorePort,
  sessionId: string,
  atSeq: number,
  model: ModelRef,
  now: () => number,
): ReviewResult<SessionSummary> {
  const source = store.getSession(sessionId);
  if (!source) return fail("NOT_FOUND", `no session ${sessionId}`);
  if (atSeq > source.entryCount)
    return fail("INVALID_REQUEST", `step ${atSeq} is past the end of the session (${source.entryCount} entries)`);
  const fork = store.forkSession(sessionId, atSeq);
  // Repaired before the switch, so the new model never sees a call without its result.
  store.repairSession(fork.id);
  const from = modelAt(store.loadEntries(fork.id), source.model);
  if (from === null || !sameModel(from, model)) {
    store.appendEntry(fork.id, { type: "modelSwitch", from, to: model, timestamp: now() });
  }
  return { ok: true, value: store.setSessionModel(fork.id, model) };
}

/** The model in effect after these entries: the last switch or assistant message, else the session's. */
export function modelAt(entries: readonly StoredEntry[], fallback: ModelRef | null): ModelRef | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i].entry;
    if (e.type === "modelSwitch") return e.to;
    if (e.type === "message" && e.message.role === "assistant") return e.message.model;
  }
  return fallback;
}
