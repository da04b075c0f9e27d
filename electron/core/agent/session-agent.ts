/**
 * The agent for one session: its public API, the turn around the tool loop
 * (turn-loop.ts), and what the loop needs from the session (its model, tools,
 * instructions, compaction and the turn's budget).
 *
 * Contract: `send`, `abort`, `answerApproval` and `switchModel` never throw for
 * runtime failures. Every message is appended to the store when it completes;
 * every tool call in a stored assistant message gets exactly one stored result
 * (invariant 1), including calls of errored and aborted turns. After any turn
 * (stop, error, abort) the session is idle and accepts the next message.
 */
import type { ContextMeter, SessionMode, TurnState } from "../../../shared/api";
import type { ChangeReview } from "../../../shared/hunks";
import type { AssistantMessage, ImageContent, Message, ModelRef, ReasoningLevel, ToolCall, UserMessage } from "../../../shared/protocol";
import type { LlmContext, ToolSpec } from "../providers/types";
import { ApprovalGate, type AnswerRefusal, type UserDecision } from "./approval-gate";
import type { CompactionCarrier } from "./compaction";
import type { LoadedInstructions } from "./instructions";
import type { AgentDeps, ResolvedModel } from "./ports";
import { failedRequest, type RequestHost } from "./request-stream";
import { isStorageFailure } from "../store";
import { SessionCompaction, compactionResult } from "./session-compaction";
import { SessionInstructions } from "./session-instructions";
import { SessionJournal, errorText, turnFailureText } from "./session-journal";
import { RequestContextBuilder } from "./request-context";
import { runToolBatch, type ToolBatchHost } from "./tool-batch";
import type { TodoItem } from "../../../shared/todo";
import { planCarry } from "./todo";
import { TurnQueues } from "./turn-queues";
import type { ParentAgent } from "./sub-agent";
import { NO_LIMITS, TurnCaps, type TurnLimits } from "./turn-caps";
import { runTurnLoop, type LoopHost } from "./turn-loop";

export type { AnswerRefusal, UserDecision } from "./approval-gate";
export type { CompactionCarrier, CompactionCarry } from "./compaction";
export { CONTINUE_PROMPT } from "./turn-loop";

/** Options of the turn a message starts. */
export interface SendOptions {
  /** A reason: the turn asks for every side effect not denied, whatever rules allow (headless --approve none / read-only). */
  askEach?: string;
  /** Limits over the ones in Settings for this turn (headless --max-budget-usd, --max-turns). */
  limits?: Partial<TurnLimits>;
  /** Run the turn on this budget (a sub-agent's: `parentBudget.child(...)`), instead of a new one. */
  budget?: TurnCaps;
  /** While a turn runs: join it at its next tool boundary instead of following it (turn-queues.ts). */
  steer?: boolean;
}

/** The model an error entry names when the session has none (no model configured at all). */
const NO_MODEL: ModelRef = { provider: "none", api: "anthropic-messages", id: "none" };

export class SessionAgent implements ParentAgent {
  private status: TurnState["status"] = "idle";
  /** Follow-ups, steering messages and plan edits sent while a turn runs (turn-queues.ts). */
  private readonly queues = new TurnQueues();
  private controller: AbortController | null = null;
  private readonly journal: SessionJournal;
  private readonly gate: ApprovalGate;
  /** The turn's tool specs (the runtime, and so its specs, stay the same for a turn). */
  private turnTools: ToolSpec[] | null = null;
  private readonly contexts: RequestContextBuilder;
  private running: Promise<void> | null = null;
  /** The AGENTS.md section for the files the session touched. */
  private readonly instructions: SessionInstructions;
  /** Whether this turn already recorded its "before the first side effect" checkpoint. */
  private turnCheckpointed = false;
  private readonly compaction: SessionCompaction;
  /** The running turn's budget (null when idle). */
  private budget: TurnCaps | null = null;

  constructor(
    private readonly deps: AgentDeps,
    readonly sessionId: string,
    private model: ModelRef | null,
    private reasoning: ReasoningLevel = "default",
    private mode: SessionMode = "agent",
  ) {
    const load = deps.instructions?.bind(deps);
    let instructions: SessionInstructions | null = null;
    this.journal = new SessionJournal(deps, sessionId, (entries) => {
      instructions = new SessionInstructions(load, entries);
    });
    this.instructions = instructions ?? new SessionInstructions(load, []);
    this.gate = new ApprovalGate(deps, sessionId, this.journal, (waiting) => this.setWaiting(waiting));
    this.compaction = new SessionCompaction({
      deps,
      sessionId,
      journal: this.journal,
      overhead: (resolved) => this.overhead(resolved),
      budget: () => this.budget,
      failTurn: (message) => this.failTurn(message),
      waiting: (pending) => this.setWaiting(pending !== null),
    });
    this.contexts = new RequestContextBuilder({
      workspaceRoot: deps.workspaceRoot,
      platform: deps.platform,
      isSideEffect: (name) => deps.tools.isSideEffect(name),
    });
    deps.subAgents?.attach(this);
    // The todo plan outlives every compaction (docs/sub-agents.md#the-todo-plan).
    this.addCompactionCarrier(() => planCarry(this.journal.entries));
  }

  // ------------------------------------------------------------ public API

  turnState(): TurnState {
    const own = this.gate.pending();
    // A sub-agent's approval waits in this turn too, named after its task (sub-agent.ts).
    const child = own ? null : (this.deps.subAgents?.pendingApproval() ?? null);
    return {
      sessionId: this.sessionId,
      mode: this.mode,
      status: child && this.status === "running" ? "awaitingApproval" : this.status,
      ...this.queues.state(),
      pendingApproval: own ?? child,
      pendingCompaction: this.compaction.pending(),
    };
  }

  /** The running turn's budget, to charge work done for it outside the loop (a sub-agent); null when idle. */
  turnCaps(): TurnCaps | null {
    return this.budget;
  }

  /**
   * Registers what must survive compaction (the todo plan): at each compaction
   * its `forSummary` goes into the summary request and its `reinject` is put
   * back after the summary. Returns the unregister function.
   */
  addCompactionCarrier(carrier: CompactionCarrier): () => void {
    return this.compaction.addCarrier(carrier);
  }

  /** Answers a turn paused before compacting; false when none is. */
  answerCompaction(decision: "compact" | "stop"): boolean {
    return this.compaction.answer(decision);
  }

  /** How full the context is for the next request (null without a usable model). */
  contextMeter(): ContextMeter | null {
    const resolved = this.model ? this.deps.resolveModel(this.model) : null;
    if (!resolved || "error" in resolved) return null;
    return this.compaction.meter(resolved, this.journal.ledger.nextRequest(this.overhead(resolved)));
  }

  currentModel(): ModelRef | null {
    return this.model;
  }

  /**
   * Sends a user message. While a turn runs it is a follow-up (the next turn)
   * or, with `steer`, joins this turn at its next tool boundary (turn-queues.ts).
   * `askEach` (a reason): the turn this message starts asks for every side
   * effect not denied, whatever rules allow (headless --approve none / read-only).
   * When idle the message is saved before the turn starts; a store that
   * refuses it (disk full, locked, read-only) leaves the session idle and
   * answers `notSaved` with the reason in plain words: nothing ran, the
   * caller still holds the message and sends it again (Retry).
   */
  send(
    text: string,
    images: ImageContent[] = [],
    attachments: { type: "text"; text: string }[] = [],
    opts: SendOptions = {},
  ): { queued: boolean; notSaved?: string } {
    const message: UserMessage = {
      role: "user",
      content: [...(text ? [{ type: "text" as const, text }] : []), ...attachments, ...images],
      timestamp: this.deps.now(),
    };
    if (this.status !== "idle") {
      if (opts.steer) this.queues.steer(message);
      else this.queues.followUp(message);
      this.emitState();
      return { queued: true };
    }
    // Follow-ups left by a turn whose store failed go first, in order; the new message is the caller's to send again.
    const notSaved = this.saveLeftovers() ?? this.save(message);
    if (notSaved !== null) {
      this.emitState();
      return { queued: false, notSaved };
    }
    this.startTurn(opts);
    return { queued: false };
  }

  /**
   * Retry: runs the last turn again from the stored history, without storing
   * the user's message a second time. Only when idle and the last turn ended
   * in a failed request; the refusal's words otherwise.
   */
  retry(): string | null {
    if (this.status !== "idle") return "a turn is running: wait for it to end or stop it";
    const history = this.journal.history;
    for (let i = history.length - 1; i >= 0; i--) {
      const m = history[i];
      if (m.role === "toolResult") continue;
      if (m.role === "assistant" && m.stopReason === "error") {
        this.startTurn({});
        return null;
      }
      break;
    }
    return "the last turn did not fail: there is nothing to retry";
  }

  /** Stores a message a turn starts with; the failure's words, or null. */
  private save(message: UserMessage): string | null {
    try {
      this.journal.appendMessage(message);
      return null;
    } catch (err) {
      return turnFailureText(err);
    }
  }

  /** Stores the follow-ups a failed store left queued, each leaving the queue once stored; the failure's words, or null. */
  private saveLeftovers(): string | null {
    for (let queued = this.queues.nextFollowUp(); queued; queued = this.queues.nextFollowUp()) {
      const notSaved = this.save(queued);
      if (notSaved !== null) {
        this.queues.putBack(queued);
        return notSaved;
      }
    }
    return null;
  }

  private startTurn(opts: SendOptions): void {
    this.running = this.runTurn(opts)
      .catch((err: unknown) => this.deps.emit("turn.error", { sessionId: this.sessionId, message: turnFailureText(err) }))
      .finally(() => {
        this.running = null;
      });
  }

  /** Resolves when the current turn (if any) has finished. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  abort(): void {
    this.queues.clear();
    this.controller?.abort();
    this.gate.abort();
    this.compaction.abort();
  }

  /** Answers the pending approval (approval-gate.ts); a refusal says why nothing was answered. */
  answerApproval(toolCallId: string, decision: UserDecision, reason?: string, rule?: string, review?: ChangeReview): AnswerRefusal | null {
    return this.gate.answer(toolCallId, decision, reason, rule, review);
  }

  /** Ask mode on or off; during a running turn it applies from the next request and tool batch. */
  setMode(mode: SessionMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.deps.onModeChanged?.(this.sessionId, mode, this.journal.lastSeq());
    this.emitState();
  }

  currentMode(): SessionMode {
    return this.mode;
  }

  /** The instruction files in the last system prompt, and those left out (loads them when no turn has yet). */
  instructionFiles(): Promise<Pick<LoadedInstructions, "files" | "skipped" | "skills">> {
    return this.instructions.files();
  }

  /**
   * "Compact now" (the `/compact` command): prunes and summarises the
   * conversation. During a turn it runs before the turn's next request, and
   * resolves once it has.
   */
  async compactNow(): Promise<{ ok: true } | { ok: false; error: string }> {
    if (this.status !== "idle") return compactionResult(await this.compaction.requestDuringTurn());
    const resolved = this.resolveCurrentModel();
    if (!resolved) return { ok: false, error: "no usable model for the summary" };
    const controller = new AbortController();
    this.controller = controller;
    this.status = "running";
    this.emitState();
    const work = this.compaction.run(resolved, controller.signal, "manual");
    this.running = work.then(
      () => undefined,
      () => undefined,
    );
    try {
      return compactionResult(await work);
    } catch (err) {
      return { ok: false, error: errorText(err) };
    } finally {
      this.running = null;
      this.controller = null;
      this.settleQueues();
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
    if (this.journal.hasMessages()) {
      this.journal.append({ type: "modelSwitch", from, to, timestamp: this.deps.now() });
    }
    this.deps.onModelChanged(this.sessionId, to);
  }

  /** Sets the reasoning level (a marker in the transcript); during a running turn it applies from the next request. */
  setReasoning(to: ReasoningLevel): void {
    const from = this.reasoning;
    if (from === to) return;
    this.reasoning = to;
    this.journal.append({ type: "reasoningChange", from, to, timestamp: this.deps.now() });
    this.deps.onReasoningChanged?.(this.sessionId, to);
  }

  // ------------------------------------------------------------ the turn

  /** Runs a turn on the stored history (its user message is saved already). */
  private async runTurn(opts: SendOptions = {}): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.status = "running";
    this.emitState();
    const limits = opts.limits ?? {};
    this.budget =
      opts.budget ??
      new TurnCaps(
        () => ({ ...(this.deps.turnLimits?.() ?? NO_LIMITS), ...limits }),
        () => this.deps.now(),
      );
    let storeFailed = false;
    try {
      // MCP servers still starting, and the AGENTS.md files (read again each turn: the user may have edited them).
      await this.deps.prepareTools?.();
      await this.instructions.reload();
      this.deps.tools.beginTurn(opts.askEach ? { askEach: opts.askEach } : {});
      this.turnCheckpointed = false;
      // The runtime, and so its specs, stay the same for the whole turn.
      this.turnTools = this.deps.tools.specs();
      await runTurnLoop(this.loopHost(this.budget), controller.signal);
      // A "Compact now" the loop did not reach (the turn ended first) runs now.
      if (this.compaction.hasManualRequest() && !controller.signal.aborted) {
        const resolved = this.resolveCurrentModel();
        if (resolved) await this.compaction.run(resolved, controller.signal, "manual");
      }
    } catch (err) {
      // A store that refused a write, or a bug in the loop, must not take the host down:
      // store it as the turn's outcome when the store still takes it, show it and go idle.
      storeFailed = isStorageFailure(err);
      // A store that just refused a write is not asked again (a held lock would cost another busy timeout).
      this.failTurn(turnFailureText(err), !storeFailed);
    } finally {
      this.compaction.abort();
      this.gate.clear();
      this.settleQueues();
      this.budget = null;
      this.controller = null;
      this.status = "idle";
      this.emitState();
      this.deps.emit("stream.end", { sessionId: this.sessionId });
    }
    // Follow-ups (and steering messages no boundary took) start a new turn each; one the store
    // refuses stays first in line (shown in the turn state) until the next send saves it first.
    if (storeFailed) return;
    const next = this.queues.nextFollowUp();
    if (!next) return;
    const notSaved = this.save(next);
    if (notSaved !== null) {
      this.queues.putBack(next);
      this.deps.emit("turn.error", { sessionId: this.sessionId, message: notSaved });
      this.emitState();
      return;
    }
    this.running = this.runTurn();
    await this.running;
  }

  private loopHost(budget: TurnCaps): LoopHost {
    return {
      deps: this.deps,
      sessionId: this.sessionId,
      journal: this.journal,
      budget,
      resolveModel: () => this.resolveCurrentModel(),
      requestHost: (withTools) => this.requestHost(withTools),
      nextRequestTokens: (resolved, withTools) => this.journal.ledger.nextRequest(this.overhead(resolved, withTools)),
      compact: async (resolved, signal, trigger) => {
        const outcome = await this.compaction.run(resolved, signal, trigger);
        return outcome.kind !== "endTurn";
      },
      takeCompactRequest: () => this.compaction.hasManualRequest(),
      runTools: (message, calls, signal) => this.runTools(message, calls, signal),
      deliverQueued: () => this.deliverAtBoundary(),
      announceContext: (resolved, tokens) => this.deps.emit("context.meter", this.compaction.meter(resolved, tokens)),
      failTurn: (message) => this.failTurn(message),
    };
  }

  private async runTools(message: AssistantMessage, calls: ToolCall[], signal: AbortSignal): Promise<boolean> {
    const finished = await runToolBatch(this.toolHost, calls, signal);
    await this.instructions.noteCalls(message);
    return finished;
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
  private failTurn(message: string, store = true): void {
    try {
      if (store) this.journal.appendMessage(failedRequest(this.model ?? NO_MODEL, message, this.deps.now()));
    } catch {
      // The store itself failing: the event below still tells the user.
    }
    this.deps.emit("turn.error", { sessionId: this.sessionId, message });
  }

  private buildContext(resolved: ResolvedModel, history: readonly Message[] | null = null, withTools = true): LlmContext {
    const context = this.contexts.build({
      model: resolved.model,
      now: this.deps.now(),
      tools: (this.turnTools ??= this.deps.tools.specs()),
      mode: this.mode,
      instructions: this.instructions.text,
      history: history ?? this.journal.history,
    });
    return withTools ? context : { ...context, tools: [] };
  }

  /** The estimate of the system prompt and tools of the next request. */
  private overhead(resolved: ResolvedModel, withTools = true): number {
    return this.contexts.overhead(this.buildContext(resolved, [], withTools));
  }

  private requestHost(withTools: boolean): RequestHost {
    return {
      deps: this.deps,
      sessionId: this.sessionId,
      context: (resolved) => this.buildContext(resolved, null, withTools),
      reasoning: () => this.reasoning,
      resolveCurrent: () => this.resolveCurrentModel(),
      record: (message) => this.journal.appendFailedAttempt(message),
      sent: (raw) => this.journal.noteRequest(raw),
    };
  }

  private get toolHost(): ToolBatchHost {
    return {
      deps: this.deps,
      sessionId: this.sessionId,
      journal: this.journal,
      gate: this.gate,
      mode: () => this.mode,
      checkpointTurnStart: async (toolCallId) => {
        if (this.turnCheckpointed) return;
        this.turnCheckpointed = true;
        await this.deps.checkpoint?.(this.sessionId, { kind: "turnStart", seq: this.journal.lastSeq(), toolCallId });
      },
    };
  }

  // ------------------------------------------------------------ helpers

  /** At a tool boundary: the plan edit and steering messages join the conversation; true when a steering message did. */
  private deliverAtBoundary(): boolean {
    if (!this.queues.busy()) return false;
    const steered = this.queues.deliver(this.journal, this.deps.now());
    this.emitState();
    return steered;
  }

  /** The turn is over: a plan edit it did not reach is stored now (every call is answered by then). */
  private settleQueues(): void {
    try {
      this.queues.settle(this.journal, this.deps.now());
    } catch (err) {
      this.deps.emit("turn.error", { sessionId: this.sessionId, message: `The plan edit could not be saved: ${errorText(err)}` });
    }
  }

  // ------------------------------------------------------------ plan and sub-agents (docs/sub-agents.md)

  /** The user's edit of the plan: stored now when idle, at the next tool boundary while a turn runs. */
  setPlan(items: TodoItem[]): void {
    if (this.status === "idle") {
      this.journal.append({ type: "planEdit", items, timestamp: this.deps.now() });
      return;
    }
    this.queues.editPlan(items);
    this.emitState();
  }

  reasoningLevel(): ReasoningLevel {
    return this.reasoning;
  }

  seqOfCall(toolCallId: string): number | null {
    return this.journal.seqOfCall(toolCallId);
  }

  announceState(): void {
    this.emitState();
  }

  private setWaiting(waiting: boolean): void {
    this.status = waiting ? "awaitingApproval" : "running";
    this.emitState();
  }

  private emitState(): void {
    this.deps.emit("turn.state", this.turnState());
  }
}
