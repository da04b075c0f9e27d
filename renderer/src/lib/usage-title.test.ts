import { describe, expect, it } from "vitest";
import { usageTitle } from "./format";

describe("a message's usage, spelled out", () => {
  it("names cache reads and writes with their cost, and reasoning tokens where the provider reported them", () => {
    const usage = {
      input: 100,
      output: 50,
      cacheRead: 9_000,
      cacheWrite: 2_000,
      totalTokens: 11_150,
      reasoningTokens: 30,
      cost: { input: 0.0003, output: 0.00075, cacheRead: 0.0027, cacheWrite: 0.0075, total: 0.01125 },
    };
    expect(usageTitle(usage)).toBe(
      "input 100 ($0.0003) · output 50 ($0.0008) · cache read 9000 ($0.0027) · cache write 2000 ($0.0075) · reasoning 30 (in output)",
    );
    const { reasoningTokens: _none, ...older } = usage;
    expect(usageTitle(older)).not.toContain("reasoning");
  });
});
