/**
 * OpenAI Chat Completions adapter (streaming, over our own transport), also used for
 * OpenAI-compatible servers (Ollama, LM Studio, vLLM, OpenRouter, Mistral,
 * Groq, DeepSeek) with their quirks read from the Compat flags, never guessed
 * from the model id.
 */
import { randomUUID } from "node:crypto";
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { StopReason } from "../../../../shared/protocol";
import type { LlmContext, ProviderAdapter, StreamOptions } from "../types";
import { postSse } from "../http";
import { bodyText } from "../requests/json-body";
import { runStream, throwIfStopped, TruncatedStreamError, type AdapterConfig, type RunContext } from "./common";
import { appToolName, buildOpenAICompletionsRequest, buildOpenAICompletionsRequestJson, computeCost, resolveCompat } from "./deps";
import type { TokenCounts } from "./stream-state";
import { isCompletionsChunk, type CompletionsUsage } from "./openai-completions-chunks";
import { OpenAIEventReader, openaiHeaders, openaiUrl } from "./wire";

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
  return runStream(model, computeCost, options, config, async function* ({ state, signal, alive }: RunContext) {
    const compat = resolveCompat(model, provider);
    // The body as chunks, built from the previous request of this history (see requests/json-body.ts).
    const { chunks: body, toolNames } = buildOpenAICompletionsRequestJson(model, provider, context, options);
    if (options.onRequestBody) options.onRequestBody(JSON.parse(bodyText(body)));
    const response = await postSse({ url: openaiUrl(provider, options, "/chat/completions"), headers: openaiHeaders(options), body, signal });
    const reader = new OpenAIEventReader(response.headers);

    /** Which of our blocks is receiving text or reasoning right now. */
    let textIndex: number | null = null;
    let thinkingIndex: number | null = null;
    /** Wire tool_calls[].index → our content index. */
    const toolIndex = new Map<number, number>();
    let finishReason: string | null = null;
    let refusal = "";

    const closeTextual = function* () {
      for (const index of [textIndex, thinkingIndex]) {
        const ended = index === null ? null : state.endBlock(index);
        if (ended) yield ended;
      }
      textIndex = null;
      thinkingIndex = null;
    };

    for await (const sse of response.events) {
      alive();
      const raw = reader.data(sse);
      if (raw === undefined) continue; // after [DONE]
      if (!isCompletionsChunk(raw)) continue;
      const chunk = raw;
      state.setResponseId(chunk.id);
      if (chunk.usage) state.setUsage(usageOf(chunk.usage));
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta;
      const reasoning =
        compat.reasoningField === "reasoning_content" ? delta?.reasoning_content : compat.reasoningField === "reasoning" ? delta?.reasoning : null;
      if (reasoning) {
        if (thinkingIndex === null) {
          yield* closeTextual();
          const started = state.startThinking();
          thinkingIndex = started.index;
          yield started.event;
        }
        yield state.appendThinking(thinkingIndex, reasoning);
      }
      if (delta?.content) {
        if (textIndex === null) {
          yield* closeTextual();
          const started = state.startText();
          textIndex = started.index;
          yield started.event;
        }
        yield state.appendText(textIndex, delta.content);
      }
      if (delta?.refusal) refusal += delta.refusal;
      for (const [position, call] of (delta?.tool_calls ?? []).entries()) {
        const wireIndex = call.index ?? position;
        let index = toolIndex.get(wireIndex);
        if (index === undefined) {
          yield* closeTextual();
          // A server that sends no id (or the string "null") still needs a stable one for the result.
          const id = call.id && call.id !== "null" ? call.id : `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
          const started = state.startToolCall(id, appToolName(toolNames, call.function?.name ?? ""));
          index = started.index;
          toolIndex.set(wireIndex, index);
          yield started.event;
        } else if (call.function?.name) {
          state.setToolName(index, appToolName(toolNames, call.function.name));
        }
        if (call.function?.arguments) yield state.appendToolArguments(index, call.function.arguments);
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    throwIfStopped(signal);
    if (finishReason === null) throw new TruncatedStreamError("a finish_reason");
    if (refusal) {
      return state.finish("error", `refusal: ${refusal}`);
    }
    const { stopReason, errorMessage } = mapCompletionsFinishReason(finishReason, state.hasToolCalls());
    return state.finish(stopReason, errorMessage);
  });
}

export function createOpenAICompletionsAdapter(config: AdapterConfig = {}): ProviderAdapter {
  return {
    api: "openai-completions",
    stream: (model, provider, context, options) => streamCompletions(config, model, provider, context, options),
    buildRequestBody(model, provider, context, options = {}) {
      return buildOpenAICompletionsRequest(model, provider, context, options).body;
    },
  };
}

export const openaiCompletionsAdapter: ProviderAdapter = createOpenAICompletionsAdapter();
