/**
 * One batch of tool calls from an assistant message, in the model's order:
 * consecutive read-only calls in parallel, each side-effect call on its own
 * through proposal → approval → execution (the calls after it wait for it),
 * each result stored with its audit row (both or neither), and
 * checkpoints around side effects (docs/checkpoints.md). Every call gets
 * exactly one stored result, also when the turn is aborted or the store
 * fails (docs/architecture.md#invariants).
 */
import type { SessionMode } from "../../../shared/api";
import type { ToolCall, ToolResultMessage } from "../../../shared/protocol";
import { errors, failure } from "../tools/errors";
import type { ToolOutcome } from "../tools/types";
import type { ApprovalAnswer, ApprovalGate } from "./approval-gate";
import type { AgentDeps } from "./ports";
import { errorText, type SessionJournal } from "./session-journal";

export interface ToolBatchHost {
  readonly deps: AgentDeps;
  readonly sessionId: string;
  readonly journal: SessionJournal;
  readonly gate: ApprovalGate;
  /** Read per call: Ask mode switched on mid-batch refuses the calls that follow. */
  mode(): SessionMode;
  /** Records the "before the first side effect" checkpoint once per turn. */
  checkpointTurnStart(toolCallId: string): Promise<void>;
}

type Status = "done" | "error" | "aborted" | "denied";

/** Runs the batch. Returns false when the turn must end (aborted, or a result could not be stored). */
export async function runToolBatch(host: ToolBatchHost, calls: ToolCall[], signal: AbortSignal): Promise<boolean> {
  const { deps, sessionId, journal, gate } = host;
  // By call object, not id: a model may repeat an id within one message, and each call needs its own result.
  const done = new Set<ToolCall>();
  let failedWrite = false;

  /**
   * A tool result (or its approval) could not be stored with its audit row:
   * neither was kept. Say so on that call and for the turn, store an error
   * result in its place when the store still takes one, and stop the batch.
   */
  const storeFailed = (call: ToolCall, err: unknown) => {
    failedWrite = true;
    const message = `The result of ${call.name} could not be recorded (${errorText(err)}); it was not stored and the turn stopped.`;
    journal.tryAppendSynthesized([call], message);
    deps.emit("turn.error", { sessionId, message });
  };

  const finish = (call: ToolCall, outcome: ToolOutcome, status: Status, startedAt: number) => {
    if (done.has(call)) return;
    done.add(call);
    const result = deps.tools.toResultMessage(call, outcome, deps.now());
    const durationMs = deps.now() - startedAt;
    try {
      journal.append({ type: "message", message: result }, () =>
        deps.audit(sessionId, {
          kind: "finished",
          toolCallId: call.id,
          toolName: call.name,
          args: call.arguments,
          status,
          durationMs,
          errorCode: outcome.ok ? undefined : outcome.error.errorCode,
          outputBytes: byteLength(result),
        }),
      );
    } catch (err) {
      storeFailed(call, err);
      return;
    }
    deps.emit("tool.status", { sessionId, toolCallId: call.id, toolName: call.name, status, durationMs });
  };

  const runReadOnly = async (call: ToolCall) => {
    const startedAt = deps.now();
    deps.emit("tool.status", { sessionId, toolCallId: call.id, toolName: call.name, status: "running" });
    // Read-only calls get their audit row when they finish (one write instead of two).
    const outcome = await deps.tools.runReadOnly(call, signal);
    finish(call, outcome, statusOf(outcome), startedAt);
  };

  /** One side-effect call through proposal → approval → execution; false when the batch must stop. */
  const runSideEffect = async (call: ToolCall): Promise<boolean> => {
    const startedAt = deps.now();
    if (host.mode() === "ask") {
      finish(call, failure(errors.readOnlyMode(call.name)), "denied", startedAt);
      return true;
    }
    const proposed = await deps.tools.propose(call);
    if ("outcome" in proposed) {
      finish(call, proposed.outcome, statusOf(proposed.outcome), startedAt);
      return true;
    }
    const { proposal } = proposed;
    let answer: ApprovalAnswer;
    try {
      deps.audit(sessionId, { kind: "proposed", toolCallId: call.id, toolName: call.name, args: call.arguments });
      answer = await gate.approve(proposal, signal);
    } catch (err) {
      deps.tools.cancel(proposal);
      done.add(call);
      storeFailed(call, err);
      return false;
    }
    if (answer.decision === "aborted") {
      finish(call, deps.tools.cancel(proposal), "aborted", startedAt);
      return false;
    }
    if (answer.decision === "deny" || answer.decision === "denyAlways") {
      finish(call, deps.tools.deny(proposal, { reason: answer.reason?.trim() || undefined }), "denied", startedAt);
      return true;
    }
    if (!answer.byPolicy) {
      const sessionRule = answer.rule && answer.decision === "approveForSession" ? { rule: answer.rule } : {};
      // The review (accepted hunks / the user's edit) goes with any approval scope; the rule only decides later calls.
      deps.tools.approve(proposal, {
        forSession: answer.decision === "approveForSession",
        ...sessionRule,
        ...(answer.review ? { review: answer.review } : {}),
        ...(answer.decision === "approveUnsandboxed" ? { unsandboxed: true } : {}),
      });
    }
    deps.emit("tool.status", { sessionId, toolCallId: call.id, toolName: call.name, status: "running" });
    try {
      deps.audit(sessionId, { kind: "running", toolCallId: call.id, toolName: call.name, args: call.arguments });
    } catch (err) {
      // Not run: a call the audit cannot record does not happen.
      deps.tools.cancel(proposal);
      done.add(call);
      storeFailed(call, err);
      return false;
    }
    await host.checkpointTurnStart(call.id);
    const outcome = await deps.tools.execute(proposal, signal);
    finish(call, outcome, statusOf(outcome), startedAt);
    // After failures too: a command may have changed files before it failed or timed out.
    await deps.checkpoint?.(sessionId, { kind: "afterTool", seq: journal.lastSeq(), toolCallId: call.id });
    return true;
  };

  // In the model's order: a read after an edit of the same file sees the edit. Only a run of
  // consecutive read-only calls goes in parallel.
  for (let i = 0; i < calls.length && !signal.aborted && !failedWrite;) {
    if (deps.tools.isSideEffect(calls[i].name)) {
      if (!(await runSideEffect(calls[i++]))) break;
      continue;
    }
    const group: ToolCall[] = [];
    while (i < calls.length && !deps.tools.isSideEffect(calls[i].name)) group.push(calls[i++]);
    await Promise.all(group.map(runReadOnly));
  }

  if (failedWrite) {
    // The store refused a write: answer the remaining calls without running them, and end the turn.
    journal.tryAppendSynthesized(
      calls.filter((c) => !done.has(c)),
      "the turn stopped because a tool result could not be recorded",
    );
    return false;
  }
  const missing = calls.filter((c) => !done.has(c));
  if (missing.length > 0) journal.appendSynthesized(missing, "aborted", "aborted: the user stopped the turn before this tool call ran");
  return !signal.aborted;
}

function statusOf(outcome: ToolOutcome): Status {
  if (outcome.ok) return "done";
  if (outcome.error.errorCode === "ABORTED") return "aborted";
  return outcome.error.errorCode === "DENIED" ? "denied" : "error";
}

function byteLength(result: ToolResultMessage): number {
  let n = 0;
  for (const c of result.content) n += c.type === "text" ? Buffer.byteLength(c.text) : c.data.length;
  return n;
}
