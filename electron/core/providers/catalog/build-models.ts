/**
 * The models the app offers, from the catalog: models.dev facts (limits,
 * input kinds, reasoning, tool calling), genai-prices prices (models.dev's
 * cost where genai-prices has none), and our quirk flags by api and family.
 * Models that cannot run the agent (no tool calling, no text out) are left out.
 */
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { Api } from "../../../../shared/protocol";
import type { ModelsDevCatalog, ModelsDevModel } from "./models-dev";
import { CATALOG_ADDITIONS, CATALOG_PROVIDERS, quirksFor } from "./overrides";
import { listPrice, type Price } from "./prices";

/** A model whose catalog entry gives no output limit gets this cap (what a request asks for at most). */
export const DEFAULT_MAX_OUTPUT = 8_192;

const NO_PRICE: Price = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

function usable(m: ModelsDevModel): boolean {
  return m.tool_call && m.modalities.input.includes("text") && m.modalities.output.includes("text") && m.limit.context >= 1;
}

/** OpenAI's models are offered on Responses (its default) and on Chat Completions. */
function apisOf(provider: ProviderConfig): Api[] {
  return provider.api === "openai-responses" ? ["openai-responses", "openai-completions"] : [provider.api];
}

export function pricing(
  providerKey: string,
  id: string,
  cost: ModelsDevModel["cost"],
): Pick<ModelInfo, "price" | "priceSource" | "priceUnknown"> {
  const listed = listPrice(providerKey, id);
  if (listed) return { price: listed, priceSource: "genai-prices" };
  if (cost) {
    const reasoning = cost.reasoning;
    return {
      price: {
        input: cost.input,
        output: cost.output,
        cacheRead: cost.cache_read ?? cost.input,
        cacheWrite: cost.cache_write ?? cost.input,
        ...(reasoning !== undefined ? { reasoning } : {}),
      },
      priceSource: "models.dev",
    };
  }
  return { price: NO_PRICE, priceUnknown: true };
}

function modelInfo(provider: ProviderConfig, api: Api, m: ModelsDevModel): ModelInfo | undefined {
  const { compat, unsupported } = quirksFor(api, provider.key, m);
  if (unsupported) return undefined;
  const contextWindow = Math.floor(m.limit.context);
  const output = Math.floor(m.limit.output ?? 0);
  // Bedrock reasoning is requested per family: without a known way to ask, the model is offered without a level.
  const reasoning = m.reasoning && (api !== "bedrock-converse-stream" || (compat.bedrockReasoning ?? "none") !== "none");
  const chatVariant = provider.api === "openai-responses" && api === "openai-completions";
  return {
    id: m.id,
    name: chatVariant ? `${m.name} (Chat Completions)` : m.name,
    provider: provider.key,
    api,
    contextWindow,
    maxOutput: output >= 1 ? Math.min(output, contextWindow) : Math.min(DEFAULT_MAX_OUTPUT, contextWindow),
    input: m.modalities.input.includes("image") ? ["text", "image"] : ["text"],
    reasoning,
    ...pricing(provider.key, m.id, m.cost),
    ...(m.family ? { family: m.family } : {}),
    ...(Object.keys(compat).length > 0 ? { compat } : {}),
  };
}

/**
 * Every usable catalog model of the given providers, provider by provider in
 * their order; within one, the preferred families' models first, then the
 * rest, each newest first (a new session takes the first configured one).
 */
export function catalogModels(catalog: ModelsDevCatalog, providers: readonly ProviderConfig[]): ModelInfo[] {
  const out: ModelInfo[] = [];
  for (const provider of providers) {
    const where = CATALOG_PROVIDERS[provider.key];
    const known = where ? catalog[where.modelsDev] : undefined;
    const listed = known?.models ?? {};
    // Additions complete a provider the catalog lists; they never bring in one it does not.
    const added = known && where ? (CATALOG_ADDITIONS[where.modelsDev] ?? []).filter((m) => !(m.id in listed)) : [];
    const entries = [...Object.values(listed), ...added];
    const rank = (m: ModelsDevModel) => {
      const i = m.family === undefined ? -1 : where.preferredFamilies.indexOf(m.family);
      return i < 0 ? where.preferredFamilies.length : i;
    };
    const deprecated = (m: ModelsDevModel) => (m.status === "deprecated" ? 1 : 0);
    const sorted = entries
      .filter(usable)
      .sort(
        (a, b) =>
          deprecated(a) - deprecated(b) ||
          rank(a) - rank(b) ||
          (b.release_date ?? "").localeCompare(a.release_date ?? "") ||
          a.name.localeCompare(b.name),
      );
    for (const api of apisOf(provider)) {
      for (const m of sorted) {
        const info = modelInfo(provider, api, m);
        if (info) out.push(info);
      }
    }
  }
  return out;
}

/** Geographic prefixes of Bedrock's cross-region inference profiles (`us.`, `eu.`, … before a foundation model id). */
const PROFILE_PREFIXES = ["us", "us-gov", "eu", "apac", "au", "jp", "ca", "global"];

/**
 * A Bedrock inference profile the catalog does not list, resolved to its
 * foundation model's facts under the profile's own id (what requests name),
 * so a profile a session or Bedrock's own listing uses keeps its limits,
 * price and quirks.
 */
export function inferenceProfileModel(models: readonly ModelInfo[], provider: string, api: Api, id: string): ModelInfo | undefined {
  if (api !== "bedrock-converse-stream") return undefined;
  const dot = id.indexOf(".");
  if (dot <= 0 || !PROFILE_PREFIXES.includes(id.slice(0, dot))) return undefined;
  const base = id.slice(dot + 1);
  const found = models.find((m) => m.provider === provider && m.api === api && m.id === base);
  if (!found) return undefined;
  // Profiles can be priced apart (regional ones cost more): the profile's own price when genai-prices has one.
  const own = listPrice(provider, id);
  return { ...found, id, ...(own ? { price: own, priceSource: "genai-prices" as const } : {}) };
}
