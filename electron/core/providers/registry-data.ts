/**
 * The bundled model registry: providers (base URL, key variable, quirks) and
 * models (limits, input kinds, prices in USD per million tokens).
 * Prices and limits are public list prices at the time of writing; re-check
 * before relying on them. Users add their own models with `registerCustomModels`.
 */
import type { ModelInfo, ProviderConfig } from "../../../shared/models";

/** The demo provider's base URL is replaced at runtime by the faux provider's address. */
export const DEMO_BASE_URL_PLACEHOLDER = "http://127.0.0.1:9/demo-placeholder";

export const BUNDLED_PROVIDERS: readonly ProviderConfig[] = [
  { key: "anthropic", label: "Anthropic", api: "anthropic-messages", baseUrl: "https://api.anthropic.com", apiKeyEnv: "ANTHROPIC_API_KEY" },
  {
    key: "openai",
    label: "OpenAI",
    api: "openai-responses",
    baseUrl: "https://api.openai.com/v1",
    apiKeyEnv: "OPENAI_API_KEY",
    compat: { maxTokensField: "max_completion_tokens", strictTools: true, streamUsage: true },
  },
  {
    key: "mistral",
    label: "Mistral",
    api: "openai-completions",
    baseUrl: "https://api.mistral.ai/v1",
    apiKeyEnv: "MISTRAL_API_KEY",
    compat: { toolCallIdRule: "mistral9", assistantAfterToolResult: true, maxTokensField: "max_tokens", streamUsage: false },
  },
  {
    key: "xai",
    label: "xAI",
    api: "openai-completions",
    baseUrl: "https://api.x.ai/v1",
    apiKeyEnv: "XAI_API_KEY",
    compat: { maxTokensField: "max_completion_tokens", reasoningField: "reasoning_content" },
  },
  {
    key: "groq",
    label: "Groq",
    api: "openai-completions",
    baseUrl: "https://api.groq.com/openai/v1",
    apiKeyEnv: "GROQ_API_KEY",
    compat: { maxTokensField: "max_completion_tokens", reasoningField: "reasoning" },
  },
  {
    key: "deepseek",
    label: "DeepSeek",
    api: "openai-completions",
    baseUrl: "https://api.deepseek.com/v1",
    apiKeyEnv: "DEEPSEEK_API_KEY",
    compat: { maxTokensField: "max_tokens", reasoningField: "reasoning_content" },
  },
  {
    key: "openrouter",
    label: "OpenRouter",
    api: "openai-completions",
    baseUrl: "https://openrouter.ai/api/v1",
    apiKeyEnv: "OPENROUTER_API_KEY",
    compat: { maxTokensField: "max_tokens", reasoningField: "reasoning" },
  },
  {
    key: "ollama",
    label: "Ollama (local)",
    api: "openai-completions",
    baseUrl: "http://127.0.0.1:11434/v1",
    compat: { maxTokensField: "max_tokens", reasoningField: "reasoning" },
  },
  {
    key: "lmstudio",
    label: "LM Studio (local)",
    api: "openai-completions",
    baseUrl: "http://127.0.0.1:1234/v1",
    compat: { maxTokensField: "max_tokens", reasoningField: "reasoning_content" },
  },
  {
    key: "google",
    label: "Google Gemini",
    api: "google-generative-ai",
    baseUrl: "https://generativelanguage.googleapis.com",
    apiKeyEnv: "GEMINI_API_KEY",
  },
  // Credentials come from the standard AWS chain (environment, profile, SSO), never from us; the region from Settings.
  {
    key: "bedrock",
    label: "Amazon Bedrock",
    api: "bedrock-converse-stream",
    baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com",
    awsCredentials: true,
  },
  { key: "demo", label: "Demo (offline, no key)", api: "anthropic-messages", baseUrl: DEMO_BASE_URL_PLACEHOLDER },
];

type Price = ModelInfo["price"];
const price = (input: number, output: number, cacheRead = 0, cacheWrite = 0): Price => ({ input, output, cacheRead, cacheWrite });
const FREE = price(0, 0);
const TEXT: ModelInfo["input"] = ["text"];
const TEXT_IMAGE: ModelInfo["input"] = ["text", "image"];

/** `adaptive`: the model takes adaptive thinking with an effort instead of a token budget. */
function claude(id: string, name: string, maxOutput: number, p: Price, thinking: "budget" | "adaptive" = "budget"): ModelInfo {
  const model: ModelInfo = {
    id,
    name,
    provider: "anthropic",
    api: "anthropic-messages",
    contextWindow: 200_000,
    maxOutput,
    input: TEXT_IMAGE,
    reasoning: true,
    price: p,
  };
  return thinking === "adaptive" ? { ...model, compat: { anthropicThinking: "adaptive" } } : model;
}

/**
 * OpenAI models are listed on both wire APIs: Responses (default) and Chat Completions.
 * `off`: the effort that turns reasoning off, for models that have one (GPT-5 "minimal").
 */
function openai(
  id: string,
  name: string,
  contextWindow: number,
  maxOutput: number,
  reasoning: boolean,
  p: Price,
  off?: "minimal",
): ModelInfo[] {
  const base = { id, provider: "openai", contextWindow, maxOutput, input: TEXT_IMAGE, reasoning, price: p };
  const offCompat = off ? { reasoningOff: off } : {};
  const chatCompat = reasoning ? { systemRole: "developer" as const, reasoningEffort: true, ...offCompat } : undefined;
  return [
    { ...base, name, api: "openai-responses", ...(off ? { compat: offCompat } : {}) },
    { ...base, name: `${name} (Chat Completions)`, api: "openai-completions", ...(chatCompat ? { compat: chatCompat } : {}) },
  ];
}

function compatible(
  provider: string,
  id: string,
  name: string,
  contextWindow: number,
  maxOutput: number,
  input: ModelInfo["input"],
  reasoning: boolean,
  p: Price,
  compat?: ModelInfo["compat"],
): ModelInfo {
  return {
    id,
    name,
    provider,
    api: "openai-completions",
    contextWindow,
    maxOutput,
    input,
    reasoning,
    price: p,
    ...(compat ? { compat } : {}),
  };
}

function gemini(id: string, name: string, family: string, contextWindow: number, p: Price, compat?: ModelInfo["compat"]): ModelInfo {
  return {
    id,
    name,
    provider: "google",
    api: "google-generative-ai",
    family,
    contextWindow,
    maxOutput: 65_536,
    input: TEXT_IMAGE,
    reasoning: true,
    price: p,
    ...(compat ? { compat } : {}),
  };
}

function bedrock(
  id: string,
  name: string,
  family: string,
  contextWindow: number,
  maxOutput: number,
  input: ModelInfo["input"],
  p: Price,
  compat: ModelInfo["compat"] = {},
): ModelInfo {
  const reasons = compat.bedrockReasoning !== undefined && compat.bedrockReasoning !== "none";
  return {
    id,
    name,
    provider: "bedrock",
    api: "bedrock-converse-stream",
    family,
    contextWindow,
    maxOutput,
    input,
    reasoning: reasons,
    price: p,
    ...(Object.keys(compat).length > 0 ? { compat } : {}),
  };
}

export const BUNDLED_MODELS: readonly ModelInfo[] = [
  claude("claude-opus-4-6", "Claude Opus 4.6", 64_000, price(5, 25, 0.5, 6.25), "adaptive"),
  claude("claude-sonnet-4-6", "Claude Sonnet 4.6", 64_000, price(3, 15, 0.3, 3.75), "adaptive"),
  claude("claude-opus-4-5", "Claude Opus 4.5", 64_000, price(5, 25, 0.5, 6.25)),
  claude("claude-sonnet-4-5", "Claude Sonnet 4.5", 64_000, price(3, 15, 0.3, 3.75)),
  claude("claude-haiku-4-5", "Claude Haiku 4.5", 64_000, price(1, 5, 0.1, 1.25)),
  claude("claude-opus-4-1", "Claude Opus 4.1", 32_000, price(15, 75, 1.5, 18.75)),
  claude("claude-sonnet-4-0", "Claude Sonnet 4", 64_000, price(3, 15, 0.3, 3.75)),

  ...openai("gpt-5", "GPT-5", 400_000, 128_000, true, price(1.25, 10, 0.125), "minimal"),
  ...openai("gpt-5-mini", "GPT-5 mini", 400_000, 128_000, true, price(0.25, 2, 0.025), "minimal"),
  ...openai("gpt-4.1", "GPT-4.1", 1_047_576, 32_768, false, price(2, 8, 0.5)),
  ...openai("gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768, false, price(0.4, 1.6, 0.1)),
  ...openai("o3", "o3", 200_000, 100_000, true, price(2, 8, 0.5)),
  ...openai("o4-mini", "o4-mini", 200_000, 100_000, true, price(1.1, 4.4, 0.275)),

  gemini("gemini-3.1-pro-preview", "Gemini 3.1 Pro", "gemini-pro", 1_048_576, price(2, 12, 0.2), {
    thinkingRequired: true,
    thinkingLevels: ["low", "medium", "high"],
  }),
  gemini("gemini-3-pro-preview", "Gemini 3 Pro", "gemini-pro", 1_048_576, price(2, 12, 0.2), {
    thinkingRequired: true,
    thinkingLevels: ["low", "high"],
  }),
  gemini("gemini-3-flash-preview", "Gemini 3 Flash", "gemini-flash", 1_048_576, price(0.5, 3, 0.05), {
    thinkingLevels: ["minimal", "low", "medium", "high"],
  }),
  gemini("gemini-2.5-pro", "Gemini 2.5 Pro", "gemini-pro", 1_048_576, price(1.25, 10, 0.125), { thinkingRequired: true }),
  gemini("gemini-2.5-flash", "Gemini 2.5 Flash", "gemini-flash", 1_048_576, price(0.3, 2.5, 0.03)),

  bedrock(
    "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "Claude Sonnet 4.5 (Bedrock)",
    "claude-sonnet",
    200_000,
    64_000,
    TEXT_IMAGE,
    price(3, 15, 0.3, 3.75),
    { bedrockReasoning: "anthropic-thinking" },
  ),
  bedrock(
    "us.anthropic.claude-haiku-4-5-20251001-v1:0",
    "Claude Haiku 4.5 (Bedrock)",
    "claude-haiku",
    200_000,
    64_000,
    TEXT_IMAGE,
    price(1, 5, 0.1, 1.25),
    { bedrockReasoning: "anthropic-thinking" },
  ),
  // AWS's model-feature table lists no streaming tool use for these two: tools go through Converse.
  bedrock("us.meta.llama3-3-70b-instruct-v1:0", "Llama 3.3 70B (Bedrock)", "llama", 128_000, 8_192, TEXT, price(0.72, 0.72), {
    bedrockStreamingTools: false,
  }),
  bedrock("mistral.mistral-large-2407-v1:0", "Mistral Large 2 (Bedrock)", "mistral", 128_000, 8_192, TEXT, price(2, 6), {
    bedrockStreamingTools: false,
  }),
  bedrock("us.amazon.nova-pro-v1:0", "Amazon Nova Pro (Bedrock)", "nova-pro", 300_000, 10_000, TEXT_IMAGE, price(0.8, 3.2, 0.2)),
  bedrock("us.amazon.nova-premier-v1:0", "Amazon Nova Premier (Bedrock)", "nova", 1_000_000, 32_000, TEXT_IMAGE, price(2.5, 12.5), {
    bedrockReasoning: "nova",
  }),

  compatible("mistral", "mistral-large-latest", "Mistral Large", 131_072, 32_768, TEXT_IMAGE, false, price(2, 6)),
  compatible("mistral", "mistral-medium-latest", "Mistral Medium", 131_072, 32_768, TEXT_IMAGE, false, price(0.4, 2)),
  compatible("mistral", "devstral-medium-latest", "Devstral Medium", 131_072, 32_768, TEXT, false, price(0.4, 2)),
  compatible("mistral", "codestral-latest", "Codestral", 256_000, 32_768, TEXT, false, price(0.3, 0.9)),
  // Magistral streams its reasoning as typed content chunks (`{type: "thinking"}`), read whatever the server.
  compatible("mistral", "magistral-medium-latest", "Magistral Medium", 131_072, 40_000, TEXT, true, price(2, 5)),

  compatible("xai", "grok-4", "Grok 4", 256_000, 64_000, TEXT_IMAGE, true, price(3, 15, 0.75)),
  compatible("xai", "grok-3-mini", "Grok 3 mini", 131_072, 32_768, TEXT, true, price(0.3, 0.5, 0.075)),

  compatible("groq", "llama-3.3-70b-versatile", "Llama 3.3 70B (Groq)", 131_072, 32_768, TEXT, false, price(0.59, 0.79)),
  compatible("groq", "openai/gpt-oss-120b", "gpt-oss-120b (Groq)", 131_072, 65_536, TEXT, true, price(0.15, 0.75), {
    reasoningEffort: true,
  }),
  compatible("groq", "moonshotai/kimi-k2-instruct-0905", "Kimi K2 (Groq)", 262_144, 16_384, TEXT, false, price(1, 3)),

  compatible("deepseek", "deepseek-chat", "DeepSeek V3.2", 128_000, 8_192, TEXT, false, price(0.28, 0.42, 0.028)),
  compatible("deepseek", "deepseek-reasoner", "DeepSeek V3.2 (thinking)", 128_000, 65_536, TEXT, true, price(0.28, 0.42, 0.028), {
    reasoningContentOnToolCalls: true,
  }),

  compatible(
    "openrouter",
    "anthropic/claude-sonnet-4.5",
    "Claude Sonnet 4.5 (OpenRouter)",
    200_000,
    64_000,
    TEXT_IMAGE,
    true,
    price(3, 15, 0.3, 3.75),
  ),
  compatible("openrouter", "openai/gpt-5", "GPT-5 (OpenRouter)", 400_000, 128_000, TEXT_IMAGE, true, price(1.25, 10, 0.125)),
  compatible("openrouter", "moonshotai/kimi-k2", "Kimi K2 (OpenRouter)", 131_072, 16_384, TEXT, false, price(0.5, 2)),
  compatible("openrouter", "qwen/qwen3-coder", "Qwen3 Coder (OpenRouter)", 262_144, 65_536, TEXT, false, price(0.22, 0.95)),

  compatible("ollama", "gpt-oss:20b", "gpt-oss 20B (Ollama)", 131_072, 32_768, TEXT, true, FREE),
  compatible("ollama", "qwen3-coder:30b", "Qwen3 Coder 30B (Ollama)", 262_144, 32_768, TEXT, false, FREE),
  compatible("ollama", "llama3.1:8b", "Llama 3.1 8B (Ollama)", 131_072, 8_192, TEXT, false, FREE),

  compatible("lmstudio", "openai/gpt-oss-20b", "gpt-oss 20B (LM Studio)", 131_072, 32_768, TEXT, true, FREE),
  compatible("lmstudio", "qwen/qwen3-coder-30b", "Qwen3 Coder 30B (LM Studio)", 262_144, 32_768, TEXT, false, FREE),

  {
    id: "demo",
    name: "Demo model (offline)",
    provider: "demo",
    api: "anthropic-messages",
    contextWindow: 200_000,
    maxOutput: 8_192,
    input: TEXT_IMAGE,
    reasoning: true,
    // Offline and on this machine, like a local server's models: nothing to pay.
    price: FREE,
    demo: true,
  },
];
