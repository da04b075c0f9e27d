/**
 * The summary request of a compaction fits its budget whatever the summarised
 * part holds: a long session has thousands of the user's own prompts, and
 * listing them all made "Compact now" on a 20,000-message session fail with
 * "prompt is too long" (bench:session-memory found it).
 */
import { describe, expect, it } from "vitest";
import type { Message } from "../../shared/protocol";
import { summaryRequest } from "../../electron/core/agent/compaction-request";
import { textTokens } from "../../electron/core/agent/tokens";

const user = (text: string, i: number): Message => ({ role: "user", content: [{ type: "text", text }], timestamp: i });

function requestTokens(messages: readonly Message[]): number {
  return messages.reduce((n, m) => n + m.content.reduce((k, b) => k + (b.type === "text" ? textTokens(b.text) : 0), 0), 0);
}

describe("the summary request", () => {
  it("stays within its budget with 5,000 prompts of the user's, keeping the first and the newest word for word", () => {
    const older = Array.from({ length: 5_000 }, (_, i) => user(`prompt number ${i}: ${"please look at this again ".repeat(20)}`, i));
    const budget = 60_000;
    const { context } = summaryRequest({ older, keep: [], budget }, 0);
    const text = context.messages[0].content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(requestTokens(context.messages) + textTokens(context.systemPrompt ?? "")).toBeLessThanOrEqual(budget);
    expect(text).toContain("- prompt number 0:");
    expect(text).toContain("- prompt number 4999:");
    expect(text).toMatch(/\[\d+ more of the user's messages left out here: they did not fit\]/);
  });

  it("lists every prompt when they fit", () => {
    const older = Array.from({ length: 5 }, (_, i) => user(`short prompt ${i}`, i));
    const { context } = summaryRequest({ older, keep: [], budget: 60_000 }, 0);
    const text = context.messages[0].content.map((b) => (b.type === "text" ? b.text : "")).join("");
    for (let i = 0; i < 5; i++) expect(text).toContain(`- short prompt ${i}`);
    expect(text).not.toContain("left out here");
  });
});
