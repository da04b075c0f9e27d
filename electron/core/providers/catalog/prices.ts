/**
 * Prices from `@pydantic/genai-prices` (maintained public price data, the
 * 2026 models included): the per-million list price a model shows, and the
 * cost of one response at its real token counts, with the long-context tier
 * the prompt reached and the price in force at that time.
 */
import { calcPrice, type ModelPrice } from "@pydantic/genai-prices";
import type { ModelInfo } from "../../../../shared/models";
import type { Cost } from "../../../../shared/protocol";
import { CATALOG_PROVIDERS } from "./overrides";

export type Price = ModelInfo["price"];

/** Token counts as Usage keeps them: `input` is the uncached part; the cache counts are apart. */
export interface PricedCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

type Rate = ModelPrice[string];

/** The rate at `inputTokens` of prompt (a tier applies past its start, as genai-prices reads it). */
function rateAt(rate: Rate, inputTokens: number): number | undefined {
  if (rate === undefined) return undefined;
  if (typeof rate === "number") return rate;
  let price = rate.base;
  for (const tier of rate.tiers) if (inputTokens > tier.start) price = tier.price;
  return price;
}

/**
 * The model's prices in force at `at`, memoised per minute: the adapters
 * cost every partial message, and a lookup walks the provider's match rules.
 * Per minute, because some prices change at set hours (off-peak rates).
 */
const memo = new Map<string, ModelPrice | null>();

function lookup(providerKey: string, modelId: string, at: Date = new Date()): ModelPrice | undefined {
  const provider = CATALOG_PROVIDERS[providerKey];
  if (provider === undefined) return undefined;
  const key = `${provider.genaiPrices}\u0000${modelId}\u0000${Math.floor(at.getTime() / 60_000)}`;
  const known = memo.get(key);
  if (known !== undefined) return known ?? undefined;
  let price: ModelPrice | null = null;
  try {
    price =
      calcPrice({ input_tokens: 1, output_tokens: 1 }, modelId, { providerId: provider.genaiPrices, timestamp: at })?.model_price ?? null;
  } catch {
    // A price entry this version cannot read is no price, not a crash.
  }
  if (memo.size >= 2_000) memo.clear();
  memo.set(key, price);
  return price ?? undefined;
}

/** The list price per million tokens (the first tier), or undefined when genai-prices has none for the model. */
export function listPrice(providerKey: string, modelId: string): Price | undefined {
  const p = lookup(providerKey, modelId);
  if (p === undefined) return undefined;
  const input = rateAt(p.input_mtok, 0);
  const output = rateAt(p.output_mtok, 0);
  if (input === undefined || output === undefined) return undefined;
  const reasoning = rateAt(p.output_reasoning_mtok, 0);
  return {
    input,
    output,
    cacheRead: rateAt(p.cache_read_mtok, 0) ?? input,
    cacheWrite: rateAt(p.cache_write_mtok, 0) ?? input,
    ...(reasoning !== undefined ? { reasoning } : {}),
  };
}

/** The cost of one response, or undefined when genai-prices has no price for the model. */
export function responseCost(providerKey: string, modelId: string, counts: PricedCounts, at?: Date): Cost | undefined {
  const prompt = counts.input + counts.cacheRead + counts.cacheWrite;
  const p = lookup(providerKey, modelId, at);
  if (p === undefined) return undefined;
  const inputRate = rateAt(p.input_mtok, prompt);
  const outputRate = rateAt(p.output_mtok, prompt);
  if (inputRate === undefined || outputRate === undefined) return undefined;
  const input = (counts.input * inputRate) / 1_000_000;
  const output = (counts.output * outputRate) / 1_000_000;
  // A model without a separate cache rate bills cached tokens as input.
  const cacheRead = (counts.cacheRead * (rateAt(p.cache_read_mtok, prompt) ?? inputRate)) / 1_000_000;
  const cacheWrite = (counts.cacheWrite * (rateAt(p.cache_write_mtok, prompt) ?? inputRate)) / 1_000_000;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}
