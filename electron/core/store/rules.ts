/**
 * Saved approval rules of a workspace ("always allow" / "always deny"), kept
 * in the database, never in the workspace folder. See docs/approvals.md.
 */
import { randomUUID } from "node:crypto";
import type { ApprovalRule } from "../../../shared/api";
import type { StoreContext } from "./db";
import { StoreError } from "./errors";

export interface RuleInput {
  workspaceId: string;
  tool: ApprovalRule["tool"];
  action: ApprovalRule["action"];
  pattern: string;
}

interface RuleRow {
  id: string;
  tool: ApprovalRule["tool"];
  action: ApprovalRule["action"];
  pattern: string;
  created_at: number;
}

const toRule = (r: RuleRow): ApprovalRule => ({
  id: r.id,
  tool: r.tool,
  action: r.action,
  pattern: r.pattern,
  source: "workspace",
  createdAt: r.created_at,
});

export function listRules(ctx: StoreContext, workspaceId: string): ApprovalRule[] {
  const rows = ctx
    .stmt(`SELECT id, tool, action, pattern, created_at FROM approval_rules WHERE workspace_id = ? ORDER BY created_at, id`)
    .all(workspaceId) as RuleRow[];
  return rows.map(toRule);
}

function clean(pattern: string): string {
  const p = pattern.trim();
  if (p === "") throw new StoreError("INVALID_ARGUMENT", "a rule needs a pattern");
  return p;
}

/** Adds a rule; the same rule twice is stored once (the existing one is returned). */
export function addRule(ctx: StoreContext, input: RuleInput): ApprovalRule {
  const pattern = clean(input.pattern);
  const existing = ctx
    .stmt(
      `SELECT id, tool, action, pattern, created_at FROM approval_rules WHERE workspace_id = ? AND tool = ? AND action = ? AND pattern = ?`,
    )
    .get(input.workspaceId, input.tool, input.action, pattern) as RuleRow | undefined;
  if (existing) return toRule(existing);
  if (ctx.stmt(`SELECT 1 FROM workspaces WHERE id = ?`).get(input.workspaceId) === undefined) {
    throw new StoreError("NOT_FOUND", `no workspace ${input.workspaceId}`);
  }
  const row = ctx
    .stmt(
      `INSERT INTO approval_rules (id, workspace_id, tool, action, pattern, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id, tool, action, pattern, created_at`,
    )
    .get(randomUUID(), input.workspaceId, input.tool, input.action, pattern, ctx.now()) as RuleRow;
  return toRule(row);
}

export function updateRule(
  ctx: StoreContext,
  workspaceId: string,
  id: string,
  patch: { action?: ApprovalRule["action"]; pattern?: string },
): ApprovalRule {
  const pattern = patch.pattern === undefined ? null : clean(patch.pattern);
  try {
    const row = ctx
      .stmt(
        `UPDATE approval_rules SET action = coalesce(?, action), pattern = coalesce(?, pattern) WHERE workspace_id = ? AND id = ? RETURNING id, tool, action, pattern, created_at`,
      )
      .get(patch.action ?? null, pattern, workspaceId, id) as RuleRow | undefined;
    if (!row) throw new StoreError("NOT_FOUND", `no rule ${id} in this workspace`);
    return toRule(row);
  } catch (e) {
    if (typeof e === "object" && e !== null && "code" in e && e.code === "SQLITE_CONSTRAINT_UNIQUE") {
      throw new StoreError("INVALID_ARGUMENT", "the same rule already exists");
    }
    throw e;
  }
}

export function removeRule(ctx: StoreContext, workspaceId: string, id: string): boolean {
  return ctx.stmt(`DELETE FROM approval_rules WHERE workspace_id = ? AND id = ?`).run(workspaceId, id).changes > 0;
}
