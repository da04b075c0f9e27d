/**
 * The bundled providers (base URL, key variable, server quirks), the example
 * models of the local servers and the demo model. The cloud providers' models
 * come from the catalog (`catalog/`: models.dev facts, genai-prices prices,
 * our overrides); users add their own with `registerCustomModels`.
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
    // OpenAI-compatible; Grok 4 takes no reasoning_effort ("Argument not supported on this model").
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

const FREE: ModelInfo["price"] = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const TEXT: ModelInfo["input"] = ["text"];

/** Examples a local server may have installed: nothing to pay; the switcher marks those it lacks. */
function local(provider: string, id: string, name: string, contextWindow: number, maxOutput: number, reasoning: boolean): ModelInfo {
  return { id, name, provider, api: "openai-completions", contextWindow, maxOutput, input: TEXT, reasoning, price: FREE };
}

export const LOCAL_EXAMPLE_MODELS: readonly ModelInfo[] = [
  local("ollama", "gpt-oss:20b", "gpt-oss 20B (Ollama)", 131_072, 32_768, true),
  local("ollama", "qwen3-coder:30b", "Qwen3 Coder 30B (Ollama)", 262_144, 32_768, false),
  local("ollama", "llama3.1:8b", "Llama 3.1 8B (Ollama)", 131_072, 8_192, false),
  local("lmstudio", "openai/gpt-oss-20b", "gpt-oss 20B (LM Studio)", 131_072, 32_768, true),
  local("lmstudio", "qwen/qwen3-coder-30b", "Qwen3 Coder 30B (LM Studio)", 262_144, 32_768, false),
];

export const DEMO_MODEL: ModelInfo = {
  id: "demo",
  name: "Demo model (offline)",
  provider: "demo",
  api: "anthropic-messages",
  contextWindow: 200_000,
  maxOutput: 8_192,
  input: ["text", "image"],
  reasoning: true,
  // Offline and on this machine, like a local server's models: nothing to pay.
  price: FREE,
  demo: true,
};
