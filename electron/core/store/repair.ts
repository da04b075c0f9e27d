/**
 * Repair on open: a session whose last assistant message has tool calls
 * without results (the app died mid-turn) gets one synthesized "aborted"
 * error result per missing call, so the conversation can continue
 * (invariant 1, docs/architecture.md#invariants).
 */
import type { ToolResultMessage } from "../../../shared/protocol";
import type { StoreContext } from "./db";
import { abortOpenToolCalls } from "./audit";
import { appendEntry } from "./entries";
import { toStoreError } from "./errors";
import { LAST_ENTRY_ID_SQL, VISIBLE } from "./keys";
import { openCalls } from "./sessions";

export const ABORTED_RESULT_TEXT = "aborted: the app stopped before this tool call finished";

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

/** Appends the missing results (in call order) in one transaction; returns how many were added. */
export function repairSession(ctx: StoreContext, sessionId: string): number {
  return ctx.tx(() => {
    const calls = openCalls(ctx, sessionId);
    const now = ctx.now();
    // Each synthesized result closes its call, so the last row ends with no open calls.
    for (const c of calls) {
      appendEntry(ctx, sessionId, { type: "message", message: synthesizedAbortResult(c.id, c.name, now) });
    }
    abortOpenToolCalls(
      ctx,
      sessionId,
      calls.map((c) => c.id),
    );
    return calls.length;
  });
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
 * Repairs every session whose last entry row records open tool calls: one
 * rowid seek per session, never a scan of entries. One session failing does
 * not stop the others.
 */
export function repairAll(ctx: StoreContext): RepairAllResult {
  const ids = ctx
    .stmt(`SELECT s.id FROM sessions s JOIN entries e ON e.id = ${LAST_ENTRY_ID_SQL} WHERE e.open_tool_calls IS NOT NULL AND ${VISIBLE}`)
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
