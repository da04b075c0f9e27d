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
import type { SessionMode, TurnState } from "../../../shared/api";
import type { ChangeReview } from "../../../shared/hunks";
import type { ImageContent, ModelRef, ReasoningLevel, ToolCall, UserMessage } from "../../../shared/protocol";
import type { LlmContext, ToolSpec } from "../providers/types";
import { ApprovalGate, type AnswerRefusal, type UserDecision } from "./approval-gate";
import { compactHistory } from "./compaction";
import { contextTokens } from "./context";
import { NO_INSTRUCTIONS, touchedPaths, type LoadedInstructions } from "./instructions";
import type { AgentDeps, ResolvedModel } from "./ports";
import { failedRequest, requestWithRetries, type RequestHost } from "./request-stream";
import { SessionJournal, errorText } from "./session-journal";
import { RequestContextBuilder } from "./request-context";
import { runToolBatch, type ToolBatchHost } from "./tool-batch";
import type { TodoItem } from "../../../shared/todo";
import { compactionSurvivors } from "./todo";
import { TurnQueues } from "./turn-queues";
import type { ParentAgent } from "./sub-agent";

export type { AnswerRefusal, UserDecision } from "./approval-gate";

export const CONTINUE_PROMPT =
  "[Agent Workbench] Your last response was cut off at the output token limit. Continue from where you stopped, or wrap up briefly.";

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
    this.journal = new SessionJournal(deps, sessionId);
    this.gate = new ApprovalGate(deps, sessionId, this.journal, (waiting) => {
      this.status = waiting ? "awaitingApproval" : "running";
      this.emitState();
    });
    this.touched = new Set(touchedPaths(this.journal.entries));
    this.contexts = new RequestContextBuilder({
      workspaceRoot: deps.workspaceRoot,
      platform: deps.platform,
      isSideEffect: (name) => deps.tools.isSideEffect(name),
    });
    deps.subAgents?.attach(this);
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
    };
  }

  currentModel(): ModelRef | null {
    return this.model;
  }

  /**
   * Sends a user message. While a turn runs it is a follow-up (the next turn)
   * or, with `steer`, joins this turn at its next tool boundary (turn-queues.ts).
   * `askEach` (a reason): the turn this message starts asks for every side
   * effect not denied, whatever rules allow (headless --approve none / read-only).
   */
  send(
    text: string,
    images: ImageContent[] = [],
    attachments: { type: "text"; text: string }[] = [],
    opts: { askEach?: string; steer?: boolean } = {},
  ): { queued: boolean } {
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
    this.running = this.runTurn(message, opts.askEach).finally(() => {
      this.running = null;
    });
    return { queued: false };
  }

  /** Resolves when the current turn (if any) has finished. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  abort(): void {
    this.queues.clear();
    this.controller?.abort();
    this.gate.abort();
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
  async instructionFiles(): Promise<Pick<LoadedInstructions, "files" | "skipped">> {
    await this.refreshInstructions();
    return { files: this.instructions.files, skipped: this.instructions.skipped };
  }

  private async refreshInstructions(): Promise<void> {
    if (!this.deps.instructions) return;
    const key = [...this.touched].join("\u0000");
    if (key === this.instructionsFor) return;
    // The loader treats unreadable files as absent; only a bug throws here, and it must not stop the turn.
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
    if (this.journal.entries.some((e) => e.entry.type === "message")) {
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

  private async runTurn(first: UserMessage, askEach?: string): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.status = "running";
    this.emitState();
    this.journal.appendMessage(first);
    try {
      // MCP servers still starting, and the AGENTS.md files (read again each turn: the user may have edited them).
      await this.deps.prepareTools?.();
      this.instructionsFor = null;
      await this.refreshInstructions();
      this.deps.tools.beginTurn(askEach ? { askEach } : {});
      this.turnCheckpointed = false;
      // The runtime, and so its specs, stay the same for the whole turn.
      this.turnTools = this.deps.tools.specs();
      await this.loop(controller.signal);
    } catch (err) {
      // A bug in the loop must not take the host down; store it as the turn's outcome, show it and go idle.
      this.failTurn(`internal error: ${errorText(err)}`);
    } finally {
      this.gate.clear();
      this.settleQueues();
      this.controller = null;
      this.status = "idle";
      this.emitState();
      this.deps.emit("stream.end", { sessionId: this.sessionId });
    }
    // Follow-ups (and steering messages no boundary took) start a new turn each.
    const next = this.queues.nextFollowUp();
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

      if (!compactedThisTurn && contextTokens(this.journal.history) > resolved.model.contextWindow * COMPACT_AT_SHARE) {
        compactedThisTurn = true;
        if (!(await this.compact(resolved, signal))) return;
      }

      const message = await requestWithRetries(this.requestHost, resolved, signal, () => {
        if (compactedThisTurn) return false;
        compactedThisTurn = true;
        return true;
      });
      if (message === "compactAndRetry") {
        if (!(await this.compact(resolved, signal))) return;
        continue;
      }
      this.journal.appendMessage(message);
      const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");

      if (message.stopReason === "aborted") {
        this.journal.appendSynthesized(calls, "aborted", "aborted: the user stopped the turn before this tool call ran");
        return;
      }
      if (message.stopReason === "error") {
        this.journal.appendSynthesized(calls, "error", "error: the response failed before this tool call could run");
        this.deps.emit("turn.error", { sessionId: this.sessionId, message: message.errorMessage ?? "the provider returned an error" });
        return;
      }

      if (calls.length > 0) {
        const before = this.touched.size;
        for (const path of touchedPaths([{ seq: 0, entry: { type: "message", message } }])) this.touched.add(path);
        const finished = await runToolBatch(this.toolHost, calls, signal);
        // A file in a new folder: that folder's AGENTS.md applies from the next request.
        if (this.touched.size !== before) await this.refreshInstructions();
        if (!finished) return;
        this.deliverAtBoundary();
        continue;
      }

      if (message.stopReason === "length") {
        if (!compactedThisTurn && contextTokens(this.journal.history) > resolved.model.contextWindow * 0.7) {
          compactedThisTurn = true;
          if (!(await this.compact(resolved, signal))) return;
          continue;
        }
        if (!askedToContinue) {
          askedToContinue = true;
          this.journal.appendMessage({ role: "user", content: [{ type: "text", text: CONTINUE_PROMPT }], timestamp: this.deps.now() });
          continue;
        }
      }
      // A steering message asks for an answer: the turn goes on. Follow-ups wait for the turn's end.
      if (this.deliverAtBoundary()) continue;
      return;
    }
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
      this.journal.appendMessage(failedRequest(this.model ?? NO_MODEL, message, this.deps.now()));
    } catch {
      // The store itself failing: the event below still tells the user.
    }
    this.deps.emit("turn.error", { sessionId: this.sessionId, message });
  }

  private buildContext(resolved: ResolvedModel): LlmContext {
    return this.contexts.build({
      model: resolved.model,
      now: this.deps.now(),
      tools: (this.turnTools ??= this.deps.tools.specs()),
      mode: this.mode,
      instructions: this.instructions.text,
      history: this.journal.history,
    });
  }

  private get requestHost(): RequestHost {
    return {
      deps: this.deps,
      sessionId: this.sessionId,
      context: (resolved) => this.buildContext(resolved),
      reasoning: () => this.reasoning,
      resolveCurrent: () => this.resolveCurrentModel(),
      record: (message) => this.journal.appendMessage(message),
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

  // ------------------------------------------------------------ compaction

  private async compact(resolved: ResolvedModel, signal: AbortSignal): Promise<boolean> {
    const result = await compactHistory({
      entries: this.journal.entries,
      resolved,
      signal,
      stream: (resolved, context, options) => this.deps.stream(resolved, context, options),
      now: () => this.deps.now(),
      survivors: compactionSurvivors(this.journal.entries),
    });
    if (result.kind === "nothing") return true;
    if (result.kind === "failed") {
      this.failTurn(`compaction failed: ${result.error}`);
      return false;
    }
    this.journal.append(result.entry);
    return true;
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

  private emitState(): void {
    this.deps.emit("turn.state", this.turnState());
  }
}
