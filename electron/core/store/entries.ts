/**
 * Session entries: append (one transaction each) and load.
 *
 * Each entry is stored as JSON (exactly what the protocol schema accepted) plus
 * real columns for what is queried: kind, timestamp, model, stop reason, usage,
 * cost, tool-call id. Message text also goes into the FTS index.
 */
import { z } from "zod";
import {
  SessionEntrySchema,
  messageText,
  type SessionEntry,
  type StoredEntry,
} from "../../../shared/protocol";
import type { StoreContext } from "./db";
import { StoreError } from "./errors";

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
          cost: m.usage.cost.total,
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
      return base;
  }
}

// ---------------------------------------------------------------- open tool calls

const OpenCallsSchema = z.array(z.object({ id: z.string(), name: z.string() }));
export type OpenCall = z.infer<typeof OpenCallsSchema>[number];

export function parseOpenCalls(json: string | null): OpenCall[] {
  if (json === null) return [];
  try {
    const r = OpenCallsSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : [];
  } catch {
    // Derived data: a bad value only means repair recomputes from the entries.
    return [];
  }
}

/**
 * The open-calls column after appending `entry`, or `undefined` when unchanged.
 * Tracks the calls of the last assistant message that have no result yet; ids
 * may repeat (even be empty), so a result closes the first matching call only.
 */
function nextOpenCalls(current: string | null, entry: SessionEntry): string | null | undefined {
  if (entry.type !== "message") return undefined;
  const m = entry.message;
  if (m.role === "assistant") {
    const calls: OpenCall[] = [];
    for (const b of m.content) if (b.type === "toolCall") calls.push({ id: b.id, name: b.name });
    const next = calls.length > 0 ? JSON.stringify(calls) : null;
    return next === current ? undefined : next;
  }
  if (m.role === "toolResult" && current !== null) {
    const open = parseOpenCalls(current);
    const i = open.findIndex((c) => c.id === m.toolCallId);
    if (i < 0) return undefined;
    open.splice(i, 1);
    return open.length > 0 ? JSON.stringify(open) : null;
  }
  return undefined;
}

// ---------------------------------------------------------------- append

/** Validates with the protocol schema; throws INVALID_ENTRY with the first issues. */
export function validateEntry(input: unknown): { entry: SessionEntry; json: string } {
  const parsed = SessionEntrySchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; ");
    throw new StoreError("INVALID_ENTRY", `entry does not match the protocol: ${issues}`);
  }
  let json: string;
  try {
    json = JSON.stringify(parsed.data);
  } catch (e) {
    // e.g. a BigInt or a cycle inside tool-result details
    throw new StoreError("INVALID_ENTRY", `entry is not JSON-serialisable: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { entry: parsed.data, json };
}

/**
 * Appends one entry in its own transaction and returns its seq (1-based,
 * contiguous per session). Nothing is written when it throws
 * (INVALID_ENTRY, NOT_FOUND, or a storage error).
 */
export function appendEntry(ctx: StoreContext, sessionId: string, input: unknown): number {
  const { entry, json } = validateEntry(input);
  return ctx.tx(() => insertValidated(ctx, sessionId, entry, json));
}

interface SessionCounterRow {
  entry_count: number;
  open_tool_calls: string | null;
}

function insertValidated(ctx: StoreContext, sessionId: string, entry: SessionEntry, json: string): number {
  const c = columnsOf(entry);
  // One statement bumps the counters and hands back the new seq and the open calls.
  const s = ctx
    .stmt(
      `UPDATE sessions SET entry_count = entry_count + 1, updated_at = max(updated_at, ?),
         input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
         cache_read_tokens = cache_read_tokens + ?, cache_write_tokens = cache_write_tokens + ?,
         total_tokens = total_tokens + ?, total_cost = total_cost + ?
       WHERE id = ? RETURNING entry_count, open_tool_calls`,
    )
    .get(
      ctx.now(),
      c.input ?? 0,
      c.output ?? 0,
      c.cacheRead ?? 0,
      c.cacheWrite ?? 0,
      c.totalTokens ?? 0,
      c.cost ?? 0,
      sessionId,
    ) as SessionCounterRow | undefined;
  if (s === undefined) throw new StoreError("NOT_FOUND", `no session ${sessionId}`);
  const seq = s.entry_count;
  const info = ctx
    .stmt(
      `INSERT INTO entries (session_id, seq, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
         input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total, content)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      sessionId,
      seq,
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
      json,
    );
  const text = entry.type === "message" ? messageText(entry.message) : "";
  if (text.length > 0) ctx.stmt(`INSERT INTO entries_fts (rowid, text) VALUES (?, ?)`).run(info.lastInsertRowid, text);
  const open = nextOpenCalls(s.open_tool_calls, entry);
  if (open !== undefined) ctx.stmt(`UPDATE sessions SET open_tool_calls = ? WHERE id = ?`).run(open, sessionId);
  return seq;
}

// ---------------------------------------------------------------- load

/** A stored row that could not be returned as an entry. Its seq is kept so the UI can show the gap. */
export interface EntryProblem {
  seq: number;
  kind: string;
  code: "INVALID_JSON" | "INVALID_ENTRY";
  message: string;
}

export interface CheckedEntries {
  entries: StoredEntry[];
  problems: EntryProblem[];
}

export interface EntryRange {
  /** First seq to load (inclusive); default 1. */
  fromSeq?: number;
  /** Last seq to load (inclusive); default the last entry. */
  toSeq?: number;
}

/**
 * Loads entries in seq order. A row whose JSON no longer parses or no longer
 * matches the protocol is not returned as an entry but listed in `problems`;
 * every other row is returned. An unknown session yields no entries.
 */
export function loadEntriesChecked(ctx: StoreContext, sessionId: string, range: EntryRange = {}): CheckedEntries {
  const rows = ctx
    .stmt(`SELECT seq, kind, content FROM entries WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq`)
    .raw()
    .all(sessionId, range.fromSeq ?? 1, range.toSeq ?? Number.MAX_SAFE_INTEGER) as Array<[number, string, string]>;
  const entries: StoredEntry[] = [];
  const problems: EntryProblem[] = [];
  for (const [seq, kind, content] of rows) {
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (e) {
      problems.push({ seq, kind, code: "INVALID_JSON", message: e instanceof Error ? e.message : String(e) });
      continue;
    }
    const parsed = SessionEntrySchema.safeParse(value);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      problems.push({
        seq,
        kind,
        code: "INVALID_ENTRY",
        message: first ? `${first.path.join(".") || "(root)"}: ${first.message}` : "invalid entry",
      });
      continue;
    }
    entries.push({ seq, entry: parsed.data });
  }
  return { entries, problems };
}
