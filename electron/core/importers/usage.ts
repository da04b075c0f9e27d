/** Neutral usage for a foreign message, priced as our own answers are (genai-prices at the message's time). */
import type { Usage } from "../../../shared/protocol";
import { responseCost } from "../providers/catalog/prices";

export interface ForeignCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning?: number;
}

export function usageOf(provider: string, modelId: string, counts: ForeignCounts, at: number): Usage {
  const base = { input: counts.input, output: counts.output, cacheRead: counts.cacheRead, cacheWrite: counts.cacheWrite };
  const cost = Number.isFinite(at) && at > 0 ? responseCost(provider, modelId, base, new Date(at)) : undefined;
  return {
    ...base,
    totalTokens: base.input + base.output + base.cacheRead + base.cacheWrite,
    ...(counts.reasoning ? { reasoningTokens: counts.reasoning } : {}),
    cost: cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, unknown: true },
  };
}
