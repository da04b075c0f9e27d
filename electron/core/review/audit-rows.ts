/**
 * The audit fields review needs, satisfied both by the store's ToolCallRecord
 * and by an exported tool-call row, plus matching rows to stored results.
 */
import type { ApprovalDecision } from "../../../shared/protocol";

export interface AuditRow {
  toolCallId: string;
  toolName: string;
  args: unknown;
  status: string;
  durationMs: number | null;
  errorCode: string | null;
  approvalDecision: ApprovalDecision | null;
  createdAt: number;
}

/**
 * Hands out audit rows to tool results in order. Tool-call ids are opaque and
 * may repeat across turns, so rows are queued per id; a result takes the
 * first unused row recorded no later than itself (or, failing that, the first
 * unused one: clocks of imported rows may differ).
 */
export class AuditMatcher {
  private readonly byId = new Map<string, AuditRow[]>();

  constructor(rows: readonly AuditRow[]) {
    for (const row of rows) {
      const list = this.byId.get(row.toolCallId);
      if (list) list.push(row);
      else this.byId.set(row.toolCallId, [row]);
    }
  }

  take(toolCallId: string, at: number): AuditRow | null {
    const list = this.byId.get(toolCallId);
    if (!list || list.length === 0) return null;
    let i = list.findIndex((r) => r.createdAt <= at);
    if (i < 0) i = 0;
    const [row] = list.splice(i, 1);
    return row;
  }
}
