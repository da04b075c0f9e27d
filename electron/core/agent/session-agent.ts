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
import type { PendingApproval, TurnState } from "../../../shared/api";
import type {
  AssistantMessage,
  ImageContent,
  Message,
  ModelRef,
  SessionEntry,
  StoredEntry,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "../../../shared/protocol";
import type { LlmContext, ToolSpec } from "../providers/types";
import type { Proposal, ToolOutcome } from "../tools/types";
import { historyForModel, estimateTokens } from "./context";
import { compactHistory } from "./compaction";
import type { AgentDeps, ResolvedModel } from "./ports";
import { MAX_RETRIES, abortableDelay, retryDelayMs } from "./retry";
import { buildSystemPrompt } from "./system-prompt";

const PARTIAL_EMIT_INTERVAL_MS = 33;
export const CONTINUE_PROMPT =
  "[Agent Workbench] Your last response was cut off at the output token limit. Continue from where you stopped, or wrap up briefly.";

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
  | { decision: "approve" | "approveForSession" | "deny"; reason?: string; byPolicy?: boolean }
  | { decision: "aborted" };

interface PendingApprovalState {
  info: PendingApproval;
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
  private prompt: { date: string; tools: ToolSpec[]; text: string } | null = null;
  private running: Promise<void> | null = null;
  /** Whether this turn already recorded its "before the first side effect" checkpoint. */
  private turnCheckpointed = false;

  constructor(
    private readonly deps: AgentDeps,
    readonly sessionId: string,
    private model: ModelRef | null,
  ) {
    this.entries = deps.store.loadEntries(sessionId);
    this.history = historyForModel(this.entries);
  }

  // ------------------------------------------------------------ public API

  turnState(): TurnState {
    return {
      sessionId: this.sessionId,
      status: this.status,
      queued: this.queue.map((m) => textOf(m)),
      pendingApproval: this.pending?.info ?? null,
    };
  }

  currentModel(): ModelRef | null {
    return this.model;
  }

  /** Sends a user message; queued when a turn is running. */
  send(text: string, images: ImageContent[] = []): { queued: boolean } {
    const message: UserMessage = {
      role: "user",
      content: [...(text ? [{ type: "text" as const, text }] : []), ...images],
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

  answerApproval(toolCallId: string, decision: "approve" | "approveForSession" | "deny", reason?: string): boolean {
    if (!this.pending || this.pending.info.toolCallId !== toolCallId) return false;
    this.pending.resolve({ decision, reason });
    return true;
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

  // ------------------------------------------------------------ the turn

  private async runTurn(first: UserMessage): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.status = "running";
    this.emitState();
    this.deps.tools.beginTurn();
    this.turnCheckpointed = false;
    // The runtime, and so its specs, stay the same for the whole turn.
    this.turnTools = this.deps.tools.specs();
    this.appendMessage(first);
    try {
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
        const finished = await this.runTools(calls, signal);
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
    const tools = (this.turnTools ??= this.deps.tools.specs());
    return {
      systemPrompt: this.systemPrompt(tools),
      // A copy: the history grows while a request built from it may still be in flight.
      messages: this.history.slice(),
      tools: resolved.model.input.length > 0 ? tools : [],
    };
  }

  /** The same text for every request of a day (it only shows the date), as prompt caches want. */
  private systemPrompt(tools: ToolSpec[]): string {
    const now = this.deps.now();
    const date = new Date(now).toISOString().slice(0, 10);
    if (this.prompt?.date !== date || this.prompt.tools !== tools) {
      const text = buildSystemPrompt({ workspaceRoot: this.deps.workspaceRoot, platform: this.deps.platform, now, tools });
      this.prompt = { date, tools, text };
    }
    return this.prompt.text;
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
      for await (const event of this.deps.stream(resolved, context, { signal })) {
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
      // The result and its audit row commit together.
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
      if (signal.aborted) break;
      const startedAt = this.deps.now();
      const proposed = await this.deps.tools.propose(call);
      if ("outcome" in proposed) {
        finish(call, proposed.outcome, statusOf(proposed.outcome), startedAt);
        continue;
      }
      const { proposal } = proposed;
      this.deps.audit(this.sessionId, { kind: "proposed", toolCallId: call.id, toolName: call.name, args: call.arguments });
      const answer = await this.approve(proposal, signal);
      if (answer.decision === "aborted") {
        finish(call, this.deps.tools.cancel(proposal), "aborted", startedAt);
        break;
      }
      if (answer.decision === "deny") {
        finish(call, this.deps.tools.deny(proposal, { reason: answer.reason?.trim() || undefined }), "denied", startedAt);
        continue;
      }
      if (!answer.byPolicy) this.deps.tools.approve(proposal, { forSession: answer.decision === "approveForSession" });
      this.deps.emit("tool.status", { sessionId: this.sessionId, toolCallId: call.id, toolName: call.name, status: "running" });
      this.deps.audit(this.sessionId, { kind: "running", toolCallId: call.id, toolName: call.name, args: call.arguments });
      if (!this.turnCheckpointed) {
        this.turnCheckpointed = true;
        await this.deps.checkpoint?.(this.sessionId, { kind: "turnStart", seq: this.lastSeq(), toolCallId: call.id });
      }
      const outcome = await this.deps.tools.execute(proposal, signal);
      finish(call, outcome, statusOf(outcome), startedAt);
      // After failures too: a command may have changed files before it failed or timed out.
      await this.deps.checkpoint?.(this.sessionId, { kind: "afterTool", seq: this.lastSeq(), toolCallId: call.id });
    }

    const missing = calls.filter((c) => !done.has(c));
    if (missing.length > 0) {
      this.appendSynthesized(missing, "aborted", "aborted: the user stopped the turn before this tool call ran");
    }
    return !signal.aborted;
  }

  /** Applies the policy; asks the user when it says "ask". Stores the decision. */
  private async approve(proposal: Proposal, signal: AbortSignal): Promise<ApprovalAnswer> {
    const policy = this.deps.tools.decide(proposal);
    const record = (decision: SessionEntry & { type: "approval" }) => {
      this.append(decision, () =>
        this.deps.audit(this.sessionId, {
          kind: "decided",
          toolCallId: proposal.toolCallId,
          toolName: proposal.toolName,
          decision: decision.decision,
          decidedBy: decision.decidedBy,
          reason: decision.reason,
        }),
      );
    };
    const base = { type: "approval" as const, toolCallId: proposal.toolCallId, toolName: proposal.toolName, timestamp: this.deps.now() };
    if (policy === "allow") {
      record({ ...base, decision: "autoApproved", decidedBy: "policy" });
      return { decision: "approve", byPolicy: true };
    }
    if (policy === "deny") {
      record({ ...base, decision: "autoDenied", decidedBy: "policy" });
      return { decision: "deny", byPolicy: true };
    }
    if (signal.aborted) return { decision: "aborted" };
    const answer = await new Promise<ApprovalAnswer>((resolve) => {
      this.pending = {
        info: {
          sessionId: this.sessionId,
          toolCallId: proposal.toolCallId,
          toolName: proposal.toolName,
          args: proposal.args,
          preview: proposal.preview,
        },
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
    record({
      ...base,
      timestamp: now,
      decision: answer.decision === "approve" ? "approved" : answer.decision === "approveForSession" ? "approvedForSession" : "denied",
      decidedBy: "user",
      reason: answer.decision === "deny" ? answer.reason : undefined,
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
