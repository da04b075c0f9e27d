/**
 * Repair on open: every stored tool call without a result gets one
 * synthesized error result, wherever it is in its session, so the
 * conversation can continue and every export holds an answer for each call
 * (invariant 1, docs/architecture.md#invariants). Calls of the session's last
 * assistant message (the app died mid-turn) are answered "aborted"; calls a
 * later assistant message left behind (a response that failed inside a tool
 * call and was retried) are answered "no result was recorded".
 */
import type { ToolResultMessage } from "../../../shared/protocol";
import type { StoreContext } from "./db";
import { abortOpenToolCalls } from "./audit";
import { appendEntry, entryRows, sessionHead, type OpenCall } from "./entries";
import { StoreError, toStoreError } from "./errors";
import { LAST_ENTRY_ID_SQL, VISIBLE, sessionRange } from "./keys";
import { openCalls } from "./sessions";
import { forgetSession } from "./tails";

export const ABORTED_RESULT_TEXT = "aborted: the app stopped before this tool call finished";
export const UNANSWERED_RESULT_TEXT =
  "error: no result was recorded for this tool call (the response it came in failed or was cut off); do not assume it ran";

export function synthesizedAbortResult(toolCallId: string, toolName: string, timestamp: number): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName,
    isError: true,
    content: [{ type: "text", text: ABORTED_RESULT_TEXT }],
    details: { errorCode: "ABORTED", synthesized: true },
    timestamp,
  };
}

function synthesizedUnanswered(toolCallId: string, toolName: string, timestamp: number): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName,
    isError: true,
    content: [{ type: "text", text: UNANSWERED_RESULT_TEXT }],
    details: { errorCode: "UNANSWERED", synthesized: true },
    timestamp,
  };
}

/** Appends the missing results (late calls first, then the last message's in call order) in one transaction; returns how many were added. */
export function repairSession(ctx: StoreContext, sessionId: string): number {
  // Read first: a session with nothing to repair takes no write lock (a load must not wait on another writer).
  const checked = ctx.stmt(`SELECT calls_checked FROM sessions WHERE id = ?`).pluck().get(sessionId) as number | undefined;
  if (checked === undefined) throw new StoreError("NOT_FOUND", `no session ${sessionId}`);
  if (checked === 1 && openCalls(ctx, sessionId).length === 0) return 0;
  return ctx.tx(() => {
    const checked = ctx.stmt(`SELECT calls_checked FROM sessions WHERE id = ?`).pluck().get(sessionId) as number | undefined;
    if (checked === undefined) throw new StoreError("NOT_FOUND", `no session ${sessionId}`);
    const calls = checked === 1 ? openCalls(ctx, sessionId) : scanOpenCalls(ctx, sessionId);
    const now = ctx.now();
    const ordered = [...calls.filter((c) => c.late), ...calls.filter((c) => !c.late)];
    // Each synthesized result closes its call, so the last row ends with no open calls.
    for (const c of ordered) {
      const result = c.late ? synthesizedUnanswered(c.id, c.name, now) : synthesizedAbortResult(c.id, c.name, now);
      appendEntry(ctx, sessionId, { type: "message", message: result });
    }
    abortOpenToolCalls(
      ctx,
      sessionId,
      calls.filter((c) => !c.late).map((c) => c.id),
    );
    if (checked !== 1) {
      ctx.stmt(`UPDATE sessions SET calls_checked = 1 WHERE id = ?`).run(sessionId);
      // The scan found what the last row's open calls did not say: the cached tail must be read again.
      forgetSession(ctx, sessionId);
    }
    return calls.length;
  });
}

/**
 * Every call of the session without a result, read from its rows (for a
 * session written before every open call was tracked): the same pairing as
 * an append makes, one row at a time. A row that does not parse answers
 * nothing and asks nothing (it is reported as damaged where it is loaded).
 */
function scanOpenCalls(ctx: StoreContext, sessionId: string): OpenCall[] {
  const head = sessionHead(ctx, sessionId);
  if (head === undefined) throw new StoreError("NOT_FOUND", `no session ${sessionId}`);
  const [lo, hi] = sessionRange(head.num);
  let open: OpenCall[] = [];
  for (const [, kind, content] of entryRows(ctx, lo + 1, hi)) {
    if (kind !== "assistant" && kind !== "toolResult") continue;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch {
      continue;
    }
    const message = (value as { message?: unknown } | null)?.message;
    if (typeof message !== "object" || message === null) continue;
    if (kind === "assistant") {
      const content = (message as { content?: unknown }).content;
      open = open.map((c) => (c.late ? c : { ...c, late: true }));
      if (!Array.isArray(content)) continue;
      for (const b of content as unknown[]) {
        const block = b as { type?: unknown; id?: unknown; name?: unknown } | null;
        if (block?.type === "toolCall" && typeof block.id === "string" && typeof block.name === "string") {
          open.push({ id: block.id, name: block.name });
        }
      }
    } else {
      const id = (message as { toolCallId?: unknown }).toolCallId;
      let i = open.findIndex((c) => !c.late && c.id === id);
      if (i < 0) i = open.findLastIndex((c) => c.id === id);
      if (i >= 0) open.splice(i, 1);
    }
  }
  return open;
}

export interface RepairReport {
  sessionId: string;
  added: number;
}

export interface RepairAllResult {
  repaired: RepairReport[];
  /** Sessions whose repair failed; they are left as they were. */
  failures: Array<{ sessionId: string; message: string }>;
}

/**
 * Repairs every session whose last entry row records open tool calls (one
 * rowid seek per session, never a scan of entries), and scans, once, each
 * session written before every open call was tracked. One session failing
 * does not stop the others.
 */
export function repairAll(ctx: StoreContext): RepairAllResult {
  const ids = ctx
    .stmt(
      `SELECT s.id FROM sessions s LEFT JOIN entries e ON e.id = ${LAST_ENTRY_ID_SQL}
       WHERE (e.open_tool_calls IS NOT NULL OR s.calls_checked = 0) AND ${VISIBLE}`,
    )
    .pluck()
    .all() as string[];
  const result: RepairAllResult = { repaired: [], failures: [] };
  for (const id of ids) {
    try {
      const added = repairSession(ctx, id);
      if (added > 0) result.repaired.push({ sessionId: id, added });
    } catch (e) {
      result.failures.push({ sessionId: id, message: toStoreError(e, "repair").message });
    }
  }
  return result;
}
