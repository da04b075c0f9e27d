/** Token and cost totals per session, overall and per model, straight from the entry columns. */
import type { StoreContext } from "./db";
import { sessionHead } from "./entries";
import { sessionRange } from "./keys";

export interface UsageTotal {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: number;
}

export interface ModelUsage {
  provider: string;
  api: string;
  modelId: string;
  /** Assistant messages written by this model. */
  messages: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: number;
}

export interface UsageTotals {
  total: UsageTotal;
  /** Most expensive first. */
  byModel: ModelUsage[];
}

export function usageTotals(ctx: StoreContext, sessionId: string): UsageTotals {
  const head = sessionHead(ctx, sessionId);
  const [lo, hi] = head === undefined ? [0, -1] : sessionRange(head.num);
  const byModel = ctx
    .stmt(
      `SELECT provider, api, model_id AS modelId, count(*) AS messages,
         sum(input_tokens) AS input, sum(output_tokens) AS output,
         sum(cache_read_tokens) AS cacheRead, sum(cache_write_tokens) AS cacheWrite,
         sum(total_tokens) AS totalTokens, sum(cost_total) AS cost
       FROM entries WHERE id BETWEEN ? AND ? AND kind = 'assistant'
       GROUP BY provider, api, model_id ORDER BY cost DESC, modelId`,
    )
    .all(lo, hi) as ModelUsage[];
  const total: UsageTotal = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0 };
  for (const m of byModel) {
    total.input += m.input;
    total.output += m.output;
    total.cacheRead += m.cacheRead;
    total.cacheWrite += m.cacheWrite;
    total.totalTokens += m.totalTokens;
    total.cost += m.cost;
  }
  return { total, byModel };
}
