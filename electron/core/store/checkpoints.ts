/** Rows naming the checkpoint trees of sessions (the files live in electron/core/checkpoints). */
import type { StoreContext } from "./db";
import { StoreError } from "./errors";

export type CheckpointKind = "turnStart" | "afterTool" | "beforeRestore" | "restored";

export interface CheckpointInput {
  workspaceId: string;
  sessionId: string;
  seq: number;
  kind: CheckpointKind;
  toolCallId?: string | null;
  tree: string;
}

export interface CheckpointRecord extends Required<CheckpointInput> {
  id: number;
  toolCallId: string | null;
  createdAt: number;
  prunedAt: number | null;
}

interface Row {
  id: number;
  workspace_id: string;
  session_id: string;
  seq: number;
  kind: CheckpointKind;
  tool_call_id: string | null;
  tree: string;
  created_at: number;
  pruned_at: number | null;
}

const toRecord = (r: Row): CheckpointRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  sessionId: r.session_id,
  seq: r.seq,
  kind: r.kind,
  toolCallId: r.tool_call_id,
  tree: r.tree,
  createdAt: r.created_at,
  prunedAt: r.pruned_at,
});

export function addCheckpoint(ctx: StoreContext, input: CheckpointInput): CheckpointRecord {
  if (!/^[0-9a-f]{40,64}$/.test(input.tree)) throw new StoreError("INVALID_ARGUMENT", `not a tree id: ${input.tree}`);
  if (!Number.isInteger(input.seq) || input.seq < 0) throw new StoreError("INVALID_ARGUMENT", `bad step ${input.seq}`);
  const row = ctx
    .stmt(
      `INSERT INTO checkpoints (workspace_id, session_id, seq, kind, tool_call_id, tree, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(input.workspaceId, input.sessionId, input.seq, input.kind, input.toolCallId ?? null, input.tree, ctx.now()) as Row;
  return toRecord(row);
}

/** One session's own rows, in the order they were recorded. */
export function listSessionCheckpoints(ctx: StoreContext, sessionId: string): CheckpointRecord[] {
  return (ctx.stmt(`SELECT * FROM checkpoints WHERE session_id = ? ORDER BY id`).all(sessionId) as Row[]).map(toRecord);
}

export function getCheckpoint(ctx: StoreContext, id: number): CheckpointRecord | undefined {
  const row = ctx.stmt(`SELECT * FROM checkpoints WHERE id = ?`).get(id) as Row | undefined;
  return row && toRecord(row);
}

/** A workspace's live (unpruned) rows, oldest first. */
export function listWorkspaceCheckpoints(ctx: StoreContext, workspaceId: string): CheckpointRecord[] {
  return (ctx.stmt(`SELECT * FROM checkpoints WHERE workspace_id = ? AND pruned_at IS NULL ORDER BY id`).all(workspaceId) as Row[]).map(
    toRecord,
  );
}

export function markCheckpointsPruned(ctx: StoreContext, ids: readonly number[]): void {
  const at = ctx.now();
  ctx.tx(() => {
    for (const id of ids) ctx.stmt(`UPDATE checkpoints SET pruned_at = ? WHERE id = ?`).run(at, id);
  });
}

export function countPrunedCheckpoints(ctx: StoreContext, workspaceId: string): number {
  const row = ctx.stmt(`SELECT count(*) AS n FROM checkpoints WHERE workspace_id = ? AND pruned_at IS NOT NULL`).get(workspaceId) as {
    n: number;
  };
  return row.n;
}
