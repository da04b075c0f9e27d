/**
 * Strict request validators, one per wire API (used by the faux provider on
 * every request, and by the property tests against the request builders).
 */
import type { Api } from "../../../../shared/protocol";
import { validateAnthropicRequest } from "./anthropic";
import type { ProviderRejection, ValidateContext } from "./common";
import { validateOpenAICompletionsRequest } from "./openai-completions";
import { validateOpenAIResponsesRequest } from "./openai-responses";
import { validateGeminiRequest } from "./gemini";
import { validateBedrockRequest } from "./bedrock";

export { validateAnthropicRequest } from "./anthropic";
export { validateOpenAICompletionsRequest } from "./openai-completions";
export { validateOpenAIResponsesRequest } from "./openai-responses";
export { validateGeminiRequest } from "./gemini";
export { validateBedrockRequest } from "./bedrock";
export type { ProviderRejection, ValidateContext } from "./common";

export function validateRequest(api: Api, body: unknown, ctx: ValidateContext = {}): ProviderRejection | null {
  switch (api) {
    case "anthropic-messages":
      return validateAnthropicRequest(body, ctx);
    case "openai-completions":
      return validateOpenAICompletionsRequest(body, ctx);
    case "openai-responses":
      return validateOpenAIResponsesRequest(body, ctx);
    case "google-generative-ai":
      return validateGeminiRequest(body, ctx);
    case "bedrock-converse-stream":
      return validateBedrockRequest(body, ctx);
  }
}
