/**
 * The message an adapter is building while a stream runs, and the neutral
 * events that describe each change.
 *
 * Every event carries a fresh snapshot (`partial`): blocks are replaced, never
 * mutated, so a consumer may keep an older partial (to render it on the next
 * frame) without it changing under its feet. Snapshots share what did not
 * change (blocks, usage, the model reference), which is never mutated either.
 *
 * While a tool call streams, its block carries `arguments: {}` and the text so
 * far in `rawArguments`; the final block carries parsed `arguments`, and
 * `rawArguments` + `argumentsError` only when the text is unusable.
 */
import type {
  AssistantContent,
  AssistantMessage,
  Cost,
  StopDetails,
  StopReason,
  ThinkingContent,
  ToolCall,
  Usage,
} from "../../../../shared/protocol";
import type { ModelInfo } from "../../../../shared/models";
import type { StreamEvent } from "../types";
import type { ProviderFailure } from "./errors";
import { finalizeToolArguments } from "./tool-args";

export type TokenCounts = Omit<Usage, "cost" | "totalTokens">;
export type CostFunction = (model: ModelInfo, usage: TokenCounts) => Cost;

interface OpenToolCall {
  raw: string;
}

export class StreamState {
  private content: AssistantContent[] = [];
  /** Indices of blocks that have started and not ended; tool calls keep their raw text. */
  private readonly open = new Map<number, OpenToolCall | null>();
  private tokens: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  /** Usage (with its cost) for the current token counts, computed when first needed after they change. */
  private usage: Usage | null = null;
  private readonly modelRef: AssistantMessage["model"];
  private responseId: string | undefined;
  private stopDetails: StopDetails | undefined;
  private readonly timestamp: number;

  constructor(
    private readonly model: ModelInfo,
    private readonly costOf: CostFunction,
    now: number = Date.now(),
  ) {
    this.timestamp = now;
    this.modelRef = { provider: model.provider, api: model.api, id: model.id };
  }

  start(): StreamEvent {
    return { type: "start", partial: this.snapshot("stop") };
  }

  setResponseId(id: string | undefined): void {
    if (id) this.responseId = id;
  }

  /** Replaces the token counts with those given (providers report cumulative numbers). */
  setUsage(counts: Partial<TokenCounts>): void {
    const tokens: TokenCounts = {
      input: counts.input ?? this.tokens.input,
      output: counts.output ?? this.tokens.output,
      cacheRead: counts.cacheRead ?? this.tokens.cacheRead,
      cacheWrite: counts.cacheWrite ?? this.tokens.cacheWrite,
    };
    const reasoning = counts.reasoningTokens ?? this.tokens.reasoningTokens;
    if (reasoning !== undefined) tokens.reasoningTokens = reasoning;
    this.tokens = tokens;
    this.usage = null;
  }

  /** The provider's details of why it stopped (a refusal's category and explanation), kept on the final message. */
  setStopDetails(details: StopDetails | undefined): void {
    this.stopDetails = details;
  }

  /** True once any block has started (a restarted message can no longer be told apart from the first). */
  hasContent(): boolean {
    return this.content.length > 0;
  }

  hasToolCalls(): boolean {
    return this.content.some((b) => b.type === "toolCall");
  }

  isOpen(index: number): boolean {
    return this.open.has(index);
  }

  blockType(index: number): AssistantContent["type"] | undefined {
    return this.content[index]?.type;
  }

  // ------------------------------------------------------------ text

  startText(): { index: number; event: StreamEvent } {
    const index = this.push({ type: "text", text: "" }, null);
    return { index, event: { type: "textStart", index, partial: this.snapshot("stop") } };
  }

  appendText(index: number, delta: string): StreamEvent {
    const block = this.content[index];
    if (block?.type === "text") this.replace(index, { ...block, text: block.text + delta });
    return { type: "textDelta", index, delta, partial: this.snapshot("stop") };
  }

  // ------------------------------------------------------------ thinking

  startThinking(initial: Partial<ThinkingContent> = {}): { index: number; event: StreamEvent } {
    const index = this.push({ type: "thinking", thinking: "", ...initial }, null);
    return { index, event: { type: "thinkingStart", index, partial: this.snapshot("stop") } };
  }

  appendThinking(index: number, delta: string): StreamEvent {
    const block = this.content[index];
    if (block?.type === "thinking") this.replace(index, { ...block, thinking: block.thinking + delta });
    return { type: "thinkingDelta", index, delta, partial: this.snapshot("stop") };
  }

  /** Signatures are stored byte for byte: they are only valid unmodified. */
  setThinkingSignature(index: number, signature: string, mode: "append" | "set" = "set"): void {
    const block = this.content[index];
    if (block?.type !== "thinking") return;
    const next = mode === "append" ? (block.signature ?? "") + signature : signature;
    this.replace(index, { ...block, signature: next });
  }

  /** Replaces the thinking text (a provider's authoritative final text). */
  setThinkingText(index: number, thinking: string): void {
    const block = this.content[index];
    if (block?.type === "thinking") this.replace(index, { ...block, thinking });
  }

  // ------------------------------------------------------------ tool calls

  startToolCall(id: string, name: string): { index: number; event: StreamEvent } {
    const index = this.push({ type: "toolCall", id, name, arguments: {}, rawArguments: "" }, { raw: "" });
    return { index, event: { type: "toolCallStart", index, id, name, partial: this.snapshot("stop") } };
  }

  appendToolArguments(index: number, delta: string): StreamEvent {
    const open = this.open.get(index);
    const block = this.content[index];
    if (open && block?.type === "toolCall") {
      open.raw += delta;
      this.replace(index, { ...block, rawArguments: open.raw });
    }
    return { type: "toolCallDelta", index, delta, partial: this.snapshot("stop") };
  }

  /** Replaces the streamed argument text with the provider's authoritative final text. */
  setToolArguments(index: number, raw: string): void {
    const open = this.open.get(index);
    if (open) open.raw = raw;
  }

  setToolName(index: number, name: string): void {
    const block = this.content[index];
    if (block?.type === "toolCall" && name) this.replace(index, { ...block, name });
  }

  // ------------------------------------------------------------ ending blocks

  /** Ends a block; a tool call gets its strict final parse here. */
  endBlock(index: number, incomplete?: "length" | "aborted" | "error"): StreamEvent | null {
    if (!this.open.has(index)) return null;
    const open = this.open.get(index);
    this.open.delete(index);
    const block = this.content[index];
    if (block === undefined) return null;
    if (block.type === "toolCall") {
      const parsed = finalizeToolArguments(open?.raw ?? "", { incomplete });
      const toolCall: ToolCall = { type: "toolCall", id: block.id, name: block.name, ...parsed };
      this.replace(index, toolCall);
      return { type: "toolCallEnd", index, toolCall, partial: this.snapshot("stop") };
    }
    const type = block.type === "text" ? "textEnd" : "thinkingEnd";
    return { type, index, partial: this.snapshot("stop") };
  }

  /** Ends every open block, in order. */
  endAll(incomplete?: "length" | "aborted" | "error"): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const index of [...this.open.keys()].sort((a, b) => a - b)) {
      const event = this.endBlock(index, incomplete);
      if (event) events.push(event);
    }
    return events;
  }

  // ------------------------------------------------------------ final events

  /** The stream completed: close blocks and emit `done` (or `error` for refusals and filters). */
  finish(stopReason: StopReason, errorMessage?: string): StreamEvent[] {
    const events = this.endAll(stopReason === "length" ? "length" : undefined);
    if (stopReason === "length") this.relabelTruncatedLastCall();
    if (stopReason === "error" || stopReason === "aborted") {
      const message = this.final(stopReason, errorMessage);
      events.push({ type: "error", message, retryable: false });
      return events;
    }
    events.push({ type: "done", message: this.final(stopReason) });
    return events;
  }

  /** The stream failed or was aborted: keep what arrived, close it as incomplete. */
  fail(failure: ProviderFailure | "aborted"): StreamEvent[] {
    if (failure === "aborted") {
      const events = this.endAll("aborted");
      events.push({ type: "error", message: this.final("aborted", "aborted"), retryable: false });
      return events;
    }
    const events = this.endAll("error");
    const event: StreamEvent = {
      type: "error",
      message: this.final("error", failure.message),
      retryable: failure.retryable,
      contextOverflow: failure.contextOverflow,
    };
    if (failure.status !== undefined) event.status = failure.status;
    if (failure.retryAfterMs !== undefined) event.retryAfterMs = failure.retryAfterMs;
    events.push(event);
    return events;
  }

  /**
   * Providers close the last block before they say why the output stopped, so
   * a tool call cut by max tokens was parsed as merely "invalid JSON". Say
   * what actually happened.
   */
  private relabelTruncatedLastCall(): void {
    const index = this.content.length - 1;
    const last = this.content[index];
    if (last?.type !== "toolCall" || last.argumentsError === undefined || last.rawArguments === undefined) return;
    this.replace(index, { ...last, ...finalizeToolArguments(last.rawArguments, { incomplete: "length" }) });
  }

  private final(stopReason: StopReason, errorMessage?: string): AssistantMessage {
    const message = this.snapshot(stopReason);
    // Thinking with neither text nor signature, and empty text (an output part the provider opened and
    // left empty, as Responses does beside an image call), carry nothing worth storing.
    message.content = message.content.filter((b) =>
      b.type === "thinking" ? b.thinking !== "" || Boolean(b.signature) : b.type !== "text" || b.text !== "",
    );
    if (errorMessage !== undefined) message.errorMessage = errorMessage;
    if (this.stopDetails !== undefined) message.stopDetails = this.stopDetails;
    return message;
  }

  private snapshot(stopReason: StopReason): AssistantMessage {
    const message: AssistantMessage = {
      role: "assistant",
      content: this.content.slice(),
      stopReason,
      model: this.modelRef,
      usage: (this.usage ??= this.usageNow()),
      timestamp: this.timestamp,
    };
    if (this.responseId !== undefined) message.responseId = this.responseId;
    return message;
  }

  private usageNow(): Usage {
    const { input, output, cacheRead, cacheWrite, reasoningTokens } = this.tokens;
    const usage: Usage = {
      input,
      output,
      cacheRead,
      cacheWrite,
      totalTokens: input + output + cacheRead + cacheWrite,
      cost: this.costOf(this.model, this.tokens),
    };
    if (reasoningTokens !== undefined) usage.reasoningTokens = reasoningTokens;
    return usage;
  }

  private push(block: AssistantContent, open: OpenToolCall | null): number {
    this.content.push(block);
    const index = this.content.length - 1;
    this.open.set(index, open);
    return index;
  }

  private replace(index: number, block: AssistantContent): void {
    this.content[index] = block;
  }
}
