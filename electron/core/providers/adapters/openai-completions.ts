/**
 * OpenAI Chat Completions adapter (`openai`'s client, streaming), also used for
 * OpenAI-compatible servers (Ollama, LM Studio, vLLM, OpenRouter, Mistral,
 * Groq, DeepSeek) with their quirks read from the Compat flags, never guessed
 * from the model id.
 */
import { randomUUID } from "node:crypto";
import type { Compat, ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { StopReason } from "../../../../shared/protocol";
import type { LlmContext, ProviderAdapter, StreamEvent, StreamOptions } from "../types";
import { defineAdapter, runStream, TruncatedStreamError, type AdapterConfig, type ResponseReader, type RunContext } from "./common";
import { appToolName, buildOpenAICompletionsRequest, openaiClient } from "./deps";
import type { StreamState, TokenCounts } from "./stream-state";
import {
  isCompletionsChunk,
  type CompletionsContentPart,
  type CompletionsToolCallDelta,
  type CompletionsUsage,
} from "./openai-completions-chunks";

function isTextPart(value: unknown): value is { text: string } {
  return typeof value === "object" && value !== null && typeof (value as { text?: unknown }).text === "string";
}

export function mapCompletionsFinishReason(reason: string, hasToolCalls: boolean): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case "stop":
    case "end_turn":
      // Some compatible servers (Ollama, vLLM) say "stop" after tool calls.
      return { stopReason: hasToolCalls ? "toolUse" : "stop" };
    case "tool_calls":
    case "function_call":
      return { stopReason: "toolUse" };
    case "length":
    case "model_length":
      return { stopReason: "length" };
    case "content_filter":
      return { stopReason: "error", errorMessage: "content_filter: the provider's content filter stopped the response" };
    default:
      return { stopReason: "error", errorMessage: `unexpected finish_reason: ${reason}` };
  }
}

/**
 * OpenAI counts reasoning inside `completion_tokens`; some compatible servers
 * (xAI) count it beside them, so that total = prompt + completion + reasoning.
 * The total tells which: reasoning outside the completion is added to output,
 * where it is billed.
 */
export function usageOf(raw: CompletionsUsage): Partial<TokenCounts> {
  const prompt = raw.prompt_tokens ?? 0;
  const cached = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens ?? 0;
  const completion = raw.completion_tokens ?? 0;
  const reasoning = raw.completion_tokens_details?.reasoning_tokens ?? undefined;
  const outside = reasoning !== undefined && reasoning > 0 && raw.total_tokens === prompt + completion + reasoning;
  const counts: Partial<TokenCounts> = {
    input: Math.max(0, prompt - cached),
    cacheRead: cached,
    output: outside ? completion + reasoning : completion,
    cacheWrite: 0,
  };
  if (reasoning !== undefined) counts.reasoningTokens = reasoning;
  return counts;
}

function streamCompletions(config: AdapterConfig, model: ModelInfo, provider: ProviderConfig, context: LlmContext, options: StreamOptions) {
  return runStream(config, model, provider, options, async ({ state, signal, shared, fetchOptions }: RunContext) => {
    const { body, toolNames, compat } = buildOpenAICompletionsRequest(model, provider, context, options);
    options.onRequestBody?.(body);
    // The SDK stops at `data: [DONE]` and throws a chunk carrying `error` as an APIError.
    const events = await shared("openai", openaiClient).chat.completions.create(body, { signal, fetchOptions });
    return new CompletionsReader(state, events, toolNames, compat.reasoningField);
  });
}

class CompletionsReader implements ResponseReader {
  /** Which of our blocks is receiving text or reasoning right now. */
  private textIndex: number | null = null;
  private thinkingIndex: number | null = null;
  /** Wire tool_calls[].index → our content index. */
  private readonly toolIndex = new Map<number, number>();
  private finishReason: string | null = null;
  private refusal = "";

  constructor(
    private readonly state: StreamState,
    readonly events: AsyncIterable<unknown>,
    private readonly toolNames: Record<string, string>,
    private readonly reasoningField: Compat["reasoningField"],
  ) {}

  onEvent(chunk: unknown, out: StreamEvent[]): void {
    // Checked by hand: compatible servers send what the SDK's types do not promise.
    if (!isCompletionsChunk(chunk)) return;
    const { state } = this;
    state.setResponseId(chunk.id);
    if (chunk.usage) state.setUsage(usageOf(chunk.usage));
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta;
    if (delta) {
      const reasoning =
        this.reasoningField === "reasoning_content"
          ? delta.reasoning_content
          : this.reasoningField === "reasoning"
            ? delta.reasoning
            : null;
      if (reasoning) this.onReasoning(reasoning, out);
      if (typeof delta.content === "string") this.onText(delta.content, out);
      else if (delta.content) for (const part of delta.content) this.onContentPart(part, out);
      if (delta.refusal) this.refusal += delta.refusal;
      const calls = delta.tool_calls;
      if (calls) for (let position = 0; position < calls.length; position++) this.onToolCall(calls[position], position, out);
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  finish(): StreamEvent[] {
    if (this.finishReason === null) throw new TruncatedStreamError("a finish_reason");
    if (this.refusal) return this.state.finish("error", `refusal: ${this.refusal}`);
    const { stopReason, errorMessage } = mapCompletionsFinishReason(this.finishReason, this.state.hasToolCalls());
    return this.state.finish(stopReason, errorMessage);
  }

  private onText(text: string, out: StreamEvent[]): void {
    if (text === "") return;
    if (this.textIndex === null) {
      this.closeTextual(out);
      const started = this.state.startText();
      this.textIndex = started.index;
      out.push(started.event);
    }
    out.push(this.state.appendText(this.textIndex, text));
  }

  private onReasoning(text: string, out: StreamEvent[]): void {
    if (this.thinkingIndex === null) {
      this.closeTextual(out);
      const started = this.state.startThinking();
      this.thinkingIndex = started.index;
      out.push(started.event);
    }
    out.push(this.state.appendThinking(this.thinkingIndex, text));
  }

  /** Magistral's typed chunks: text, and thinking whose text is a list of text parts (or a string). */
  private onContentPart(part: CompletionsContentPart, out: StreamEvent[]): void {
    if (part.type === "text" && part.text !== undefined) this.onText(part.text, out);
    else if (part.type === "thinking") {
      const inner = part.thinking;
      const text =
        typeof inner === "string" ? inner : Array.isArray(inner) ? inner.map((p: unknown) => (isTextPart(p) ? p.text : "")).join("") : "";
      if (text !== "") this.onReasoning(text, out);
    }
  }

  private onToolCall(call: CompletionsToolCallDelta, position: number, out: StreamEvent[]): void {
    const { state } = this;
    const wireIndex = call.index ?? position;
    let index = this.toolIndex.get(wireIndex);
    if (index === undefined) {
      this.closeTextual(out);
      // A server that sends no id (or the string "null") still needs a stable one for the result.
      const id = call.id && call.id !== "null" ? call.id : `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
      const started = state.startToolCall(id, appToolName(this.toolNames, call.function?.name ?? ""));
      index = started.index;
      this.toolIndex.set(wireIndex, index);
      out.push(started.event);
    } else if (call.function?.name) {
      state.setToolName(index, appToolName(this.toolNames, call.function.name));
    }
    if (call.function?.arguments) out.push(state.appendToolArguments(index, call.function.arguments));
  }

  /** Text and reasoning end when something else starts (text first, as the wire order has it). */
  private closeTextual(out: StreamEvent[]): void {
    for (const index of [this.textIndex, this.thinkingIndex]) {
      const ended = index === null ? null : this.state.endBlock(index);
      if (ended) out.push(ended);
    }
    this.textIndex = null;
    this.thinkingIndex = null;
  }
}

export function createOpenAICompletionsAdapter(config: AdapterConfig = {}): ProviderAdapter {
  return defineAdapter("openai-completions", config, streamCompletions, buildOpenAICompletionsRequest);
}

export const openaiCompletionsAdapter: ProviderAdapter = createOpenAICompletionsAdapter();
