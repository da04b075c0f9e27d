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

/** What a quirk rule may look at: the model's catalog facts. */
export type QuirkFacts = Pick<ModelsDevModel, "family" | "reasoning" | "reasoning_options">;

export interface QuirkRule {
  api: Api;
  /** Our provider keys, for a rule of one server's API (an aggregator serving the family may differ); absent: any provider. */
  providers?: readonly string[];
  /** Catalog families (exact); absent: every family on that API. */
  families?: readonly string[];
  /** A further condition on the catalog facts. */
  when?: (facts: QuirkFacts) => boolean;
  compat: Partial<Compat>;
  /** Not offered on this API (the provider refuses the family there). */
  unsupported?: true;
  /** Why, in one line (the error text it prevents, or the documented rule). */
  why: string;
}

const takesEffort = (f: QuirkFacts) => f.reasoning_options?.some((o) => o.type === "effort") === true;
const effortValues = (f: QuirkFacts) => f.reasoning_options?.flatMap((o) => (o.type === "effort" ? o.values : [])) ?? [];
const canToggle = (f: QuirkFacts) => f.reasoning_options?.some((o) => o.type === "toggle" || (o.type === "budget_tokens" && o.min === 0));

const GEMINI = ["gemini-pro", "gemini-flash", "gemini-flash-lite"];
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
    compat = { ...compat, ...rule.compat };
    if (rule.unsupported) unsupported = true;
  }
  return { compat, unsupported };
}
