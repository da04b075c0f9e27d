/**
 * Model registry entries: what the app knows about a model (pure data, shared with the UI).
 */
import { z } from "zod";
import { ApiSchema, ReasoningLevelSchema, type ReasoningLevel } from "./protocol";

/**
 * Per-server quirks for OpenAI-compatible servers, decided from configuration,
 * never from substrings of a model id (docs/architecture.md#providers-and-the-boundary-transform).
 */
export const CompatSchema = z.object({
  /**
   * Tool-call id rule for Chat Completions targets, and for Bedrock models that
   * keep their family's rule there (Mistral on Bedrock). "mistral9": exactly 9 alphanumerics.
   */
  toolCallIdRule: z.enum(["openai40", "mistral9"]).default("openai40"),
  /** Field carrying the output cap. */
  maxTokensField: z.enum(["max_tokens", "max_completion_tokens"]).default("max_completion_tokens"),
  /** Role used for the system prompt. */
  systemRole: z.enum(["system", "developer"]).default("system"),
  /** Where reasoning text comes back on streamed deltas, if anywhere. */
  reasoningField: z.enum(["none", "reasoning_content", "reasoning"]).default("none"),
  /** Whether the server accepts `stream_options: { include_usage: true }`. */
  streamUsage: z.boolean().default(true),
  /** Mistral rejects a user message directly after a tool message. */
  assistantAfterToolResult: z.boolean().default(false),
  /** Whether `strict: true` on function tools is accepted. */
  strictTools: z.boolean().default(false),
  /** Whether the server accepts `reasoning_effort` (OpenAI reasoning models, Groq gpt-oss). */
  reasoningEffort: z.boolean().default(false),
  /** Gemini 3: the first function call of every step of the current turn must carry a thought signature. */
  thoughtSignatures: z.boolean().default(false),
  /** Thinking cannot be turned off (Gemini 2.5 Pro, Gemini 3 Pro): "off" asks for the least thinking instead. */
  thinkingRequired: z.boolean().default(false),
  /**
   * Gemini 3: the `thinkingLevel` values the model takes, lowest first; empty for
   * models that take a `thinkingBudget` (Gemini 2.5).
   */
  thinkingLevels: z.array(z.enum(["minimal", "low", "medium", "high"])).default([]),
  /**
   * Bedrock: false for models whose tool use does not stream ("This model doesn't
   * support tool use in streaming mode": Llama 3.3, Mistral Large 2); requests with
   * tools go through Converse instead of ConverseStream.
   */
  bedrockStreamingTools: z.boolean().default(true),
  /** Bedrock: the model takes `cachePoint` blocks (prompt caching: Claude, Nova). */
  bedrockCachePoint: z.boolean().default(false),
  /** How a Bedrock model takes a reasoning request in `additionalModelRequestFields` (Claude: `thinking`, Nova: `reasoningConfig`). */
  bedrockReasoning: z.enum(["none", "anthropic-thinking", "nova"]).default("none"),
  /**
   * The effort value that turns reasoning off, where the model has one (GPT-5:
   * "minimal"); "none" when it cannot be turned off (o3), so "off" is not offered.
   */
  reasoningOff: z.enum(["none", "minimal"]).default("none"),
  /** Anthropic: how thinking is requested — a token budget, or adaptive thinking with an effort (the model declares it). */
  anthropicThinking: z.enum(["budget", "adaptive"]).default("budget"),
  /**
   * DeepSeek / Kimi thinking mode: every assistant message with tool calls must
   * carry `reasoning_content` ("Missing `reasoning_content` field in the
   * assistant message at message index N"), whoever wrote it.
   */
  reasoningContentOnToolCalls: z.boolean().default(false),
});
export type Compat = z.infer<typeof CompatSchema>;

export const ModelInfoSchema = z.object({
  /** Provider's model id. */
  id: z.string().min(1),
  /** Human label. */
  name: z.string(),
  /** Provider key (matches a ProviderConfig.key). */
  provider: z.string().min(1),
  api: ApiSchema,
  /**
   * Model family, as the catalog names it (models.dev: "gemini-flash",
   * "claude-sonnet", "mistral", …): with the api, it decides the family's compat
   * defaults (registry.ts `FAMILY_RULES`). Optional: a model without one gets
   * only its own and its provider's flags.
   */
  family: z.string().min(1).max(100).optional(),
  contextWindow: z.number().int().positive(),
  maxOutput: z.number().int().positive(),
  input: z.array(z.enum(["text", "image"])),
  reasoning: z.boolean(),
  /** USD per million tokens (the first tier where the price rises with the prompt's length). */
  price: z.object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cacheRead: z.number().nonnegative(),
    cacheWrite: z.number().nonnegative(),
    /** Reasoning tokens, where they are priced apart from other output. */
    reasoning: z.number().nonnegative().optional(),
  }),
  /**
   * True when no price is known for the model (a model only its provider's
   * models endpoint lists): `price` then holds zeros that are not a price, and
   * costs are stored and shown as unknown, never as $0.
   */
  priceUnknown: z.boolean().optional(),
  /** Where the price comes from: genai-prices (costed at each response's real counts and tier), or the models.dev catalog. */
  priceSource: z.enum(["genai-prices", "models.dev"]).optional(),
  /** Listed by the provider's own models endpoint but unknown to the catalog: limits and price are assumed. */
  discovered: z.boolean().optional(),
  compat: CompatSchema.partial().optional(),
  /** True for the bundled offline demo model (served by the faux provider). */
  demo: z.boolean().optional(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

export const ProviderConfigSchema = z.object({
  key: z.string().min(1),
  label: z.string(),
  api: ApiSchema,
  baseUrl: z.string().url(),
  /** Environment variable holding the key in web mode. */
  apiKeyEnv: z.string().optional(),
  /** The SDK finds credentials itself through the standard AWS chain (environment, profile, SSO); the app never holds them. */
  awsCredentials: z.boolean().optional(),
  compat: CompatSchema.partial().optional(),
});
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

export { ReasoningLevelSchema, type ReasoningLevel };

/**
 * The levels a model takes, from its declared capabilities and compat flags
 * (never its id): none for a model that does not reason or whose API takes no
 * level; "off" only where reasoning can be turned off.
 */
export function reasoningLevelsFor(model: Pick<ModelInfo, "api" | "reasoning">, compat: Compat): ReasoningLevel[] {
  if (!model.reasoning) return [];
  const efforts: ReasoningLevel[] = ["low", "medium", "high"];
  if (model.api === "anthropic-messages") return ["default", "off", ...efforts];
  // Gemini: "off" is a zero thinking budget, which models that only work in thinking mode refuse.
  if (model.api === "google-generative-ai") return compat.thinkingRequired ? ["default", ...efforts] : ["default", "off", ...efforts];
  // Bedrock: thinking is requested per family only when asked for, so "off" is the default request without it.
  if (model.api === "bedrock-converse-stream") return compat.bedrockReasoning === "none" ? [] : ["default", "off", ...efforts];
  if (model.api === "openai-completions" && !compat.reasoningEffort) return [];
  return compat.reasoningOff === "none" ? ["default", ...efforts] : ["default", "off", ...efforts];
}

/** The agent compacts before a request estimated above this share of the model's context window (less room for its answer). */
export const COMPACT_AT_SHARE = 0.85;

/**
 * The request size (tokens) above which the agent compacts first: 85% of the
 * window, and never closer to it than room for an answer (the model's output
 * limit, at most a fifth of the window). docs/architecture.md#compaction-and-budgets
 */
export function compactionThreshold(model: Pick<ModelInfo, "contextWindow" | "maxOutput">): number {
  const answerRoom = Math.min(model.maxOutput, Math.floor(model.contextWindow * 0.2));
  return Math.floor(Math.min(model.contextWindow * COMPACT_AT_SHARE, model.contextWindow - answerRoom));
}
