/**
 * Fork onto another model: a new session holding the source's entries up to
 * a step (store.forkSession, which links back through parentSessionId and
 * parentSeq and appends a `fork` entry), the results of the step's tool calls
 * kept with it, calls still open closed with synthesized "aborted" results,
 * then a `modelSwitch` to the chosen model.
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
  // A step's tool calls go with their results: forking at a call must not make it look stopped ("aborted").
  const end = withResults(store.loadEntries(sessionId), atSeq);
  const fork = store.forkSession(sessionId, end);
  // Repaired before the switch, so the new model never sees a call without its result.
  store.repairSession(fork.id);
  const from = modelAt(store.loadEntries(fork.id), source.model);
  if (from === null || !sameModel(from, model)) {
    store.appendEntry(fork.id, { type: "modelSwitch", from, to: model, timestamp: now() });
  }
  return { ok: true, value: store.setSessionModel(fork.id, model) };
}

/**
 * `atSeq`, moved past the results (and approvals) of the calls still open
 * there when they follow at once, as the loop stored them. Calls whose results
 * never came stay open and are answered by the repair as before.
 */
export function withResults(entries: readonly StoredEntry[], atSeq: number): number {
  const open = new Set<string>();
  let i = 0;
  for (; i < entries.length && entries[i].seq <= atSeq; i++) {
    const e = entries[i].entry;
    if (e.type !== "message") continue;
    if (e.message.role === "assistant") for (const b of e.message.content) if (b.type === "toolCall") open.add(b.id);
    if (e.message.role === "toolResult") open.delete(e.message.toolCallId);
  }
  let end = atSeq;
  for (; i < entries.length && open.size > 0; i++) {
    const { seq, entry } = entries[i];
    if (entry.type === "approval" && open.has(entry.toolCallId)) end = seq;
    else if (entry.type === "message" && entry.message.role === "toolResult" && open.delete(entry.message.toolCallId)) end = seq;
    else break;
  }
  return end;
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
