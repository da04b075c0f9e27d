/**
 * Entry point of the provider layer: one adapter per wire API, chosen from
 * the model's declared `api` (never from its id).
 */
import type { Api } from "../../../shared/protocol";
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import { anthropicAdapter, createAnthropicAdapter } from "./adapters/anthropic";
import type { AdapterConfig } from "./adapters/common";
import { createOpenAICompletionsAdapter, openaiCompletionsAdapter } from "./adapters/openai-completions";
import { createOpenAIResponsesAdapter, openaiResponsesAdapter } from "./adapters/openai-responses";
import type { LlmContext, ProviderAdapter, StreamEvent, StreamOptions } from "./types";

const ADAPTERS: Record<Api, ProviderAdapter> = {
  "anthropic-messages": anthropicAdapter,
  "openai-completions": openaiCompletionsAdapter,
  "openai-responses": openaiResponsesAdapter,
};

export function getAdapter(api: Api): ProviderAdapter {
  return ADAPTERS[api];
}

/** A fresh adapter with its own settings (e.g. a short idle timeout in tests). */
export function createAdapter(api: Api, config: AdapterConfig): ProviderAdapter {
  if (api === "anthropic-messages") return createAnthropicAdapter(config);
  if (api === "openai-completions") return createOpenAICompletionsAdapter(config);
  return createOpenAIResponsesAdapter(config);
}

export type { AdapterConfig } from "./adapters/common";

/** Streams one model response. Contract: never throws; ends with one `done` or `error` event. */
export function streamModel(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options: StreamOptions,
): AsyncIterable<StreamEvent> {
  return getAdapter(model.api).stream(model, provider, context, options);
}

export type { LlmContext, ProviderAdapter, StreamEvent, StreamOptions, ToolChoice, ToolSpec } from "./types";
