/**
 * Approval of one side-effect proposal: the policy decides, or the user is
 * asked and the turn waits. Every decision is stored with its audit row
 * (both or neither); a rule the user picks must cover the call it answers
 * (docs/approvals.md). An approval of a write/edit may carry the user's
 * per-hunk review (docs/change-review.md), whatever its scope.
 */
import type { PendingApproval } from "../../../shared/api";
import type { ChangeReview } from "../../../shared/hunks";
import type { DecidingRule, SessionEntry } from "../../../shared/protocol";
import type { Proposal } from "../tools/types";
import type { AgentDeps } from "./ports";
import { errorText, type SessionJournal } from "./session-journal";

export type UserDecision = "approve" | "approveForSession" | "approveAlways" | "approveUnsandboxed" | "deny" | "denyAlways";

export type ApprovalAnswer =
  { decision: UserDecision; reason?: string; rule?: string; byPolicy?: boolean; review?: ChangeReview } | { decision: "aborted" };

/** The answer was refused: nothing is pending for that call, or the rule does not cover it. */
export type AnswerRefusal = { code: "CONFLICT" | "INVALID_REQUEST"; message: string };

/** A store write (an entry with its audit row) failed: nothing of it was kept. */
export class StoreWriteFailed extends Error {
  override name = "StoreWriteFailed";
}

interface Waiting {
  info: PendingApproval;
  proposal: Proposal;
  resolve(answer: ApprovalAnswer): void;
}

export class ApprovalGate {
  private waiting: Waiting | null = null;

  constructor(
    private readonly deps: AgentDeps,
    private readonly sessionId: string,
    private readonly journal: SessionJournal,
    /** The turn starts or stops waiting for the user (status and `turn.state`). */
    private readonly onWaiting: (waiting: boolean) => void,
  ) {}

  pending(): PendingApproval | null {
    return this.waiting?.info ?? null;
  }

  /** Stop: a waiting proposal is answered "aborted". */
  abort(): void {
    this.waiting?.resolve({ decision: "aborted" });
  }

  /** The turn ended: nothing waits any more. */
  clear(): void {
    this.waiting = null;
  }

  /**
   * Answers the pending approval. A `rule` (approve for the session, always
   * allow / deny) must cover the call it answers: a rule is checked here,
   * never silently widened or dropped. `review` (approvals of a write/edit
   * only): the decision per hunk, or the user's own text; refused when it does
   * not fit the pending proposal (wrong hunk count, or not a file change).
   */
  answer(toolCallId: string, decision: UserDecision, reason?: string, rule?: string, review?: ChangeReview): AnswerRefusal | null {
    const waiting = this.waiting;
    if (!waiting || waiting.info.toolCallId !== toolCallId)
      return { code: "CONFLICT", message: "no approval is pending for that tool call" };
    if (review) {
      const preview = waiting.info.preview;
      if (decision === "deny" || decision === "denyAlways")
        return { code: "INVALID_REQUEST", message: "a per-hunk review goes with an approval, not a denial" };
      if (preview.kind !== "diff") return { code: "INVALID_REQUEST", message: "a per-hunk review applies only to a write or edit" };
      // The client never had the whole text: an edit of it would write a part of the file as the whole.
      if (review.kind === "edited" && (preview.textsOmitted || preview.tooLarge))
        return { code: "INVALID_REQUEST", message: "this change is too large to edit before approving: approve or deny it" };
      if (review.kind === "hunks" && review.decisions.length !== (preview.hunks?.length ?? -1)) {
        return {
          code: "INVALID_REQUEST",
          message: `the review has ${review.decisions.length} hunk decisions; the proposal has ${preview.hunks?.length ?? 0} hunks`,
        };
      }
    }
    if (decision === "approveUnsandboxed") {
      const preview = waiting.info.preview;
      if (preview.kind !== "command" || preview.sandboxed !== true)
        return { code: "INVALID_REQUEST", message: "only a bash command that would run in the sandbox can be run unsandboxed" };
      if (review) return { code: "INVALID_REQUEST", message: "a per-hunk review applies only to a write or edit" };
    }
    // An MCP tool has no rules: "for the session" and "always" allow the tool itself.
    if (waiting.info.preview.kind === "mcp") {
      if (rule !== undefined) return { code: "INVALID_REQUEST", message: "an MCP tool is allowed as a whole: send no rule" };
      if (decision === "denyAlways") return { code: "INVALID_REQUEST", message: "an MCP tool can be denied once, not always" };
      waiting.resolve({ decision, reason });
      return null;
    }
    const scoped = decision === "approveForSession" || decision === "approveAlways" || decision === "denyAlways";
    if (rule !== undefined && !scoped)
      return { code: "INVALID_REQUEST", message: `a rule goes with approveForSession, approveAlways or denyAlways, not ${decision}` };
    if ((decision === "approveAlways" || decision === "denyAlways") && !rule?.trim())
      return { code: "INVALID_REQUEST", message: `${decision} needs the rule to save` };
    if (rule !== undefined) {
      const problem = this.deps.tools.checkRule(waiting.proposal, rule, decision === "denyAlways" ? "deny" : "allow");
      if (problem) return { code: "INVALID_REQUEST", message: problem };
    }
    waiting.resolve({ decision, reason, ...(rule !== undefined ? { rule: rule.trim() } : {}), ...(review ? { review } : {}) });
    return null;
  }

  /** Applies the policy; asks the user when it says "ask". Stores the decision (throws StoreWriteFailed when it cannot). */
  async approve(proposal: Proposal, signal: AbortSignal): Promise<ApprovalAnswer> {
    const { deps, sessionId } = this;
    const verdict = deps.tools.decide(proposal);
    const base = { type: "approval" as const, toolCallId: proposal.toolCallId, toolName: proposal.toolName, timestamp: deps.now() };
    const rules = verdict.rules ? { rules: verdict.rules } : {};
    if (verdict.action === "allow") {
      this.record(proposal, { ...base, decision: "autoApproved", decidedBy: "policy", ...rules });
      return { decision: "approve", byPolicy: true };
    }
    if (verdict.action === "deny") {
      this.record(proposal, { ...base, decision: "autoDenied", decidedBy: "policy", ...rules });
      return { decision: "deny", byPolicy: true };
    }
    if (signal.aborted) return { decision: "aborted" };
    const suggested = deps.tools.suggestRules(proposal);
    let answer = await new Promise<ApprovalAnswer>((resolve) => {
      this.waiting = {
        info: {
          sessionId,
          toolCallId: proposal.toolCallId,
          toolName: proposal.toolName,
          args: proposal.args,
          preview: proposal.preview,
          suggestedRules: suggested,
        },
        proposal,
        resolve,
      };
      deps.emit("tool.status", { sessionId, toolCallId: proposal.toolCallId, toolName: proposal.toolName, status: "awaitingApproval" });
      this.onWaiting(true);
    });
    this.waiting = null;
    this.onWaiting(false);
    const now = deps.now();
    if (answer.decision === "aborted") return answer;
    const tool = proposal.toolName as "bash" | "write" | "edit" | "webfetch";
    let chosen: { rules: DecidingRule[] } | Record<string, never> = {};
    if (answer.decision === "approveAlways" && proposal.preview.kind === "mcp") {
      deps.allowToolAlways?.(proposal.toolName);
    } else if (answer.decision === "approveAlways" || answer.decision === "denyAlways") {
      const action = answer.decision === "approveAlways" ? "allow" : "deny";
      const pattern = answer.rule ?? "";
      deps.saveRule?.({ tool, action, pattern });
      chosen = { rules: [{ tool, action, pattern, source: "workspace" }] };
    } else if (answer.decision === "approveForSession") {
      // Without a rule from the card: the exact call, when a rule can name it (else it is approved once).
      const pattern = answer.rule ?? suggested[0];
      if (pattern) {
        answer = { ...answer, rule: pattern };
        chosen = { rules: [{ tool, action: "allow", pattern, source: "session" }] };
      }
    }
    const denied = answer.decision === "deny" || answer.decision === "denyAlways";
    this.record(proposal, {
      ...base,
      timestamp: now,
      decision: answer.decision === "approveForSession" ? "approvedForSession" : denied ? "denied" : "approved",
      decidedBy: "user",
      reason: denied ? answer.reason : undefined,
      ...chosen,
      ...(answer.review?.kind === "hunks" ? { hunks: answer.review.decisions } : {}),
      ...(answer.review?.kind === "edited" ? { edited: true } : {}),
      ...(answer.decision === "approveUnsandboxed" ? { unsandboxed: true } : {}),
    });
    return answer;
  }

  private record(proposal: Proposal, decision: SessionEntry & { type: "approval" }): void {
    try {
      this.journal.append(decision, () =>
        this.deps.audit(this.sessionId, {
          kind: "decided",
          toolCallId: proposal.toolCallId,
          toolName: proposal.toolName,
          decision: decision.decision,
          decidedBy: decision.decidedBy,
          reason: decision.reason,
          rules: decision.rules,
          ...(decision.hunks ? { hunks: decision.hunks } : {}),
          ...(decision.edited ? { edited: true } : {}),
          ...(decision.unsandboxed ? { unsandboxed: true } : {}),
        }),
      );
    } catch (err) {
      throw new StoreWriteFailed(errorText(err));
    }
  }
}
