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
import { isStorageFailure } from "../store";
import { SessionJournal, errorText, turnFailureText } from "./session-journal";
import { RequestContextBuilder } from "./request-context";
import { runToolBatch, type ToolBatchHost } from "./tool-batch";

export type { AnswerRefusal, UserDecision } from "./approval-gate";

export const CONTINUE_PROMPT =
  "[Agent Workbench] Your last response was cut off at the output token limit. Continue from where you stopped, or wrap up briefly.";

/** The model an error entry names when the session has none (no model configured at all). */
const NO_MODEL: ModelRef = { provider: "none", api: "anthropic-messages", id: "none" };

export class SessionAgent {
  private status: TurnState["status"] = "idle";
  private readonly queue: UserMessage[] = [];
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
  }

  // ------------------------------------------------------------ public API

  turnState(): TurnState {
    return {
      sessionId: this.sessionId,
      mode: this.mode,
      status: this.status,
      queued: this.queue.map((m) => textOf(m)),
      pendingApproval: this.gate.pending(),
    };
  }

  currentModel(): ModelRef | null {
    return this.model;
  }

  /**
   * Sends a user message; queued when a turn is running. `askEach` (a reason):
   * the turn this message starts asks for every side effect not denied,
   * whatever rules allow (headless --approve none / read-only).
   * When idle the message is saved before the turn starts; a store that
   * refuses it (disk full, locked, read-only) leaves the session idle and
   * answers `notSaved` with the reason in plain words: nothing ran, the
   * caller still holds the message and sends it again (Retry).
   */
  send(
    text: string,
    images: ImageContent[] = [],
    attachments: { type: "text"; text: string }[] = [],
    opts: { askEach?: string } = {},
  ): { queued: boolean; notSaved?: string } {
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
    // Messages left queued by a turn whose store failed go first, in order.
    this.queue.push(message);
    const notSaved = this.saveQueued();
    if (notSaved !== null) {
      if (this.queue.at(-1) === message) this.queue.pop();
      this.emitState();
      return { queued: false, notSaved };
    }
    this.startTurn(opts.askEach);
    return { queued: false };
  }

  /** Saves the queued messages in order, each leaving the queue once stored; the failure's words, or null. */
  private saveQueued(): string | null {
    try {
      while (this.queue.length > 0) {
        this.journal.appendMessage(this.queue[0]);
        this.queue.shift();
      }
      return null;
    } catch (err) {
      return turnFailureText(err);
    }
  }

  private startTurn(askEach?: string): void {
    this.running = this.runTurn(askEach)
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
    this.queue.length = 0;
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

  /** The instruction files in the last system prompt (loads them when no turn has yet). */
  async instructionFiles(): Promise<LoadedInstructions["files"]> {
    await this.refreshInstructions();
    return this.instructions.files;
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

  /** Runs a turn on the stored history (its user message is saved already). */
  private async runTurn(askEach?: string): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.status = "running";
    this.emitState();
    let storeFailed = false;
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
      // A store that refused a write, or a bug in the loop, must not take the host down:
      // store it as the turn's outcome when the store still takes it, show it and go idle.
      storeFailed = isStorageFailure(err);
      // A store that just refused a write is not asked again (a held lock would cost another busy timeout).
      this.failTurn(turnFailureText(err), !storeFailed);
    } finally {
      this.gate.clear();
      this.controller = null;
      this.status = "idle";
      this.emitState();
      this.deps.emit("stream.end", { sessionId: this.sessionId });
    }
    // Messages that arrived after the last request of the turn start a new turn; one the store
    // refuses stays queued (shown in the turn state) until the next send saves it first.
    if (this.queue.length === 0 || storeFailed) return;
    const notSaved = this.saveQueued();
    if (notSaved !== null) {
      this.deps.emit("turn.error", { sessionId: this.sessionId, message: notSaved });
      this.emitState();
      return;
    }
    this.running = this.runTurn();
    await this.running;
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
        this.deliverQueued();
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
      if (this.deliverQueued()) continue;
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
  private failTurn(message: string, store = true): void {
    try {
      if (store) this.journal.appendMessage(failedRequest(this.model ?? NO_MODEL, message, this.deps.now()));
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
      record: (message) => this.journal.appendFailedAttempt(message),
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

  private deliverQueued(): boolean {
    if (this.queue.length === 0) return false;
    // Each leaves the queue once stored: a store that fails keeps the rest queued (runTurn's catch reports it).
    while (this.queue.length > 0) {
      this.journal.appendMessage(this.queue[0]);
      this.queue.shift();
    }
    this.emitState();
    return true;
  }

  private emitState(): void {
    this.deps.emit("turn.state", this.turnState());
  }
}

function textOf(message: UserMessage): string {
  return message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n");
}
