/**
 * The tool-call audit writer: one `tool_calls` row per call, moved through
 * proposed → approved/denied → running → finished. It never catches: inside
 * an entry's transaction a failed audit write rolls the entry back too, and
 * the loop reports it on that call (docs/approvals.md).
 */
import type { ToolAuditEvent } from "../agent/ports";
import type { SessionStore } from "../store";

export class ToolAudit {
  /** Tool calls with an audit row in this process, per session (avoids a lookup per update). */
  private readonly audited = new Map<string, Set<string>>();

  constructor(private readonly store: SessionStore) {}

  write(sessionId: string, event: ToolAuditEvent, at: number): void {
    const { store } = this;
    let seen = this.audited.get(sessionId);
    if (!seen) this.audited.set(sessionId, (seen = new Set()));
    const known = seen.has(event.toolCallId);
    // Ids may repeat across turns: a finished call frees its id for a new row.
    if (event.kind === "finished") seen.delete(event.toolCallId);
    else seen.add(event.toolCallId);
    switch (event.kind) {
      case "proposed":
      case "running":
        if (known) store.patchToolCall(sessionId, event.toolCallId, { status: event.kind });
        else store.addToolCall({ sessionId, toolCallId: event.toolCallId, toolName: event.toolName, args: event.args, status: event.kind });
        break;
      case "decided": {
        if (!known) store.addToolCall({ sessionId, toolCallId: event.toolCallId, toolName: event.toolName, args: {}, status: "proposed" });
        const decision = event.decision as "approved" | "approvedForSession" | "denied" | "autoApproved" | "autoDenied";
        const denied = decision === "denied" || decision === "autoDenied";
        store.patchToolCall(sessionId, event.toolCallId, {
          status: denied ? "denied" : "approved",
          approvalDecision: decision,
          decidedBy: event.decidedBy,
          decidedAt: at,
          ...(event.rules ? { decidedByRule: event.rules } : {}),
          ...(event.hunks ? { hunkDecisions: event.hunks } : {}),
        });
        break;
      }
      case "finished": {
        const patch = { status: event.status, durationMs: event.durationMs, errorCode: event.errorCode, outputBytes: event.outputBytes };
        if (known) store.patchToolCall(sessionId, event.toolCallId, patch);
        else store.addToolCall({ sessionId, toolCallId: event.toolCallId, toolName: event.toolName, args: event.args, ...patch });
        break;
      }
    }
  }
}
