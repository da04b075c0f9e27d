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
import { isCompletionsChunk, type CompletionsToolCallDelta, type CompletionsUsage } from "./openai-completions-chunks";

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

function usageOf(raw: CompletionsUsage): Partial<TokenCounts> {
  const prompt = raw.prompt_tokens ?? 0;
  const cached = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens ?? 0;
  return { input: Math.max(0, prompt - cached), cacheRead: cached, output: raw.completion_tokens ?? 0, cacheWrite: 0 };
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
      if (reasoning) {
        if (this.thinkingIndex === null) {
          this.closeTextual(out);
          const started = state.startThinking();
          this.thinkingIndex = started.index;
          out.push(started.event);
        }
        out.push(state.appendThinking(this.thinkingIndex, reasoning));
      }
      if (delta.content) {
        if (this.textIndex === null) {
          this.closeTextual(out);
          const started = state.startText();
          this.textIndex = started.index;
          out.push(started.event);
        }
        out.push(state.appendText(this.textIndex, delta.content));
      }
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
