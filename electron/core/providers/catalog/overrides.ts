/**
 * Our own knowledge on top of the public catalog: which catalog provider is
 * which of ours, which families a new session prefers, and the quirk flags
 * (compat stays ours). A quirk is keyed by the declared API and the model
 * family the catalog gives, optionally narrowed by another catalog fact
 * (how the model takes reasoning) — never by substrings of a model id
 * (docs/architecture.md#providers-and-the-boundary-transform).
 */
import type { Compat } from "../../../../shared/models";
import type { Api } from "../../../../shared/protocol";
import type { ModelsDevModel } from "./models-dev";

export interface CatalogProvider {
  /** The provider's id in models.dev. */
  modelsDev: string;
  /** The provider's id in genai-prices. */
  genaiPrices: string;
  /** Families a new session prefers on this provider, best first (their newest model comes first in the list). */
  preferredFamilies: readonly string[];
}

/** Our provider key → where the catalogs keep it. */
export const CATALOG_PROVIDERS: Readonly<Record<string, CatalogProvider>> = {
  anthropic: { modelsDev: "anthropic", genaiPrices: "anthropic", preferredFamilies: ["claude-sonnet", "claude-opus"] },
  openai: { modelsDev: "openai", genaiPrices: "openai", preferredFamilies: ["gpt", "gpt-codex"] },
  google: { modelsDev: "google", genaiPrices: "google", preferredFamilies: ["gemini-pro", "gemini-flash"] },
  bedrock: { modelsDev: "amazon-bedrock", genaiPrices: "aws", preferredFamilies: ["claude-sonnet", "claude-opus"] },
  mistral: { modelsDev: "mistral", genaiPrices: "mistral", preferredFamilies: ["mistral-large", "mistral-medium", "codestral"] },
  groq: { modelsDev: "groq", genaiPrices: "groq", preferredFamilies: ["gpt-oss", "llama"] },
  deepseek: { modelsDev: "deepseek", genaiPrices: "deepseek", preferredFamilies: ["deepseek"] },
  xai: { modelsDev: "xai", genaiPrices: "x-ai", preferredFamilies: ["grok"] },
  openrouter: { modelsDev: "openrouter", genaiPrices: "openrouter", preferredFamilies: [] },
};

export const MODELS_DEV_PROVIDERS: readonly string[] = Object.values(CATALOG_PROVIDERS).map((p) => p.modelsDev);

/**
 * Models a provider still serves that models.dev no longer lists, in its
 * shape, each with where its facts come from. The catalog's own entry wins
 * where there is one.
 */
export const CATALOG_ADDITIONS: Readonly<Record<string, readonly ModelsDevModel[]>> = {
  "amazon-bedrock": [
    // https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-mistral.html (Mistral Large 2 (24.07)).
    {
      id: "mistral.mistral-large-2407-v1:0",
      name: "Mistral Large 2 (24.07)",
      family: "mistral",
      reasoning: false,
      tool_call: true,
      release_date: "2024-07-24",
      modalities: { input: ["text"], output: ["text"] },
      limit: { context: 128_000, output: 8_192 },
    },
  ],
  xai: [
    // https://docs.x.ai/docs/models (grok-3-mini: reasoning, returns reasoning_content).
    {
      id: "grok-3-mini",
      name: "Grok 3 Mini",
      family: "grok",
      reasoning: true,
      tool_call: true,
      release_date: "2025-02-17",
      modalities: { input: ["text"], output: ["text"] },
      limit: { context: 131_072, output: 32_768 },
    },
  ],
};

/** What a quirk rule may look at: the model's catalog facts. */
export type QuirkFacts = Pick<ModelsDevModel, "family" | "reasoning" | "reasoning_options" | "release_date">;

export interface QuirkRule {
  api: Api;
  /** Our provider keys, for a rule of one server's API (an aggregator serving the family may differ); absent: any provider. */
  providers?: readonly string[];
  /** Catalog families (exact); absent: every family on that API. */
  families?: readonly string[];
  /** A further condition on the catalog facts. */
  when?: (facts: QuirkFacts) => boolean;
  compat: Partial<Compat>;
  /** Flags computed from the catalog facts (Gemini 3's thinking levels are its effort values). */
  compatOf?: (facts: QuirkFacts) => Partial<Compat>;
  /** Not offered on this API (the provider refuses the family there). */
  unsupported?: true;
  /** Why, in one line (the error text it prevents, or the documented rule). */
  why: string;
}

const takesEffort = (f: QuirkFacts) => f.reasoning_options?.some((o) => o.type === "effort") === true;
const effortValues = (f: QuirkFacts) => f.reasoning_options?.flatMap((o) => (o.type === "effort" ? o.values : [])) ?? [];
const canToggle = (f: QuirkFacts) => f.reasoning_options?.some((o) => o.type === "toggle" || (o.type === "budget_tokens" && o.min === 0));

const GEMINI = ["gemini-pro", "gemini-flash", "gemini-flash-lite"];
/** Released before 2025: the generations AWS lists without streaming tool use (Llama 3.x, Mistral Large 2). */
const before2025 = (f: QuirkFacts) => f.release_date !== undefined && f.release_date < "2025";
const THINKING_LEVELS: ReadonlySet<string> = new Set(["minimal", "low", "medium", "high"]);
const CLAUDE = ["claude-opus", "claude-sonnet", "claude-haiku", "claude-fable"];

export const QUIRKS: readonly QuirkRule[] = [
  {
    api: "anthropic-messages",
    when: takesEffort,
    compat: { anthropicThinking: "adaptive" },
    why: "Claude 4.6 on (Opus 4.x, Claude 5) take adaptive thinking with an effort; older ones a token budget",
  },
  {
    api: "openai-responses",
    when: (f) => effortValues(f).includes("minimal"),
    compat: { reasoningOff: "minimal" },
    why: "GPT-5 turns reasoning off with effort 'minimal'",
  },
  {
    api: "openai-completions",
    providers: ["openai"],
    families: ["gpt", "gpt-mini", "gpt-nano", "o", "o-mini"],
    when: (f) => f.reasoning,
    compat: { systemRole: "developer", reasoningEffort: true },
    why: "OpenAI reasoning models on Chat Completions take reasoning_effort and a developer message",
  },
  {
    api: "openai-completions",
    providers: ["groq"],
    families: ["gpt-oss"],
    when: (f) => f.reasoning,
    compat: { reasoningEffort: true },
    why: "Groq takes reasoning_effort for gpt-oss",
  },
  {
    api: "openai-completions",
    providers: ["openai"],
    families: ["gpt", "gpt-mini", "gpt-nano"],
    when: (f) => effortValues(f).includes("minimal"),
    compat: { reasoningOff: "minimal" },
    why: "GPT-5 turns reasoning off with effort 'minimal'",
  },
  {
    api: "openai-completions",
    providers: ["openai"],
    families: ["gpt-codex", "gpt-codex-spark", "gpt-pro", "o-pro"],
    compat: {},
    unsupported: true,
    why: "Codex and pro models are served on the Responses API only ('This model is only supported in v1/responses')",
  },
  {
    api: "google-generative-ai",
    families: GEMINI,
    when: (f) => f.reasoning && !canToggle(f),
    compat: { thinkingRequired: true },
    why: "Gemini Pro works only in thinking mode ('Budget 0 is invalid. This model only works in thinking mode.')",
  },
  {
    api: "google-generative-ai",
    families: GEMINI,
    when: takesEffort,
    compat: { thoughtSignatures: true },
    why: "Gemini 3 (thinking levels) requires the thought signature on each step's first function call",
  },
  {
    api: "google-generative-ai",
    families: GEMINI,
    when: takesEffort,
    compat: {},
    compatOf: (f) => ({
      thinkingLevels: effortValues(f).filter((v): v is "minimal" | "low" | "medium" | "high" => v !== null && THINKING_LEVELS.has(v)),
    }),
    why: "Gemini 3 takes thinkingLevel, one of the levels the model lists ('thinking_level is not supported by this model')",
  },
  {
    api: "bedrock-converse-stream",
    families: ["llama", "mistral"],
    when: before2025,
    compat: { bedrockStreamingTools: false },
    why: "AWS lists no streaming tool use for Llama 3.x and Mistral Large 2 ('This model doesn't support tool use in streaming mode')",
  },
  {
    api: "bedrock-converse-stream",
    families: CLAUDE,
    when: (f) => f.reasoning,
    compat: { bedrockReasoning: "anthropic-thinking" },
    why: "Claude on Bedrock takes `thinking` in additionalModelRequestFields",
  },
  {
    api: "bedrock-converse-stream",
    families: ["nova", "nova-pro", "nova-lite", "nova-premier"],
    when: (f) => f.reasoning,
    compat: { bedrockReasoning: "nova" },
    why: "Nova 2 takes `reasoningConfig` in additionalModelRequestFields",
  },
  {
    api: "openai-completions",
    providers: ["deepseek"],
    families: ["deepseek-thinking"],
    compat: { reasoningContentOnToolCalls: true },
    why: "DeepSeek thinking mode: 'Missing `reasoning_content` field in the assistant message at message index N'",
  },
];

/** The compat flags and whether the model is offered on `api` of `provider`, from the rules that match its facts. */
export function quirksFor(api: Api, provider: string, facts: QuirkFacts): { compat: Partial<Compat>; unsupported: boolean } {
  let compat: Partial<Compat> = {};
  let unsupported = false;
  for (const rule of QUIRKS) {
    if (rule.api !== api || (rule.providers && !rule.providers.includes(provider))) continue;
    if (rule.families && (facts.family === undefined || !rule.families.includes(facts.family))) continue;
    if (rule.when && !rule.when(facts)) continue;
    compat = { ...compat, ...rule.compat, ...(rule.compatOf?.(facts) ?? {}) };
    if (rule.unsupported) unsupported = true;
  }
  return { compat, unsupported };
}
