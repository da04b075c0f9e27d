/**
 * The writer's cache of session tails (last seq, running totals, open calls)
 * and of which session tops each workspace's list.
 *
 * Why: with them an append is a single INSERT, its own autocommit transaction,
 * dirtying no more pages than a bare insert; reading the tail first would cost
 * a read transaction and a second statement per append. This relies on the
 * store being the database's only writer (docs/architecture.md#storage). A stale
 * tail still cannot corrupt: its seq would collide with the row another writer
 * added (primary key), and the append re-reads the tail and retries once.
 * Anything that changes a session outside a plain append forgets its tail.
 */
import type { SessionTail, StoreContext } from "./db";
import { parseOpenCalls } from "./entries";
import { StoreError } from "./errors";
import { LAST_ENTRY_ID_SQL, SEQ_SPAN } from "./keys";

interface TailRow {
  num: number;
  workspace_id: string;
  last_id: number | null;
  running_tokens: number | null;
  running_cost: number | null;
  open_tool_calls: string | null;
}

export function readTail(ctx: StoreContext, sessionId: string): SessionTail {
  const row = ctx
    .stmt(
      `SELECT s.num, s.workspace_id, e.id AS last_id, e.running_tokens, e.running_cost, e.open_tool_calls
       FROM sessions s LEFT JOIN entries e ON e.id = ${LAST_ENTRY_ID_SQL} WHERE s.id = ?`,
    )
    .get(sessionId) as TailRow | undefined;
  if (row === undefined) throw new StoreError("NOT_FOUND", `no session ${sessionId}`);
  return {
    num: row.num,
    workspaceId: row.workspace_id,
    lastSeq: row.last_id === null ? 0 : row.last_id - row.num * SEQ_SPAN,
    runningTokens: row.running_tokens ?? 0,
    runningCost: row.running_cost ?? 0,
    openCalls: parseOpenCalls(row.open_tool_calls),
    openCallsJson: row.open_tool_calls,
  };
}

/** Records that `sessionId` now tops its workspace with updated_at = at (only once committed). */
export function noteTouched(ctx: StoreContext, workspaceId: string, sessionId: string, at: number): void {
  if (ctx.db.inTransaction) ctx.cache.top.delete(workspaceId);
  else ctx.cache.top.set(workspaceId, { sessionId, at });
}

export function forgetSession(ctx: StoreContext, sessionId: string): void {
  ctx.cache.tails.delete(sessionId);
  for (const [ws, top] of ctx.cache.top) if (top.sessionId === sessionId) ctx.cache.top.delete(ws);
}
