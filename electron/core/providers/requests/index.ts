/**
 * The request side's entry points: one pure builder per wire API, and a
 * dispatcher on `model.api`.
 */
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, StreamOptions } from "../types";
import { buildAnthropicRequest } from "./anthropic";
import type { BuiltRequest } from "./common";
import { buildOpenAICompletionsRequest } from "./openai-completions";
import { buildOpenAIResponsesRequest } from "./openai-responses";

export { buildAnthropicRequest, type AnthropicRequestBody } from "./anthropic";
export { buildOpenAICompletionsRequest, type OpenAICompletionsRequestBody } from "./openai-completions";
export { buildOpenAIResponsesRequest, type OpenAIResponsesRequestBody } from "./openai-responses";
export type { BuiltRequest } from "./common";

/** The exact body for `model.api`, with the per-request id and tool-name maps. */
export function buildRequest(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options?: Partial<StreamOptions>,
): BuiltRequest<unknown> {
  switch (model.api) {
    case "anthropic-messages":
      return buildAnthropicRequest(model, provider, context, options);
    case "openai-completions":
      return buildOpenAICompletionsRequest(model, provider, context, options);
    case "openai-responses":
      return buildOpenAIResponsesRequest(model, provider, context, options);
  }
}

/** Just the body (what `ProviderAdapter.buildRequestBody` returns). */
export function buildRequestBody(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options?: Partial<StreamOptions>,
): unknown {
  return buildRequest(model, provider, context, options).body;
}
