/**
 * Audit events the runtime emits for every proposal, decision and outcome.
 * The agent loop stores them (SQLite); `approval` events map one to one onto
 * the protocol's ApprovalEntry.
 */
import type { HunkDecision } from "../../../shared/hunks";
import type { ApprovalDecision } from "../../../shared/protocol";
import type { PolicyAction, ProposalPreview, SideEffectTier, ToolErrorCode } from "./types";

export type AuditEvent =
  | {
      type: "proposal";
      toolCallId: string;
      toolName: string;
      args: Record<string, unknown>;
      preview: ProposalPreview;
      fingerprint?: string;
      timestamp: number;
    }
  | {
      /** What the policy said; `ask` means the user will be asked. */
      type: "policy";
      toolCallId: string;
      toolName: string;
      action: PolicyAction;
      rule: string;
      timestamp: number;
    }
  | {
      type: "approval";
      toolCallId: string;
      toolName: string;
      decision: ApprovalDecision;
      decidedBy: "user" | "policy";
      reason?: string;
      /** Per-hunk decisions when the user reviewed a write/edit hunk by hunk. */
      hunks?: HunkDecision[];
      /** The user edited the proposed text before approving. */
      edited?: boolean;
      /** The user chose to run this bash call outside the sandbox. */
      unsandboxed?: boolean;
      timestamp: number;
    }
  | { type: "sessionAllow"; toolName: string; rule: string; timestamp: number }
  | {
      type: "outcome";
      toolCallId: string;
      toolName: string;
      tier: SideEffectTier | null;
      ok: boolean;
      errorCode?: ToolErrorCode;
      durationMs: number;
      outputBytes: number;
      details?: Record<string, unknown>;
      timestamp: number;
    };

export type AuditSink = (event: AuditEvent) => void;
