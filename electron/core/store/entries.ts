/**
 * Session entries: append (one transaction each) and load.
 *
 * Each entry is stored as JSON (the entry as given, once it passed the protocol
 * schema) plus real columns for what is queried: kind, timestamp, model, stop
 * reason, usage, cost, tool-call id, and the session's running totals and open
 * tool calls as of that entry. The full-text index is derived from these rows
 * in batches, off the append path (search-index.ts).
 */
import { z } from "zod";
import { SessionEntrySchema, type SessionEntry, type StoredEntry } from "../../../shared/protocol";
import type { SessionTail, StoreContext } from "./db";
import { isSessionEntryShape } from "./entry-shape";
import { StoreError } from "./errors";
import { SEQ_SPAN, entryId, sessionRange } from "./keys";
import { forgetSession, noteTouched, readTail } from "./tails";

export type EntryKind = "user" | "assistant" | "toolResult" | Exclude<SessionEntry["type"], "message">;

/** The queryable columns of one entry. */
export interface EntryColumns {
  kind: EntryKind;
  timestamp: number;
  provider: string | null;
  api: string | null;
  modelId: string | null;
  stopReason: string | null;
  toolCallId: string | null;
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  totalTokens: number | null;
  cost: number | null;
}

export function columnsOf(entry: SessionEntry): EntryColumns {
  const base: EntryColumns = {
    kind: entry.type === "message" ? entry.message.role : entry.type,
    timestamp: entry.type === "message" ? entry.message.timestamp : entry.timestamp,
    provider: null,
    api: null,
    modelId: null,
    stopReason: null,
    toolCallId: null,
    input: null,
    output: null,
    cacheRead: null,
    cacheWrite: null,
    totalTokens: null,
    cost: null,
  };
  switch (entry.type) {
    case "message": {
      const m = entry.message;
      if (m.role === "assistant") {
        return {
          ...base,
          provider: m.model.provider,
          api: m.model.api,
          modelId: m.model.id,
          stopReason: m.stopReason,
          input: m.usage.input,
          output: m.usage.output,
          cacheRead: m.usage.cacheRead,
          cacheWrite: m.usage.cacheWrite,
          totalTokens: m.usage.totalTokens,
          // Unknown price: no number in the cost column, so sums over it never count it as $0 (the JSON keeps `unknown`).
          cost: m.usage.cost.unknown ? null : m.usage.cost.total,
        };
      }
      if (m.role === "toolResult") return { ...base, toolCallId: m.toolCallId };
      return base;
    }
    case "modelSwitch":
      return { ...base, provider: entry.to.provider, api: entry.to.api, modelId: entry.to.id };
    case "compaction":
      return { ...base, provider: entry.model.provider, api: entry.model.api, modelId: entry.model.id };
    case "approval":
      return { ...base, toolCallId: entry.toolCallId };
    case "rename":
    case "fork":
    case "reasoningChange":
    case "planEdit":
      return base;
  }
}

// ---------------------------------------------------------------- open tool calls

const OpenCallsSchema = z.array(z.object({ id: z.string(), name: z.string(), late: z.literal(true).optional() }));
/**
 * A stored call still without a result. `late`: an assistant message came
 * after it (its response failed and was retried, or the session was imported
 * that way): no result can be expected any more, and repair answers it.
 */
export type OpenCall = z.infer<typeof OpenCallsSchema>[number];

export function parseOpenCalls(json: string | null): OpenCall[] {
  if (json === null) return [];
  try {
    const r = OpenCallsSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : [];
  } catch {
    // Unreadable: no repair for that session; the boundary transform still pairs every call with a result.
    return [];
  }
}

/**
 * The open calls after appending `entry`, or `undefined` when unchanged.
 * Tracks every call of the session without a result, not only the last
 * assistant message's: a call left behind by a later assistant message is
 * kept, marked `late`, so repair finds it wherever it is
 * (docs/architecture.md#invariants). Ids may repeat (even be empty): a result
 * closes the first matching call of the last assistant message, else the most
 * recent late one.
 */
function nextOpenCalls(current: readonly OpenCall[], entry: SessionEntry): OpenCall[] | undefined {
  if (entry.type !== "message") return undefined;
  const m = entry.message;
  if (m.role === "assistant") {
    const calls: OpenCall[] = current.map((c) => (c.late ? c : { ...c, late: true }));
    for (const b of m.content) if (b.type === "toolCall") calls.push({ id: b.id, name: b.name });
    return calls.length === 0 && current.length === 0 ? undefined : calls;
  }
  if (m.role === "toolResult") {
    let i = current.findIndex((c) => !c.late && c.id === m.toolCallId);
    if (i < 0) i = current.findLastIndex((c) => c.id === m.toolCallId);
    if (i < 0) return undefined;
    return [...current.slice(0, i), ...current.slice(i + 1)];
  }
  return undefined;
}

// ---------------------------------------------------------------- append

/**
 * Validates against the protocol (throws INVALID_ENTRY with the first issues)
 * and serialises the entry as given: stored as is, never rewritten. Callers
 * pass plain data. The check is `isSessionEntryShape` (same acceptance as the
 * schema, a fraction of zod's cost); zod runs only for a rejected entry, to
 * word the error. Keys the schema would strip stay in storage and are dropped
 * again when loading validates with zod.
 */
export function validateEntry(input: unknown): { entry: SessionEntry; json: string } {
  if (!isSessionEntryShape(input)) {
    const parsed = SessionEntrySchema.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("; ");
      throw new StoreError("INVALID_ENTRY", `entry does not match the protocol: ${issues}`);
    }
    // The schema accepts what the shape check refused: the schema is the authority.
  }
  let json: string;
  try {
    json = JSON.stringify(input);
  } catch (e) {
    // e.g. a BigInt or a cycle inside tool-result details
    throw new StoreError("INVALID_ENTRY", `entry is not JSON-serialisable: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { entry: input as SessionEntry, json };
}

/** How stale updated_at may get while the session already tops its workspace's list. */
export const TOUCH_INTERVAL_MS = 1000;

/**
 * Appends one entry in its own transaction and returns its seq (1-based,
 * contiguous per session). Nothing is written when it throws
 * (INVALID_ENTRY, NOT_FOUND, or a storage error). `alongside` runs inside that
 * transaction right after the row is inserted (the loop writes a tool call's
 * audit row with its result: one commit, not two); if it throws, the entry is
 * not written either.
 */
export function appendEntry(ctx: StoreContext, sessionId: string, input: unknown, alongside?: (seq: number) => void): number {
  const { entry, json } = validateEntry(input);
  try {
    return insertValidated(ctx, sessionId, entry, json, alongside);
  } catch (e) {
    ctx.cache.tails.delete(sessionId);
    // Another connection appended meanwhile (the cached tail was stale): re-read and retry once.
    if (isPrimaryKeyConflict(e)) return insertValidated(ctx, sessionId, entry, json, alongside);
    throw e;
  }
}

function isPrimaryKeyConflict(e: unknown): boolean {
  return typeof e === "object" && e !== null && "code" in e && e.code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/**
 * One INSERT (its own autocommit transaction) in the common case; seq, running
 * totals and open calls come from the cached tail (tails.ts). updated_at is
 * written too, in the same transaction, only when the session does not already
 * top its workspace's list or was bumped over a second ago: the list order
 * stays exact and the shown time lags by less than a second.
 */
function insertValidated(
  ctx: StoreContext,
  sessionId: string,
  entry: SessionEntry,
  json: string,
  alongside: ((seq: number) => void) | undefined,
): number {
  const tail = ctx.cache.tails.get(sessionId) ?? readTail(ctx, sessionId);
  const { row, after } = nextRow(tail, sessionId, entry, json);
  const seq = after.lastSeq;
  const now = ctx.now();
  const top = ctx.cache.top.get(tail.workspaceId);
  const touch = top === undefined || top.sessionId !== sessionId || now >= top.at + TOUCH_INTERVAL_MS;
  // No named closure here: tsx/esbuild's keepNames wraps each one in a defineProperty call per append.
  const touched = touch ? { sessionId, now } : null;
  if (touch || alongside !== undefined)
    ctx.tx(() => insertRow(ctx, row, touched, alongside === undefined ? undefined : () => alongside(seq)));
  else insertRow(ctx, row, null, undefined);
  if (ctx.db.inTransaction) {
    // An enclosing transaction may still roll back: trust nothing cached about this session.
    forgetSession(ctx, sessionId);
  } else {
    ctx.cache.tails.set(sessionId, after);
    if (touch) noteTouched(ctx, tail.workspaceId, sessionId, now);
  }
  ctx.events.appended(sessionId);
  return seq;
}

/** The row that appends `entry` to a session whose tail is `tail`, and the tail after it. */
export function nextRow(tail: SessionTail, sessionId: string, entry: SessionEntry, json: string): { row: EntryRow; after: SessionTail } {
  const c = columnsOf(entry);
  const seq = tail.lastSeq + 1;
  if (seq >= SEQ_SPAN) throw new StoreError("INVALID_ARGUMENT", `session ${sessionId} is full`);
  const next = nextOpenCalls(tail.openCalls, entry);
  const openCalls = next ?? tail.openCalls;
  const openCallsJson = next === undefined ? tail.openCallsJson : next.length > 0 ? JSON.stringify(next) : null;
  const runningTokens = tail.runningTokens + (c.totalTokens ?? 0);
  const runningCost = tail.runningCost + (c.cost ?? 0);
  const row: EntryRow = [
    entryId(tail.num, seq),
    sessionId,
    c.kind,
    c.timestamp,
    c.provider,
    c.api,
    c.modelId,
    c.stopReason,
    c.toolCallId,
    c.input,
    c.output,
    c.cacheRead,
    c.cacheWrite,
    c.totalTokens,
    c.cost,
    runningTokens,
    runningCost,
    openCallsJson,
    json,
  ];
  return { row, after: { ...tail, lastSeq: seq, runningTokens, runningCost, openCalls, openCallsJson } };
}

export type EntryRow = [
  id: number,
  sessionId: string,
  kind: EntryKind,
  timestamp: number,
  provider: string | null,
  api: string | null,
  modelId: string | null,
  stopReason: string | null,
  toolCallId: string | null,
  input: number | null,
  output: number | null,
  cacheRead: number | null,
  cacheWrite: number | null,
  totalTokens: number | null,
  cost: number | null,
  runningTokens: number,
  runningCost: number,
  openCalls: string | null,
  content: string,
];

export function insertRow(
  ctx: StoreContext,
  row: EntryRow,
  touch: { sessionId: string; now: number } | null,
  alongside: (() => void) | undefined,
): void {
  ctx
    .stmt(
      `INSERT INTO entries (id, session_id, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
         input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total,
         running_tokens, running_cost, open_tool_calls, content)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(row);
  if (touch !== null) ctx.stmt(`UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?`).run(touch.now, touch.sessionId);
  alongside?.();
}

/** The session's rowid number and workspace, or undefined when it does not exist. */
export function sessionHead(ctx: StoreContext, sessionId: string): { num: number; workspace_id: string } | undefined {
  return ctx.stmt(`SELECT num, workspace_id FROM sessions WHERE id = ?`).get(sessionId) as
    { num: number; workspace_id: string } | undefined;
}

interface LastEntryRow {
  id: number;
  running_tokens: number;
  running_cost: number;
  open_tool_calls: string | null;
}

export function lastEntry(ctx: StoreContext, num: number): LastEntryRow | undefined {
  const [lo, hi] = sessionRange(num);
  return ctx
    .stmt(`SELECT id, running_tokens, running_cost, open_tool_calls FROM entries WHERE id BETWEEN ? AND ? ORDER BY id DESC LIMIT 1`)
    .get(lo, hi) as LastEntryRow | undefined;
}

// ---------------------------------------------------------------- load

/**
 * A stored row that could not be returned as an entry, or a run of seqs with
 * no row at all (`MISSING`: lost to damage, a salvage that could not read
 * them). Its seq is kept so the UI can show the gap.
 */
export interface EntryProblem {
  seq: number;
  kind: string;
  code: "INVALID_JSON" | "INVALID_ENTRY" | "MISSING";
  message: string;
  /** MISSING: the last seq of the run. */
  toSeq?: number;
  /** The row's stored text, as it is (only when asked for: exports keep it). */
  raw?: string;
}

export interface CheckedEntries {
  entries: StoredEntry[];
  problems: EntryProblem[];
}

export interface LoadOptions {
  /** Put each unreadable row's stored text in its problem (`raw`). */
  raw?: boolean;
}

export interface EntryRange {
  /** First seq to load (inclusive); default 1. */
  fromSeq?: number;
  /** Last seq to load (inclusive); default the last entry. */
  toSeq?: number;
}

/** Rows of the entries with ids in [lo, hi], in order. */
export function entryRows(ctx: StoreContext, lo: number, hi: number): IterableIterator<[number, string, string]> {
  return (
    ctx
      .stmt(`SELECT id, kind, content FROM entries WHERE id BETWEEN ? AND ? ORDER BY id`)
      .raw()
      // Iterate rather than .all(): each row's text can be collected as soon as it is parsed.
      .iterate(lo, hi) as IterableIterator<[number, string, string]>
  );
}

/**
 * Loads entries in seq order. A row whose JSON no longer parses or no longer
 * matches the protocol is not returned as an entry but listed in `problems`
 * (with its stored text when `options.raw`), and so is every run of seqs
 * inside the range that has no row; every other row is returned. An unknown
 * session yields no entries.
 */
export function loadEntriesChecked(
  ctx: StoreContext,
  sessionId: string,
  range: EntryRange = {},
  options: LoadOptions = {},
): CheckedEntries {
  const head = sessionHead(ctx, sessionId);
  if (head === undefined) return { entries: [], problems: [] };
  const [lo, hi] = sessionRange(head.num);
  const from = Math.max(1, Math.floor(range.fromSeq ?? 1));
  const to = Math.min(SEQ_SPAN - 1, Math.floor(range.toSeq ?? SEQ_SPAN - 1));
  const rows = entryRows(ctx, lo + from, Math.min(hi, lo + to));
  const entries: StoredEntry[] = [];
  const problems: EntryProblem[] = [];
  // Seqs are contiguous from 1 (entryId): a jump means rows were lost.
  let expected = from;
  const damaged = (problem: Omit<EntryProblem, "raw">, content: string) =>
    problems.push(options.raw ? { ...problem, raw: content } : problem);
  for (const [id, kind, content] of rows) {
    const seq = id - lo;
    if (seq > expected) problems.push(missing(expected, seq - 1));
    expected = seq + 1;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (e) {
      damaged({ seq, kind, code: "INVALID_JSON", message: e instanceof Error ? e.message : String(e) }, content);
      continue;
    }
    const parsed = SessionEntrySchema.safeParse(value);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      damaged(
        { seq, kind, code: "INVALID_ENTRY", message: first ? `${first.path.join(".") || "(root)"}: ${first.message}` : "invalid entry" },
        content,
      );
      continue;
    }
    entries.push({ seq, entry: parsed.data });
  }
  return { entries, problems };
}

function missing(fromSeq: number, toSeq: number): EntryProblem {
  const n = toSeq - fromSeq + 1;
  const which = n === 1 ? `entry ${fromSeq} is` : `entries ${fromSeq}–${toSeq} (${n}) are`;
  return { seq: fromSeq, toSeq, kind: "unknown", code: "MISSING", message: `${which} missing: lost to damage to the database` };
}
