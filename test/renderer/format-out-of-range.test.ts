/**
 * Stored numbers are whatever a session (or an imported export) holds: a
 * timestamp of -1e20, a duration of 1e300, token counts past any model. The
 * display helpers must turn them into text, never throw (a throw in a row
 * blanked the app on every start, since it reopens the last session).
 */
import { describe, expect, it } from "vitest";
import { formatCost, formatDuration, formatTime, formatTokens, timeAttribute } from "../../renderer/src/lib/format";
import { formatClock, formatDateTime, formatLatency } from "../../renderer/src/replay/replay-format";

const ODD = [-1e20, 1e20, 8.64e15 + 1, -8.64e15 - 1, Number.MAX_VALUE, -Number.MAX_VALUE, NaN, Infinity, -Infinity, -1, 1e300];

describe("display helpers with out-of-range stored values", () => {
  it("times out of the Date range show as unknown instead of throwing a RangeError", () => {
    for (const ts of ODD.filter((t) => !(Math.abs(t) <= 8.64e15))) {
      expect(formatTime(ts)).toBe("—");
      expect(formatClock(ts)).toBe("—");
      expect(formatDateTime(ts)).toBe("—");
      expect(timeAttribute(ts)).toBeUndefined();
    }
  });

  it("times in range still format as before", () => {
    const now = Date.now();
    expect(formatTime(now)).toMatch(/\d/);
    expect(formatClock(0)).toMatch(/\d/);
    expect(formatDateTime(-1)).toMatch(/19(69|70)/);
    expect(timeAttribute(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(timeAttribute(8.64e15)).toBe("+275760-09-13T00:00:00.000Z");
  });

  it("token counts, costs and durations of any size are short text", () => {
    for (const n of ODD) {
      for (const text of [formatTokens(n), formatCost(n), formatDuration(n), formatLatency(n)]) {
        expect(typeof text).toBe("string");
        expect(text.length).toBeLessThanOrEqual(24);
        expect(text).not.toMatch(/NaN|Infinity|undefined/);
      }
    }
    expect(formatTokens(1e300)).toBe("1.0e+300");
    expect(formatTokens(2_500_000_000)).toBe("2.50B");
    expect(formatCost(NaN)).toBe("$?");
    expect(formatDuration(Infinity)).toBe("?");
  });

  it("ordinary values keep their usual form", () => {
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(12_345)).toBe("12k");
    expect(formatTokens(3_400_000)).toBe("3.40M");
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.1234)).toBe("$0.123");
    expect(formatDuration(1500)).toBe("1.5 s");
    expect(formatDuration(125_000)).toBe("2 min 5 s");
    expect(formatLatency(12_000)).toBe("12.0 s");
  });
});
