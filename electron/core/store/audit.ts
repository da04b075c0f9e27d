/**
 * The tool-call audit: one row per executed (or refused) tool call with its
 * lifecycle status, approval decision and outcome figures. Tool-call ids are
 * opaque and may repeat across turns, so an update targets the latest row
 * with that id in the session.
 */
import { z } from "zod";
import { HunkDecisionSchema, type HunkDecision } from "../../../shared/hunks";
import type { ApprovalDecision, DecidingRule } from "../../../shared/protocol";
import { ApprovalDecisionSchema, DecidingRuleSchema } from "../../../shared/protocol";
import type { StoreContext } from "./db";
import { StoreError } from "./errors";

export const ToolAuditStatusSchema = z.enum(["proposed", "approved", "denied", "running", "done", "error", "aborted"]);
export type ToolAuditStatus = z.infer<typeof ToolAuditStatusSchema>;

/** Statuses after which a call will not change any more. */
export const TERMINAL_TOOL_STATUSES: readonly ToolAuditStatus[] = ["denied", "done", "error", "aborted"];

export interface ToolCallPatch {
  status?: ToolAuditStatus;
  durationMs?: number;
  errorCode?: string;
  outputBytes?: number;
  approvalDecision?: ApprovalDecision;
  /** "user" or "policy". */
  decidedBy?: string;
  decidedAt?: number;
  /** The rules that decided (policy) or that the user saved with the decision. */
  decidedByRule?: DecidingRule[];
  /** The user's decision per hunk of a reviewed write/edit (in the proposal's order). */
  hunkDecisions?: HunkDecision[];
}

export interface ToolCallInput extends ToolCallPatch {
  sessionId: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  status: ToolAuditStatus;
}

export interface ToolCallRecord {
  id: number;
  sessionId: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  status: ToolAuditStatus;
  durationMs: number | null;
  errorCode: string | null;
  outputBytes: number | null;
  approvalDecision: ApprovalDecision | null;
  decidedBy: string | null;
  decidedAt: number | null;
  decidedByRule: DecidingRule[] | null;
  hunkDecisions: HunkDecision[] | null;
  createdAt: number;
  updatedAt: number;
}

interface ToolCallRow {
  id: number;
  session_id: string;
  tool_call_id: string;
  tool_name: string;
  args: string;
  status: string;
  duration_ms: number | null;
  error_code: string | null;
  output_bytes: number | null;
  approval_decision: string | null;
  decided_by: string | null;
  decided_at: number | null;
  decided_by_rule: string | null;
  hunk_decisions: string | null;
  created_at: number;
  updated_at: number;
}

function toRecord(r: ToolCallRow): ToolCallRecord {
  let args: unknown;
  try {
    args = JSON.parse(r.args);
  } catch {
    // Stored before arguments were always JSON: shown as the text that was stored.
    args = r.args;
  }
  const status = ToolAuditStatusSchema.safeParse(r.status);
  const decision = ApprovalDecisionSchema.safeParse(r.approval_decision);
  return {
    id: r.id,
    sessionId: r.session_id,
    toolCallId: r.tool_call_id,
    toolName: r.tool_name,
    args,
    // The CHECK constraint guarantees the status; "error" is the safe reading if it ever did not.
    status: status.success ? status.data : "error",
    durationMs: r.duration_ms,
    errorCode: r.error_code,
    outputBytes: r.output_bytes,
    approvalDecision: decision.success ? decision.data : null,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at,
    decidedByRule: parseRules(r.decided_by_rule),
    hunkDecisions: parseHunkDecisions(r.hunk_decisions),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function parseRules(text: string | null): DecidingRule[] | null {
  if (text === null) return null;
  try {
    const parsed = DecidingRuleSchema.array().safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    // Unreadable: the audit row is still listed, without the deciding rules.
    return null;
  }
}

const HunkDecisionsSchema = HunkDecisionSchema.array();

function parseHunkDecisions(raw: string | null): HunkDecision[] | null {
  if (raw === null) return null;
  try {
    const parsed = HunkDecisionsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    // Unreadable: the audit row is still listed, without per-hunk decisions.
    return null;
  }
}

const STATUSES: ReadonlySet<unknown> = new Set(ToolAuditStatusSchema.options);
const DECISIONS: ReadonlySet<unknown> = new Set(ApprovalDecisionSchema.options);

function checkPatch(p: ToolCallPatch): void {
  if (p.status !== undefined && !STATUSES.has(p.status)) {
    throw new StoreError("INVALID_ARGUMENT", `unknown tool status ${String(p.status)}`);
  }
  if (p.approvalDecision !== undefined && !DECISIONS.has(p.approvalDecision)) {
    throw new StoreError("INVALID_ARGUMENT", `unknown approval decision ${String(p.approvalDecision)}`);
  }
}

const INSERT_SQL = `INSERT INTO tool_calls (session_id, tool_call_id, tool_name, args, status, duration_ms, error_code, output_bytes,
    approval_decision, decided_by, decided_at, decided_by_rule, hunk_decisions, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

function insertValues(ctx: StoreContext, input: ToolCallInput): unknown[] {
  checkPatch(input);
  let args: string;
  try {
    args = JSON.stringify(input.args ?? {});
  } catch (e) {
    throw new StoreError("INVALID_ARGUMENT", `tool arguments are not JSON-serialisable: ${String(e)}`);
  }
  const now = ctx.now();
  return [
    input.sessionId,
    input.toolCallId,
    input.toolName,
    args,
    input.status,
    input.durationMs ?? null,
    input.errorCode ?? null,
    input.outputBytes ?? null,
    input.approvalDecision ?? null,
    input.decidedBy ?? null,
    input.decidedAt ?? null,
    input.decidedByRule ? JSON.stringify(input.decidedByRule) : null,
    input.hunkDecisions ? JSON.stringify(input.hunkDecisions) : null,
    now,
    now,
  ];
}

function isForeignKeyFailure(e: unknown): boolean {
  return typeof e === "object" && e !== null && "code" in e && e.code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}

export function recordToolCall(ctx: StoreContext, input: ToolCallInput): ToolCallRecord {
  const values = insertValues(ctx, input);
  const exists = ctx.stmt(`SELECT 1 FROM sessions WHERE id = ?`).get(input.sessionId);
  if (exists === undefined) throw new StoreError("NOT_FOUND", `no session ${input.sessionId}`);
  const row = ctx.stmt(`${INSERT_SQL} RETURNING *`).get(...values) as ToolCallRow;
  return toRecord(row);
}

/**
 * `recordToolCall` for the agent loop, which does not need the row back: one
 * INSERT, the session's existence checked by the foreign key.
 */
export function addToolCall(ctx: StoreContext, input: ToolCallInput): void {
  const values = insertValues(ctx, input);
  try {
    ctx.stmt(INSERT_SQL).run(...values);
  } catch (e) {
    if (isForeignKeyFailure(e)) throw new StoreError("NOT_FOUND", `no session ${input.sessionId}`);
    throw e;
  }
}

const UPDATE_SQL = `UPDATE tool_calls SET status = coalesce(?, status), duration_ms = coalesce(?, duration_ms),
    error_code = coalesce(?, error_code), output_bytes = coalesce(?, output_bytes),
    approval_decision = coalesce(?, approval_decision), decided_by = coalesce(?, decided_by),
    decided_at = coalesce(?, decided_at), decided_by_rule = coalesce(?, decided_by_rule),
    hunk_decisions = coalesce(?, hunk_decisions), updated_at = ?
  WHERE id = (SELECT max(id) FROM tool_calls WHERE session_id = ? AND tool_call_id = ?)`;

function updateValues(ctx: StoreContext, sessionId: string, toolCallId: string, patch: ToolCallPatch): unknown[] {
  checkPatch(patch);
  return [
    patch.status ?? null,
    patch.durationMs ?? null,
    patch.errorCode ?? null,
    patch.outputBytes ?? null,
    patch.approvalDecision ?? null,
    patch.decidedBy ?? null,
    patch.decidedAt ?? null,
    patch.decidedByRule ? JSON.stringify(patch.decidedByRule) : null,
    patch.hunkDecisions ? JSON.stringify(patch.hunkDecisions) : null,
    ctx.now(),
    sessionId,
    toolCallId,
  ];
}

/** `updateToolCall` without reading the row back. */
export function patchToolCall(ctx: StoreContext, sessionId: string, toolCallId: string, patch: ToolCallPatch): void {
  const { changes } = ctx.stmt(UPDATE_SQL).run(...updateValues(ctx, sessionId, toolCallId, patch));
  if (changes === 0) throw new StoreError("NOT_FOUND", `no tool call ${JSON.stringify(toolCallId)} in session ${sessionId}`);
}

/** Sets the given fields (omitted ones stay) on the latest row for this call id. */
export function updateToolCall(ctx: StoreContext, sessionId: string, toolCallId: string, patch: ToolCallPatch): ToolCallRecord {
  const row = ctx.stmt(`${UPDATE_SQL} RETURNING *`).get(...updateValues(ctx, sessionId, toolCallId, patch)) as ToolCallRow | undefined;
  if (row === undefined) throw new StoreError("NOT_FOUND", `no tool call ${JSON.stringify(toolCallId)} in session ${sessionId}`);
  return toRecord(row);
}

/** In the order the calls were recorded. */
export function listToolCalls(ctx: StoreContext, sessionId: string): ToolCallRecord[] {
  const rows = ctx.stmt(`SELECT * FROM tool_calls WHERE session_id = ? ORDER BY id`).all(sessionId) as ToolCallRow[];
  return rows.map(toRecord);
}

/** Marks the latest audit row of each call as aborted unless it already reached a final status. */
export function abortOpenToolCalls(ctx: StoreContext, sessionId: string, toolCallIds: readonly string[]): void {
  const terminal = TERMINAL_TOOL_STATUSES.map((s) => `'${s}'`).join(", ");
  const stmt = ctx.stmt(
    `UPDATE tool_calls SET status = 'aborted', error_code = coalesce(error_code, 'ABORTED'), updated_at = ?
     WHERE id = (SELECT max(id) FROM tool_calls WHERE session_id = ? AND tool_call_id = ?) AND status NOT IN (${terminal})`,
  );
  for (const id of toolCallIds) stmt.run(ctx.now(), sessionId, id);
}
