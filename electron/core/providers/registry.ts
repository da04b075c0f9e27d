/**
 * The model registry: bundled providers, the catalog's models (the bundled
 * snapshot unless a fresher catalog is given), the local examples and the demo,
 * plus user-added custom ones; lookups, compat resolution and cost. Decisions
 * about quirks come from the declared api and compat flags here, never from
 * substrings of a model id.
 */
import { z } from "zod";
import type { Api, Cost, ModelRef, Usage } from "../../../shared/protocol";
import {
  CompatSchema,
  ModelInfoSchema,
  ProviderConfigSchema,
  type Compat,
  type ModelInfo,
  type ProviderConfig,
} from "../../../shared/models";
import { catalogModels, inferenceProfileModel } from "./catalog/build-models";
import { responseCost } from "./catalog/prices";
import { bundledCatalog } from "./catalog/snapshot";
import { BUNDLED_PROVIDERS, DEMO_MODEL, LOCAL_EXAMPLE_MODELS } from "./registry-data";

export type RegistryResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Token counts without cost, as the adapters accumulate them. */
export type TokenCounts = Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite" | "reasoningTokens">;

function key(provider: string, api: Api, id: string): string {
  return `${provider}\u0000${api}\u0000${id}`;
}

let snapshotModels: readonly ModelInfo[] | undefined;

/** The models of the bundled snapshot (built once, on first use). */
export function snapshotCatalogModels(): readonly ModelInfo[] {
  snapshotModels ??= catalogModels(bundledCatalog(), BUNDLED_PROVIDERS);
  return snapshotModels;
}

/** Catalog models, then the local servers' examples and the demo model. */
export function withBuiltIns(catalog: readonly ModelInfo[]): ModelInfo[] {
  return [...catalog, ...LOCAL_EXAMPLE_MODELS, DEMO_MODEL];
}

export class ModelRegistry {
  private customModels: ModelInfo[] = [];
  private customProviders: ProviderConfig[] = [];
  /** The built-in models, for the catalog array they were made from. */
  private bundled: { from: readonly ModelInfo[]; list: ModelInfo[] } | undefined;

  /** `catalog`: the catalog's models (default: the bundled snapshot's). */
  constructor(private readonly catalog: () => readonly ModelInfo[] = snapshotCatalogModels) {}

  private bundledModels(): ModelInfo[] {
    const from = this.catalog();
    if (this.bundled?.from !== from) this.bundled = { from, list: withBuiltIns(from) };
    return this.bundled.list;
  }

  listProviders(): ProviderConfig[] {
    const custom = new Set(this.customProviders.map((p) => p.key));
    return [...BUNDLED_PROVIDERS.filter((p) => !custom.has(p.key)), ...this.customProviders];
  }

  findProvider(providerKey: string): ProviderConfig | undefined {
    return this.listProviders().find((p) => p.key === providerKey);
  }

  /** Bundled models, then custom ones; a custom model replaces a bundled one with the same provider, api and id. */
  listModels(): ModelInfo[] {
    const custom = new Set(this.customModels.map((m) => key(m.provider, m.api, m.id)));
    return [...this.bundledModels().filter((m) => !custom.has(key(m.provider, m.api, m.id))), ...this.customModels];
  }

  /**
   * Finds a model by exact ref, or by "provider/id" (the id may itself contain
   * "/", e.g. "groq/openai/gpt-oss-120b"). With several apis for one id, `api`
   * picks one; otherwise the provider's default api wins. A Bedrock
   * inference profile (`us.…`) resolves to its foundation model's facts.
   */
  findModel(ref: ModelRef | string, api?: Api): ModelInfo | undefined {
    const models = this.listModels();
    if (typeof ref !== "string") {
      const found = models.find((m) => m.provider === ref.provider && m.api === ref.api && m.id === ref.id);
      return found ?? inferenceProfileModel(models, ref.provider, ref.api, ref.id);
    }
    const slash = ref.indexOf("/");
    if (slash <= 0) return undefined;
    const providerKey = ref.slice(0, slash);
    const id = ref.slice(slash + 1);
    const candidates = models.filter((m) => m.provider === providerKey && m.id === id);
    const preferred = this.findProvider(providerKey)?.api;
    const found =
      api !== undefined ? candidates.find((m) => m.api === api) : (candidates.find((m) => m.api === preferred) ?? candidates[0]);
    const wanted = api ?? preferred;
    return found ?? (wanted !== undefined ? inferenceProfileModel(models, providerKey, wanted, id) : undefined);
  }

  /** Validates and adds user models (replacing earlier custom ones with the same provider, api and id). */
  registerCustomModels(input: unknown): RegistryResult<ModelInfo[]> {
    const parsed = z.array(ModelInfoSchema).safeParse(input);
    if (!parsed.success) return { ok: false, error: `invalid custom models: ${z.prettifyError(parsed.error)}` };
    const known = new Set(this.listProviders().map((p) => p.key));
    const unknown = parsed.data.find((m) => !known.has(m.provider));
    if (unknown) return { ok: false, error: `custom model "${unknown.id}" names unknown provider "${unknown.provider}"` };
    const incoming = new Set(parsed.data.map((m) => key(m.provider, m.api, m.id)));
    this.customModels = [...this.customModels.filter((m) => !incoming.has(key(m.provider, m.api, m.id))), ...parsed.data];
    return { ok: true, value: parsed.data };
  }

  /** Validates and adds user providers (e.g. a vLLM server); a custom provider replaces one with the same key. */
  registerCustomProviders(input: unknown): RegistryResult<ProviderConfig[]> {
    const parsed = z.array(ProviderConfigSchema).safeParse(input);
    if (!parsed.success) return { ok: false, error: `invalid custom providers: ${z.prettifyError(parsed.error)}` };
    const incoming = new Set(parsed.data.map((p) => p.key));
    this.customProviders = [...this.customProviders.filter((p) => !incoming.has(p.key)), ...parsed.data];
    return { ok: true, value: parsed.data };
  }

  clearCustom(): void {
    this.customModels = [];
    this.customProviders = [];
  }
}

export const defaultRegistry = new ModelRegistry();

export const listModels = (): ModelInfo[] => defaultRegistry.listModels();
export const listProviders = (): ProviderConfig[] => defaultRegistry.listProviders();
export const findProvider = (providerKey: string): ProviderConfig | undefined => defaultRegistry.findProvider(providerKey);
export const findModel = (ref: ModelRef | string, api?: Api): ModelInfo | undefined => defaultRegistry.findModel(ref, api);
export const registerCustomModels = (models: unknown): RegistryResult<ModelInfo[]> => defaultRegistry.registerCustomModels(models);
export const registerCustomProviders = (providers: unknown): RegistryResult<ProviderConfig[]> =>
  defaultRegistry.registerCustomProviders(providers);

/**
 * A compat default for every model of some families on one api (the catalog's
 * family names, models.dev's), optionally only when the model declares a fact
 * (`when`, read from its own and its provider's flags): a model listed later (a
 * catalog entry, a custom model) gets the rule from its family, never its id.
 */
export interface FamilyRule {
  api: Api;
  families: readonly string[];
  when?: (declared: Partial<Compat>) => boolean;
  compat: Partial<Compat>;
  /** The error text it prevents, or the documented rule. */
  why: string;
}

const GEMINI = ["gemini-pro", "gemini-flash", "gemini-flash-lite"];
const BEDROCK_CACHING = ["claude-opus", "claude-sonnet", "claude-haiku", "claude-fable", "nova", "nova-pro", "nova-lite", "nova-micro"];
const BEDROCK_MISTRAL = ["mistral", "magistral", "ministral", "devstral", "pixtral"];

export const FAMILY_RULES: readonly FamilyRule[] = [
  {
    api: "google-generative-ai",
    families: GEMINI,
    // Gemini 3 is the generation that takes thinking levels.
    when: (declared) => (declared.thinkingLevels?.length ?? 0) > 0,
    compat: { thoughtSignatures: true },
    why: "Function call is missing a thought_signature in functionCall parts (every Gemini 3 model, Flash included)",
  },
  {
    api: "bedrock-converse-stream",
    families: BEDROCK_CACHING,
    compat: { bedrockCachePoint: true },
    why: "Claude and Nova on Bedrock take cachePoint blocks",
  },
  {
    api: "bedrock-converse-stream",
    families: BEDROCK_MISTRAL,
    compat: { toolCallIdRule: "mistral9" },
    why: "Tool call id was X but must be a-z, A-Z, 0-9, with a length of 9 (Mistral's rule holds on Bedrock too)",
  },
];

function familyCompat(model: ModelInfo, declared: Partial<Compat>): Partial<Compat> | undefined {
  if (model.family === undefined) return undefined;
  let out: Partial<Compat> | undefined;
  for (const rule of FAMILY_RULES) {
    if (rule.api !== model.api || !rule.families.includes(model.family) || (rule.when && !rule.when(declared))) continue;
    out = { ...out, ...rule.compat };
  }
  return out;
}

/**
 * The last resolution per model object, with the two flag objects it was made
 * from: every request resolves its model's flags, and a zod parse per request
 * cost more than the rest of choosing the transform target. Registry objects
 * are not changed in place (custom models replace them), and a changed flag
 * object misses the memo.
 */
const resolvedCompat = new WeakMap<ModelInfo, { provider: ProviderConfig["compat"]; model: ModelInfo["compat"]; compat: Compat }>();

/**
 * Provider flags, overridden by the model family's (`FAMILY_RULES`), overridden
 * by the model's, with every default applied (frozen: shared between requests).
 */
export function resolveCompat(model: ModelInfo, provider: ProviderConfig): Compat {
  const known = resolvedCompat.get(model);
  if (known !== undefined && known.provider === provider.compat && known.model === model.compat) return known.compat;
  const declared = { ...provider.compat, ...model.compat };
  const compat = Object.freeze(CompatSchema.parse({ ...provider.compat, ...familyCompat(model, declared), ...model.compat }));
  resolvedCompat.set(model, { provider: provider.compat, model: model.compat, compat });
  return compat;
}

const UNKNOWN_COST: Cost = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, unknown: true });

/**
 * USD cost of the given token counts: unknown for a model without a known
 * price; genai-prices' at these counts (long-context tiers) where the price
 * came from there; else the model's per-million prices.
 */
export function computeCost(model: ModelInfo, counts: TokenCounts): Cost {
  if (model.priceUnknown) return { ...UNKNOWN_COST };
  if (model.priceSource === "genai-prices") {
    const cost = responseCost(model.provider, model.id, counts);
    if (cost !== undefined) return cost;
  }
  const input = (counts.input * model.price.input) / 1_000_000;
  const output = (counts.output * model.price.output) / 1_000_000;
  const cacheRead = (counts.cacheRead * model.price.cacheRead) / 1_000_000;
  const cacheWrite = (counts.cacheWrite * model.price.cacheWrite) / 1_000_000;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}

/** A full Usage (total tokens and cost filled in) from token counts; reasoning tokens are part of `output`. */
export function usageWithCost(model: ModelInfo, counts: TokenCounts): Usage {
  const usage: Usage = {
    input: counts.input,
    output: counts.output,
    cacheRead: counts.cacheRead,
    cacheWrite: counts.cacheWrite,
    totalTokens: counts.input + counts.output + counts.cacheRead + counts.cacheWrite,
    cost: computeCost(model, counts),
  };
  if (counts.reasoningTokens !== undefined) usage.reasoningTokens = counts.reasoningTokens;
  return usage;
}
