/** A cost from a model without a known price reads "price unknown", never "$0", alone or in a session's sum. */
import { describe, expect, it } from "vitest";
import type { AssistantMessage, StoredEntry } from "../../../shared/protocol";
import { formatCostOf } from "./format";
import { appendEntries, buildTranscript } from "./transcript-model";

function answer(seq: number, cost: AssistantMessage["usage"]["cost"]): StoredEntry {
  const message: AssistantMessage = {
    role: "assistant",
    content: [{ type: "text", text: "hi" }],
    stopReason: "stop",
    model: { provider: "anthropic", api: "anthropic-messages", id: "m" },
    usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost },
    timestamp: 1,
  };
  return { seq, entry: { type: "message", message } };
}

describe("costs with unknown prices", () => {
  it("shows an unknown cost as unknown and a partly known sum as the known part plus unknown", () => {
    expect(formatCostOf(0, true)).toBe("price unknown");
    expect(formatCostOf(0.5, true)).toBe("$0.500 + price unknown");
    expect(formatCostOf(0, false)).toBe("$0");
    expect(formatCostOf(0, undefined)).toBe("$0");
  });

  it("a session's totals remember that an answer had no known price; an old session's costs are known", () => {
    const known = { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 };
    const old = buildTranscript([answer(1, known), answer(2, known)]);
    expect(old.totals).toEqual({ tokens: 30, cost: 0.6, costUnknown: false });
    const mixed = appendEntries(old, [answer(3, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, unknown: true })]);
    expect(mixed.totals).toMatchObject({ tokens: 45, costUnknown: true });
    expect(mixed.totals.cost).toBeCloseTo(0.6);
  });
});
