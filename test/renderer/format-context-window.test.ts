/**
 * The model switcher's "… context" reads as a size, not a raw quotient:
 * GPT-4.1's 1,047,576 tokens were shown as "1.047576M context".
 */
import { describe, expect, it } from "vitest";
import { formatContextWindow } from "../../renderer/src/lib/format";

describe("formatContextWindow", () => {
  it("rounds millions to at most two decimals and drops trailing zeros", () => {
    expect(formatContextWindow(1_047_576)).toBe("1.05M");
    expect(formatContextWindow(1_048_576)).toBe("1.05M");
    expect(formatContextWindow(1_000_000)).toBe("1M");
    expect(formatContextWindow(2_000_000)).toBe("2M");
    expect(formatContextWindow(1_500_000)).toBe("1.5M");
    expect(formatContextWindow(10_000_000)).toBe("10M");
  });

  it("keeps thousands whole", () => {
    expect(formatContextWindow(200_000)).toBe("200k");
    expect(formatContextWindow(131_072)).toBe("131k");
    expect(formatContextWindow(999_999)).toBe("1M");
  });
});
