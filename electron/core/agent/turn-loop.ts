/**
 * The tool loop of one turn: request, store the answer, run its tool calls,
 * repeat until the model stops, a limit is reached, the user aborts or an
 * error ends the turn (docs/architecture.md#compaction-and-budgets).
 *
 * Before every request the limits are checked (a reached limit gets one final
 * request without tools for a summary, marked with the limit) and the
 * context is compacted when the next request would pass the model's
 * threshold; a provider's overflow report compacts and retries, at most
 * MAX_OVERFLOW_RECOVERIES times in a row. Never throws for runtime failures.
 */
import { compactionThreshold } from "../../../shared/models";
import type { AssistantMessage, ToolCall, TurnLimitHit } from "../../../shared/protocol";
import type { CompactionTrigger } from "./compaction";
import { AGENT_NOTE_PREFIX } from "./context";
import type { AgentDeps, ResolvedModel } from "./ports";
import { requestWithRetries, type RequestHost } from "./request-stream";
import type { SessionJournal } from "./session-journal";
import type { TurnCaps } from "./turn-caps";

export const CONTINUE_PROMPT = `${AGENT_NOTE_PREFIX}Your last response was cut off at the output token limit. Continue from where you stopped, or wrap up briefly.`;

/** The prompt of the final request a turn makes at a limit (no tools are offered with it). */
export function limitPrompt(hit: TurnLimitHit): string {
  return `${AGENT_NOTE_PREFIX}This turn reached ${hit.detail} and stops after this answer. Tools are no longer available. Reply with a short summary of where the work stands: what is done, what is left, and what to do next.`;
}

/** Overflow reports answered by compacting and retrying, in a row, before the turn gives up. */
export const MAX_OVERFLOW_RECOVERIES = 3;

const TOOL_BUDGET_CODE = "TOOL_BUDGET_EXCEEDED";

export interface LoopHost {
  readonly deps: AgentDeps;
  readonly sessionId: string;
  readonly journal: SessionJournal;
  readonly budget: TurnCaps;
  /** The session's current model, or null after failing the turn (no model, no key). */
  resolveModel(): ResolvedModel | null;
  /** The request of this turn, with the session's tools or none (the final summary). */
  requestHost(withTools: boolean): RequestHost;
  /** The estimated size of the next request. */
  nextRequestTokens(resolved: ResolvedModel, withTools: boolean): number;
  /** Compacts; false when the turn must end (it failed, could not help, or the user chose to stop). */
  compact(resolved: ResolvedModel, signal: AbortSignal, trigger: CompactionTrigger): Promise<boolean>;
  /** A "Compact now" the user asked for during the turn (taken once). */
  takeCompactRequest(): boolean;
  /** Runs the calls of `message`; false when the turn must end. */
  runTools(message: AssistantMessage, calls: ToolCall[], signal: AbortSignal): Promise<boolean>;
  /** Stores messages typed during the turn; true when there were some. */
  deliverQueued(): boolean;
  /** Announces the context meter for the next request. */
  announceContext(resolved: ResolvedModel, tokens: number): void;
  failTurn(message: string): void;
}

export async function runTurnLoop(host: LoopHost, signal: AbortSignal): Promise<void> {
  const { deps, sessionId, journal, budget } = host;
  let askedToContinue = false;
  let overflows = 0;
  for (;;) {
    if (signal.aborted) return;
    const resolved = host.resolveModel();
    if (!resolved) return;
    const hit = budget.reached();
    if (hit) return finalRequest(host, hit, signal);
    if (!(await prepareRequest(host, resolved, signal, true))) return;

    const message = await requestWithRetries(host.requestHost(true), resolved, signal, () => overflows < MAX_OVERFLOW_RECOVERIES);
    budget.charge({ roundTrips: 1, costUsd: message === "compactAndRetry" ? 0 : message.usage.cost.total });
    if (message === "compactAndRetry") {
      overflows++;
      // The provider counted more than the estimate allowed for: estimate more from now on.
      journal.ledger.underestimated();
      if (!(await host.compact(resolved, signal, "overflow"))) return;
      continue;
    }
    overflows = 0;
    journal.appendMessage(message);
    const calls = toolCalls(message);

    if (message.stopReason === "aborted") {
      journal.appendSynthesized(calls, "aborted", "aborted: the user stopped the turn before this tool call ran");
      return;
    }
    if (message.stopReason === "error") {
      journal.appendSynthesized(calls, "error", "error: the response failed before this tool call could run");
      deps.emit("turn.error", { sessionId, message: message.errorMessage ?? "the provider returned an error" });
      return;
    }

    if (calls.length > 0) {
      if (!(await host.runTools(message, calls, signal))) return;
      const refused = toolBudgetRefusal(journal, calls.length);
      if (refused !== null) budget.noteToolBudget(refused);
      host.deliverQueued();
      continue;
    }

    if (message.stopReason === "length" && !askedToContinue) {
      askedToContinue = true;
      journal.appendMessage({ role: "user", content: [{ type: "text", text: CONTINUE_PROMPT }], timestamp: deps.now() });
      continue;
    }
    if (host.deliverQueued()) continue;
    return;
  }
}

/**
 * Before a request: a compaction the user asked for, then one when the next
 * request would pass the model's threshold; the meter is announced. False
 * when the turn must end (a compaction failed, or the request cannot fit).
 */
async function prepareRequest(host: LoopHost, resolved: ResolvedModel, signal: AbortSignal, withTools: boolean): Promise<boolean> {
  if (host.takeCompactRequest() && !(await host.compact(resolved, signal, "manual"))) return false;
  let tokens = host.nextRequestTokens(resolved, withTools);
  if (tokens > compactionThreshold(resolved.model)) {
    if (!(await host.compact(resolved, signal, "threshold"))) return false;
    tokens = host.nextRequestTokens(resolved, withTools);
  }
  host.announceContext(resolved, tokens);
  const window = resolved.model.contextWindow;
  if (tokens > window) {
    host.failTurn(
      `The conversation (about ${tokens} tokens) does not fit the ${window}-token window of ${resolved.model.name}, even after compaction. Switch to a model with a larger window, or start a new session.`,
    );
    return false;
  }
  return true;
}

/** The one request a turn makes at a limit: no tools, a summary of where it stands, marked with the limit. */
async function finalRequest(host: LoopHost, hit: TurnLimitHit, signal: AbortSignal): Promise<void> {
  const { deps, journal, budget } = host;
  journal.appendMessage({ role: "user", content: [{ type: "text", text: limitPrompt(hit) }], timestamp: deps.now() });
  const resolved = host.resolveModel();
  if (!resolved || !(await prepareRequest(host, resolved, signal, false))) return;
  const answer = await requestWithRetries(host.requestHost(false), resolved, signal, () => false);
  if (answer === "compactAndRetry") return;
  budget.charge({ roundTrips: 1, costUsd: answer.usage.cost.total });
  const message: AssistantMessage = { ...answer, limit: hit };
  journal.appendMessage(message);
  // Without tools on offer there should be no call; any that came anyway is answered, not run.
  const calls = toolCalls(message);
  if (message.stopReason === "aborted") journal.appendSynthesized(calls, "aborted", "aborted: the user stopped the turn");
  else journal.appendSynthesized(calls, "error", `not run: this turn reached ${hit.detail}`);
  if (message.stopReason === "error") {
    deps.emit("turn.error", { sessionId: host.sessionId, message: message.errorMessage ?? "the provider returned an error" });
  }
}

function toolCalls(message: AssistantMessage): ToolCall[] {
  return message.content.filter((b): b is ToolCall => b.type === "toolCall");
}

/** The limit named by a tool-budget refusal among the batch's `count` results (the newest messages), or null. */
function toolBudgetRefusal(journal: SessionJournal, count: number): string | null {
  const history = journal.history;
  for (let i = Math.max(0, history.length - count); i < history.length; i++) {
    const m = history[i];
    if (m.role !== "toolResult" || !m.isError) continue;
    const details = m.details as { errorCode?: unknown } | undefined;
    if (details?.errorCode !== TOOL_BUDGET_CODE) continue;
    const text = m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    return /\(limit: ([^)]+)\)/.exec(text)?.[1] ?? "used up";
  }
  return null;
}
