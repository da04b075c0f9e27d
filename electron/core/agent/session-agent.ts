/**
 * The agent loop for one session.
 *
 * Contract: `send`, `abort`, `answerApproval` and `switchModel` never throw for
 * runtime failures. Every message is appended to the store when it completes;
 * every tool call in a stored assistant message gets exactly one stored result
 * (invariant 1), including calls of errored and aborted turns. After any turn
 * (stop, error, abort) the session is idle and accepts the next message.
 */
import { COMPACT_AT_SHARE } from "../../../shared/models";
import type { PendingApproval, SessionMode, TurnState } from "../../../shared/api";
import type {
  AssistantMessage,
  DecidingRule,
  ImageContent,
  Message,
  ModelRef,
  ReasoningLevel,
  SessionEntry,
  StoredEntry,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "../../../shared/protocol";
import type { LlmContext, ToolSpec } from "../providers/types";
import { errors, failure } from "../tools/errors";
import type { Proposal, ToolOutcome } from "../tools/types";
import { historyForModel, estimateTokens } from "./context";
import { NO_INSTRUCTIONS, touchedPaths, type LoadedInstructions } from "./instructions";
import { compactHistory } from "./compaction";
import type { AgentDeps, ResolvedModel } from "./ports";
import { MAX_RETRIES, abortableDelay, retryDelayMs } from "./retry";
import { buildSystemPrompt } from "./system-prompt";

const PARTIAL_EMIT_INTERVAL_MS = 33;
export const CONTINUE_PROMPT =
  "[Agent Workbench] Your last response was cut off at the output token limit. Continue from where you stopped, or wrap up briefly.";

export type UserDecision = "approve" | "approveForSession" | "approveAlways" | "deny" | "denyAlways";

const EMPTY_USAGE: AssistantMessage["usage"] = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
/** The model an error entry names when the session has none (no model configured at all). */
const NO_MODEL: ModelRef = { provider: "none", api: "anthropic-messages", id: "none" };

type ApprovalAnswer =
  | { decision: UserDecision; reason?: string; rule?: string; byPolicy?: boolean }
  | { decision: "aborted" };

/** The answer was refused: nothing is pending for that call, or the rule does not cover it. */
export type AnswerRefusal = { code: "CONFLICT" | "INVALID_REQUEST"; message: string };

/** A store write (an entry with its audit row) failed: nothing of it was kept. */
class StoreWriteFailed extends Error {
  override name = "StoreWriteFailed";
}

interface PendingApprovalState {
  info: PendingApproval;
  proposal: Proposal;
  resolve(answer: ApprovalAnswer): void;
}

export class SessionAgent {
  private status: TurnState["status"] = "idle";
  private readonly queue: UserMessage[] = [];
  private controller: AbortController | null = null;
  private pending: PendingApprovalState | null = null;
  private entries: StoredEntry[];
  /** `historyForModel(this.entries)`, kept in step by `append` (one push per message, not a walk per request). */
  private history: Message[];
  /** The turn's tool specs and the system prompt built from them (rebuilt when the date changes). */
  private turnTools: ToolSpec[] | null = null;
  private prompt: { date: string; tools: ToolSpec[]; instructions: string; mode: SessionMode; text: string } | null = null;
  private running: Promise<void> | null = null;
  /** Files the session's read/write/edit calls named: their folders' AGENTS.md join the prompt. */
  private readonly touched: Set<string>;
  private instructions: LoadedInstructions = NO_INSTRUCTIONS;
  private instructionsFor: string | null = null;
  /** Whether this turn already recorded its "before the first side effect" checkpoint. */
  private turnCheckpointed = false;

  constructor(
    private readonly deps: AgentDeps,
    readonly sessionId: string,
    private model: ModelRef | null,
    private reasoning: ReasoningLevel = "default",
    private mode: SessionMode = "agent",
  ) {
    this.entries = deps.store.loadEntries(sessionId);
    this.history = historyForModel(this.entries);
    this.touched = new Set(touchedPaths(this.entries));
  }

  // ------------------------------------------------------------ public API

  turnState(): TurnState {
    return {
      sessionId: this.sessionId,
      mode: this.mode,
      status: this.status,
      queued: this.queue.map((m) => textOf(m)),
      pendingApproval: this.pending?.info ?? null,
    };
  }

  currentModel(): ModelRef | null {
    return this.model;
  }

  /** Sends a user message; queued when a turn is running. */
  send(text: string, images: ImageContent[] = [], attachments: { type: "text"; text: string }[] = []): { queued: boolean } {
    const message: UserMessage = {
      role: "user",
      content: [...(text ? [{ type: "text" as const, text }] : []), ...attachments, ...images],
      timestamp: this.deps.now(),
    };
    if (this.status !== "idle") {
      this.queue.push(message);
      this.emitState();
      return { queued: true };
    }
    this.running = this.runTurn(message).finally(() => {
      this.running = null;
    });
    return { queued: false };
  }

  /** Resolves when the current turn (if any) has finished. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  abort(): void {
    this.queue.length = 0;
    this.controller?.abort();
    this.pending?.resolve({ decision: "aborted" });
  }

  /**
   * Answers the pending approval. A `rule` (approve for the session, always
   * allow / deny) must cover the call it answers: a rule is checked here,
   * never silently widened or dropped.
   */
  answerApproval(toolCallId: string, decision: UserDecision, reason?: string, rule?: string): AnswerRefusal | null {
    const pending = this.pending;
    if (!pending || pending.info.toolCallId !== toolCallId) return { code: "CONFLICT", message: "no approval is pending for that tool call" };
    const scoped = decision === "approveForSession" || decision === "approveAlways" || decision === "denyAlways";
    if (rule !== undefined && !scoped) return { code: "INVALID_REQUEST", message: `a rule goes with approveForSession, approveAlways or denyAlways, not ${decision}` };
    if ((decision === "approveAlways" || decision === "denyAlways") && !rule?.trim()) return { code: "INVALID_REQUEST", message: `${decision} needs the rule to save` };
    if (rule !== undefined) {
      const problem = this.deps.tools.checkRule(pending.proposal, rule, decision === "denyAlways" ? "deny" : "allow");
      if (problem) return { code: "INVALID_REQUEST", message: problem };
    }
    pending.resolve({ decision, reason, ...(rule !== undefined ? { rule: rule.trim() } : {}) });
    return null;
  }

  /** Ask mode on or off; during a running turn it applies from the next request and tool batch. */
  setMode(mode: SessionMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    const last = this.entries[this.entries.length - 1];
    this.deps.onModeChanged?.(this.sessionId, mode, last?.seq ?? 0);
    this.emitState();
  }

  currentMode(): SessionMode {
    return this.mode;
  }

  /** The instruction files in the last system prompt (loads them when no turn has yet). */
  async instructionFiles(): Promise<LoadedInstructions["files"]> {
    await this.refreshInstructions();
    return this.instructions.files;
  }

  private async refreshInstructions(): Promise<void> {
    if (!this.deps.instructions) return;
    const key = [...this.touched].join("\u0000");
    if (key === this.instructionsFor) return;
    this.instructions = await this.deps.instructions([...this.touched]).catch(() => NO_INSTRUCTIONS);
    this.instructionsFor = key;
  }

  /** The `/compact` command: summarises the conversation now, outside a turn. */
  async compactNow(): Promise<{ ok: true } | { ok: false; error: string }> {
    if (this.status !== "idle") return { ok: false, error: "a turn is running; compact when it has finished" };
    const resolved = this.resolveCurrentModel();
    if (!resolved) return { ok: false, error: "no usable model for the summary" };
    const controller = new AbortController();
    this.controller = controller;
    this.status = "running";
    this.emitState();
    const work = this.compact(resolved, controller.signal);
    this.running = work.then(
      () => undefined,
      () => undefined,
    );
    try {
      return (await work) ? { ok: true } : { ok: false, error: "compaction failed (see the error in the transcript)" };
    } catch (err) {
      return { ok: false, error: errorText(err) };
    } finally {
      this.running = null;
      this.controller = null;
      this.status = "idle";
      this.emitState();
      this.deps.emit("stream.end", { sessionId: this.sessionId });
    }
  }

  /** Switches the model; during a running turn it applies from the next request. */
  switchModel(to: ModelRef): void {
    const from = this.model;
    if (from && from.provider === to.provider && from.api === to.api && from.id === to.id) return;
    this.model = to;
    // Before the first message a switch just sets the model: a marker with nothing before it is noise in replay.
    if (this.entries.some((e) => e.entry.type === "message")) {
      this.append({ type: "modelSwitch", from, to, timestamp: this.deps.now() });
    }
    this.deps.onModelChanged(this.sessionId, to);
  }

  /** Sets the reasoning level (a marker in the transcript); during a running turn it applies from the next request. */
  setReasoning(to: ReasoningLevel): void {
    const from = this.reasoning;
    if (from === to) return;
    this.reasoning = to;
    this.append({ type: "reasoningChange", from, to, timestamp: this.deps.now() });
    this.deps.onReasoningChanged?.(this.sessionId, to);
  }

  // ------------------------------------------------------------ the turn

  private async runTurn(first: UserMessage): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.status = "running";
    this.emitState();
    this.appendMessage(first);
    try {
      // MCP servers still starting, and the AGENTS.md files (read again each turn: the user may have edited them).
      await this.deps.prepareTools?.();
      this.instructionsFor = null;
      await this.refreshInstructions();
      this.deps.tools.beginTurn();
      this.turnCheckpointed = false;
      // The runtime, and so its specs, stay the same for the whole turn.
      this.turnTools = this.deps.tools.specs();
      await this.loop(controller.signal);
    } catch (err) {
      // A bug in the loop must not take the host down; store it as the turn's outcome, show it and go idle.
      this.failTurn(`internal error: ${errorText(err)}`);
    } finally {
      this.pending = null;
      this.controller = null;
      this.status = "idle";
      this.emitState();
      this.deps.emit("stream.end", { sessionId: this.sessionId });
    }
    // Messages that arrived after the last request of the turn start a new turn.
    const next = this.queue.shift();
    if (next) {
      this.running = this.runTurn(next);
      await this.running;
    }
  }

  private async loop(signal: AbortSignal): Promise<void> {
    let compactedThisTurn = false;
    let askedToContinue = false;
    for (;;) {
      if (signal.aborted) return;
      const resolved = this.resolveCurrentModel();
      if (!resolved) return;

      if (!compactedThisTurn && this.contextTokens() > resolved.model.contextWindow * COMPACT_AT_SHARE) {
        compactedThisTurn = true;
        if (!(await this.compact(resolved, signal))) return;
      }

      const message = await this.requestWithRetries(resolved, signal, () => {
        if (compactedThisTurn) return false;
        compactedThisTurn = true;
        return true;
      });
      if (message === "compactAndRetry") {
        if (!(await this.compact(resolved, signal))) return;
        continue;
      }
      this.appendMessage(message);
      const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");

      if (message.stopReason === "aborted") {
        this.appendSynthesized(calls, "aborted", "aborted: the user stopped the turn before this tool call ran");
        return;
      }
      if (message.stopReason === "error") {
        this.appendSynthesized(calls, "error", "error: the response failed before this tool call could run");
        this.deps.emit("turn.error", { sessionId: this.sessionId, message: message.errorMessage ?? "the provider returned an error" });
        return;
      }

      if (calls.length > 0) {
        const before = this.touched.size;
        for (const path of touchedPaths([{ seq: 0, entry: { type: "message", message } }])) this.touched.add(path);
        const finished = await this.runTools(calls, signal);
        // A file in a new folder: that folder's AGENTS.md applies from the next request.
        if (this.touched.size !== before) await this.refreshInstructions();
        if (!finished) return;
        this.deliverQueued();
        continue;
      }

      if (message.stopReason === "length") {
        if (!compactedThisTurn && this.contextTokens() > resolved.model.contextWindow * 0.7) {
          compactedThisTurn = true;
          if (!(await this.compact(resolved, signal))) return;
          continue;
        }
        if (!askedToContinue) {
          askedToContinue = true;
          this.appendMessage({ role: "user", content: [{ type: "text", text: CONTINUE_PROMPT }], timestamp: this.deps.now() });
          continue;
        }
      }
      if (this.deliverQueued()) continue;
      return;
    }
  }

  /**
   * Tokens the next request will carry: the provider's own count from the
   * last response (input + cache + output) plus an estimate for what came
   * after it; a character estimate when there is no usable usage yet.
   */
  private contextTokens(): number {
    const history = this.history;
    for (let i = history.length - 1; i >= 0; i--) {
      const m = history[i];
      if (m.role !== "assistant" || m.stopReason === "error" || m.stopReason === "aborted") continue;
      const counted = m.usage.input + m.usage.cacheRead + m.usage.cacheWrite + m.usage.output;
      if (counted === 0) break;
      return counted + estimateTokens(history.slice(i + 1));
    }
    return estimateTokens(history);
  }

  private resolveCurrentModel(): ResolvedModel | null {
    if (!this.model) {
      this.failTurn("No model selected for this session. Pick one in the model switcher.");
      return null;
    }
    const resolved = this.deps.resolveModel(this.model);
    if ("error" in resolved) {
      this.failTurn(resolved.error);
      return null;
    }
    return resolved;
  }

  /**
   * A turn that failed before (or outside) a provider response: stored as the
   * turn's outcome, an assistant entry with stopReason "error", so a reload,
   * replay and statistics show what happened; then announced like a provider error.
   */
  private failTurn(message: string): void {
    try {
      const model = this.model ?? NO_MODEL;
      this.appendMessage({
        role: "assistant",
        content: [],
        stopReason: "error",
        model: { provider: model.provider, api: model.api, id: model.id },
        usage: EMPTY_USAGE,
        errorMessage: message,
        timestamp: this.deps.now(),
      });
    } catch {
      // The store itself failing: the event below still tells the user.
    }
    this.deps.emit("turn.error", { sessionId: this.sessionId, message });
  }

  private buildContext(resolved: ResolvedModel): LlmContext {
    const all = (this.turnTools ??= this.deps.tools.specs());
    const tools = this.mode === "ask" ? this.readOnlyTools(all) : all;
    return {
      systemPrompt: this.systemPrompt(tools),
      // A copy: the history grows while a request built from it may still be in flight.
      messages: this.history.slice(),
      tools: resolved.model.input.length > 0 ? tools : [],
    };
  }

  private readOnlyOf: { all: ToolSpec[]; readOnly: ToolSpec[] } | null = null;

  /** Ask mode's offer: the same array for the same specs (request builders key their caches on it). */
  private readOnlyTools(all: ToolSpec[]): ToolSpec[] {
    if (this.readOnlyOf?.all !== all) this.readOnlyOf = { all, readOnly: all.filter((t) => !this.deps.tools.isSideEffect(t.name)) };
    return this.readOnlyOf.readOnly;
  }

  /** The same text for every request of a day (it only shows the date), as prompt caches want. */
  private systemPrompt(tools: ToolSpec[]): string {
    const now = this.deps.now();
    const date = new Date(now).toISOString().slice(0, 10);
    const instructions = this.instructions.text;
    const p = this.prompt;
    if (p !== null && p.date === date && p.tools === tools && p.instructions === instructions && p.mode === this.mode) return p.text;
    const text = buildSystemPrompt({
      workspaceRoot: this.deps.workspaceRoot,
      platform: this.deps.platform,
      now,
      tools,
      instructions,
      mode: this.mode,
    });
    this.prompt = { date, tools, instructions, mode: this.mode, text };
    return text;
  }

  /** One request, retried on retryable errors; failed attempts are stored for the record. */
  private async requestWithRetries(
    resolved: ResolvedModel,
    signal: AbortSignal,
    mayCompact: () => boolean,
  ): Promise<AssistantMessage | "compactAndRetry"> {
    for (let attempt = 0; ; attempt++) {
      const current = attempt === 0 ? resolved : (this.resolveCurrentModel() ?? resolved);
      const outcome = await this.streamOnce(current, signal);
      if (outcome.kind === "done") return outcome.message;
      const { message, retryable, retryAfterMs, contextOverflow } = outcome;
      if (message.stopReason === "aborted" || signal.aborted) return { ...message, stopReason: "aborted" };
      if (contextOverflow && mayCompact()) {
        this.appendMessage(message);
        return "compactAndRetry";
      }
      if (!retryable || attempt >= MAX_RETRIES) return message;
      this.appendMessage(message);
      const delayMs = retryDelayMs(attempt + 1, retryAfterMs);
      this.deps.emit("turn.retry", {
        sessionId: this.sessionId,
        attempt: attempt + 1,
        delayMs,
        error: message.errorMessage ?? "provider error",
      });
      try {
        await (this.deps.sleep ?? abortableDelay)(delayMs, signal);
      } catch {
        return { ...message, stopReason: "aborted", content: [], errorMessage: "aborted while waiting to retry" };
      }
    }
  }

  private async streamOnce(
    resolved: ResolvedModel,
    signal: AbortSignal,
  ): Promise<
    | { kind: "done"; message: AssistantMessage }
    | { kind: "error"; message: AssistantMessage; retryable: boolean; retryAfterMs?: number; contextOverflow?: boolean }
  > {
    const context = this.buildContext(resolved);
    let lastEmit = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let latest: AssistantMessage | null = null;
    const flush = () => {
      timer = null;
      if (latest) this.deps.emit("stream.partial", { sessionId: this.sessionId, message: latest });
      lastEmit = Date.now();
    };
    try {
      const options = {
        signal,
        // "default" asks for nothing: the model's own default. Builders send a level only to models that take it.
        reasoning: this.reasoning === "default" ? undefined : this.reasoning,
        demoteOtherReasoning: this.deps.demoteOtherReasoning?.() ?? false,
      };
      for await (const event of this.deps.stream(resolved, context, options)) {
        if (event.type === "done") {
          return { kind: "done", message: this.deps.computeCost(resolved.model, event.message) };
        }
        if (event.type === "error") {
          return {
            kind: "error",
            message: this.deps.computeCost(resolved.model, event.message),
            retryable: event.retryable,
            retryAfterMs: event.retryAfterMs,
            contextOverflow: event.contextOverflow,
          };
        }
        // Coalesce partial updates: the UI needs at most one per frame.
        latest = event.partial;
        if (timer === null) {
          const wait = Math.max(0, PARTIAL_EMIT_INTERVAL_MS - (Date.now() - lastEmit));
          if (wait === 0) flush();
          else timer = setTimeout(flush, wait);
        }
      }
      return { kind: "error", message: this.failure(resolved, "the provider stream ended without a final message"), retryable: true };
    } catch (err) {
      // Adapters must not throw; if one does, it is still an error message, not a crash.
      return { kind: "error", message: this.failure(resolved, errorText(err)), retryable: false };
    } finally {
      if (timer !== null) clearTimeout(timer);
    }
  }

  private failure(resolved: ResolvedModel, text: string): AssistantMessage {
    return {
      role: "assistant",
      content: [],
      stopReason: "error",
      model: { provider: resolved.model.provider, api: resolved.model.api, id: resolved.model.id },
      usage: EMPTY_USAGE,
      errorMessage: text,
      timestamp: this.deps.now(),
    };
  }

  // ------------------------------------------------------------ tools

  /**
   * Runs one batch of tool calls: read-only calls in parallel, side-effect
   * calls one by one through proposal → approval → execution. Returns false
   * when the turn was aborted (every call still gets its result).
   */
  private async runTools(calls: ToolCall[], signal: AbortSignal): Promise<boolean> {
    // By call object, not id: a model may repeat an id within one message, and each call needs its own result.
    const done = new Set<ToolCall>();
    const finish = (call: ToolCall, outcome: ToolOutcome, status: "done" | "error" | "aborted" | "denied", startedAt: number) => {
      if (done.has(call)) return;
      done.add(call);
      const result = this.deps.tools.toResultMessage(call, outcome, this.deps.now());
      const durationMs = this.deps.now() - startedAt;
      // The result and its audit row commit together, or neither does.
      try {
        this.append({ type: "message", message: result }, () =>
          this.deps.audit(this.sessionId, {
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
        this.storeFailed(call, err);
        return;
      }
      this.deps.emit("tool.status", { sessionId: this.sessionId, toolCallId: call.id, toolName: call.name, status, durationMs });
    };
    const statusOf = (outcome: ToolOutcome): "done" | "error" | "aborted" | "denied" =>
      outcome.ok ? "done" : outcome.error.errorCode === "ABORTED" ? "aborted" : outcome.error.errorCode === "DENIED" ? "denied" : "error";

    const readOnly = calls.filter((c) => !this.deps.tools.isSideEffect(c.name));
    const sideEffects = calls.filter((c) => this.deps.tools.isSideEffect(c.name));

    await Promise.all(
      readOnly.map(async (call) => {
        const startedAt = this.deps.now();
        this.deps.emit("tool.status", { sessionId: this.sessionId, toolCallId: call.id, toolName: call.name, status: "running" });
        // Read-only calls get their audit row when they finish (one write instead of two).
        const outcome = await this.deps.tools.runReadOnly(call, signal);
        finish(call, outcome, statusOf(outcome), startedAt);
      }),
    );

    for (const call of sideEffects) {
      if (signal.aborted || this.failedWrite) break;
      const startedAt = this.deps.now();
      if (this.mode === "ask") {
        finish(call, failure(errors.readOnlyMode(call.name)), "denied", startedAt);
        continue;
      }
      const proposed = await this.deps.tools.propose(call);
      if ("outcome" in proposed) {
        finish(call, proposed.outcome, statusOf(proposed.outcome), startedAt);
        continue;
      }
      const { proposal } = proposed;
      let answer: ApprovalAnswer;
      try {
        this.deps.audit(this.sessionId, { kind: "proposed", toolCallId: call.id, toolName: call.name, args: call.arguments });
        answer = await this.approve(proposal, signal);
      } catch (err) {
        this.deps.tools.cancel(proposal);
        done.add(call);
        this.storeFailed(call, err);
        break;
      }
      if (answer.decision === "aborted") {
        finish(call, this.deps.tools.cancel(proposal), "aborted", startedAt);
        break;
      }
      if (answer.decision === "deny" || answer.decision === "denyAlways") {
        finish(call, this.deps.tools.deny(proposal, { reason: answer.reason?.trim() || undefined }), "denied", startedAt);
        continue;
      }
      if (!answer.byPolicy) {
        this.deps.tools.approve(proposal, { forSession: answer.decision === "approveForSession", ...(answer.rule && answer.decision === "approveForSession" ? { rule: answer.rule } : {}) });
      }
      this.deps.emit("tool.status", { sessionId: this.sessionId, toolCallId: call.id, toolName: call.name, status: "running" });
      try {
        this.deps.audit(this.sessionId, { kind: "running", toolCallId: call.id, toolName: call.name, args: call.arguments });
      } catch (err) {
        // Not run: a call the audit cannot record does not happen.
        this.deps.tools.cancel(proposal);
        done.add(call);
        this.storeFailed(call, err);
        break;
      }
      if (!this.turnCheckpointed) {
        this.turnCheckpointed = true;
        await this.deps.checkpoint?.(this.sessionId, { kind: "turnStart", seq: this.lastSeq(), toolCallId: call.id });
      }
      const outcome = await this.deps.tools.execute(proposal, signal);
      finish(call, outcome, statusOf(outcome), startedAt);
      // After failures too: a command may have changed files before it failed or timed out.
      await this.deps.checkpoint?.(this.sessionId, { kind: "afterTool", seq: this.lastSeq(), toolCallId: call.id });
    }

    if (this.failedWrite) {
      // The store refused a write: answer the remaining calls without running them, and end the turn.
      const rest = calls.filter((c) => !done.has(c));
      this.tryAppendSynthesized(rest, "the turn stopped because a tool result could not be recorded");
      this.failedWrite = false;
      return false;
    }
    const missing = calls.filter((c) => !done.has(c));
    if (missing.length > 0) {
      this.appendSynthesized(missing, "aborted", "aborted: the user stopped the turn before this tool call ran");
    }
    return !signal.aborted;
  }

  /** Applies the policy; asks the user when it says "ask". Stores the decision (throws StoreWriteFailed when it cannot). */
  private async approve(proposal: Proposal, signal: AbortSignal): Promise<ApprovalAnswer> {
    const verdict = this.deps.tools.decide(proposal);
    const record = (decision: SessionEntry & { type: "approval" }) => {
      try {
        this.append(decision, () =>
          this.deps.audit(this.sessionId, {
            kind: "decided",
            toolCallId: proposal.toolCallId,
            toolName: proposal.toolName,
            decision: decision.decision,
            decidedBy: decision.decidedBy,
            reason: decision.reason,
            rules: decision.rules,
          }),
        );
      } catch (err) {
        throw new StoreWriteFailed(errorText(err));
      }
    };
    const base = { type: "approval" as const, toolCallId: proposal.toolCallId, toolName: proposal.toolName, timestamp: this.deps.now() };
    const rules = verdict.rules ? { rules: verdict.rules } : {};
    if (verdict.action === "allow") {
      record({ ...base, decision: "autoApproved", decidedBy: "policy", ...rules });
      return { decision: "approve", byPolicy: true };
    }
    if (verdict.action === "deny") {
      record({ ...base, decision: "autoDenied", decidedBy: "policy", ...rules });
      return { decision: "deny", byPolicy: true };
    }
    if (signal.aborted) return { decision: "aborted" };
    const suggested = this.deps.tools.suggestRules(proposal);
    let answer = await new Promise<ApprovalAnswer>((resolve) => {
      this.pending = {
        info: {
          sessionId: this.sessionId,
          toolCallId: proposal.toolCallId,
          toolName: proposal.toolName,
          args: proposal.args,
          preview: proposal.preview,
          suggestedRules: suggested,
        },
        proposal,
        resolve,
      };
      this.status = "awaitingApproval";
      this.deps.emit("tool.status", {
        sessionId: this.sessionId,
        toolCallId: proposal.toolCallId,
        toolName: proposal.toolName,
        status: "awaitingApproval",
      });
      this.emitState();
    });
    this.pending = null;
    this.status = "running";
    this.emitState();
    const now = this.deps.now();
    if (answer.decision === "aborted") return answer;
    const tool = proposal.toolName as "bash" | "write" | "edit";
    let chosen: { rules: DecidingRule[] } | Record<string, never> = {};
    if (answer.decision === "approveAlways" || answer.decision === "denyAlways") {
      const action = answer.decision === "approveAlways" ? "allow" : "deny";
      const pattern = answer.rule ?? "";
      this.deps.saveRule?.({ tool, action, pattern });
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
    record({
      ...base,
      timestamp: now,
      decision: answer.decision === "approveForSession" ? "approvedForSession" : denied ? "denied" : "approved",
      decidedBy: "user",
      reason: denied ? answer.reason : undefined,
      ...chosen,
    });
    return answer;
  }

  // ------------------------------------------------------------ compaction

  private async compact(resolved: ResolvedModel, signal: AbortSignal): Promise<boolean> {
    const result = await compactHistory({
      entries: this.entries,
      resolved,
      signal,
      stream: this.deps.stream,
      now: this.deps.now,
    });
    if (result.kind === "nothing") return true;
    if (result.kind === "failed") {
      this.failTurn(`compaction failed: ${result.error}`);
      return false;
    }
    this.append(result.entry);
    return true;
  }

  // ------------------------------------------------------------ storage helpers

  private lastSeq(): number {
    return this.entries.length === 0 ? 0 : this.entries[this.entries.length - 1].seq;
  }

  private deliverQueued(): boolean {
    if (this.queue.length === 0) return false;
    for (const message of this.queue.splice(0)) this.appendMessage(message);
    this.emitState();
    return true;
  }

  /** Set when a store write failed during the tool batch: the batch stops and the turn ends. */
  private failedWrite = false;

  /**
   * A tool result (or its approval) could not be stored with its audit row:
   * neither was kept. Say so on that call and for the turn, store an error
   * result in its place when the store still takes one (invariant 1), and
   * stop the batch.
   */
  private storeFailed(call: ToolCall, err: unknown): void {
    this.failedWrite = true;
    const message = `The result of ${call.name} could not be recorded (${errorText(err)}); it was not stored and the turn stopped.`;
    this.tryAppendSynthesized([call], message);
    this.deps.emit("turn.error", { sessionId: this.sessionId, message });
  }

  /** appendSynthesized as errors, for a store that may be failing: a write that fails is left to the repair at the next open. */
  private tryAppendSynthesized(calls: ToolCall[], text: string): void {
    try {
      this.appendSynthesized(calls, "error", `error: ${text}`);
    } catch (err) {
      this.deps.emit("turn.error", { sessionId: this.sessionId, message: `The session could not be saved: ${errorText(err)}` });
    }
  }

  private appendSynthesized(calls: ToolCall[], kind: "aborted" | "error", text: string): void {
    for (const call of calls) {
      const result: ToolResultMessage = {
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        isError: true,
        content: [{ type: "text", text }],
        details: { errorCode: kind === "aborted" ? "ABORTED" : "IO_ERROR", synthesized: true },
        timestamp: this.deps.now(),
      };
      this.appendMessage(result);
      this.deps.emit("tool.status", {
        sessionId: this.sessionId,
        toolCallId: call.id,
        toolName: call.name,
        status: kind === "aborted" ? "aborted" : "error",
      });
    }
  }

  private appendMessage(message: UserMessage | AssistantMessage | ToolResultMessage): void {
    this.append({ type: "message", message });
  }

  private append(entry: SessionEntry, alongside?: () => void): void {
    const seq = this.deps.store.appendEntry(this.sessionId, entry, alongside);
    this.entries.push({ seq, entry });
    if (entry.type === "message") this.history.push(entry.message);
    else if (entry.type === "compaction") this.history = historyForModel(this.entries);
    this.deps.emit("session.entry", { sessionId: this.sessionId, seq, entry });
    this.deps.onAppended(this.sessionId, seq, entry);
  }

  private emitState(): void {
    this.deps.emit("turn.state", this.turnState());
  }
}

function textOf(message: UserMessage): string {
  return message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n");
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function byteLength(result: ToolResultMessage): number {
  let n = 0;
  for (const c of result.content) n += c.type === "text" ? Buffer.byteLength(c.text) : c.data.length;
  return n;
}
