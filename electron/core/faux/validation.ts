/**
 * Every request the faux provider receives is judged by the strict validators
 * of the real providers' rules (electron/core/providers/validate): what the
 * real provider would reject is rejected here, with its status and error body.
 */
import {
  validateAnthropicRequest,
  validateOpenAICompletionsRequest,
  validateOpenAIResponsesRequest,
  validateGeminiRequest,
  validateBedrockRequest,
} from "../providers/validate";
import type { FauxRejection, FauxRoute } from "./types";

export interface ValidationContext {
  /** The model that issued a signature (thinking, redacted data, encrypted reasoning), if this server issued it. */
  signatureOwner: (signature: string) => string | undefined;
  modelId: string | undefined;
  /** The request came in on a streaming route. */
  stream: boolean;
}

/**
 * Models the faux plays in thinking mode, as their servers do: every assistant
 * tool-call message of the current tool loop must carry `reasoning_content`
 * (DeepSeek's reasoner, Kimi's thinking models).
 */
const THINKING_MODE_MODELS: ReadonlySet<string> = new Set(["deepseek-reasoner", "kimi-k2-thinking", "moonshotai/kimi-k2-thinking"]);

export function validateRequest(route: FauxRoute, body: unknown, ctx: ValidationContext): FauxRejection | null {
  const base = { signatureOwner: ctx.signatureOwner, modelId: ctx.modelId, stream: ctx.stream };
  switch (route) {
    case "anthropic":
      return validateAnthropicRequest(body, base);
    case "openai-completions":
      return validateOpenAICompletionsRequest(body, {
        ...base,
        reasoningContentRequired: ctx.modelId !== undefined && THINKING_MODE_MODELS.has(ctx.modelId),
      });
    case "mistral":
      return validateOpenAICompletionsRequest(body, { ...base, mistral: true });
    case "openai-responses":
      return validateOpenAIResponsesRequest(body, base);
    case "gemini":
      return validateGeminiRequest(body, base);
    case "bedrock":
      return validateBedrockRequest(body, base);
  }
}
