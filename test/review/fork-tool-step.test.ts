/**
 * A fork made at a step with a tool call keeps that call's result: the fork
 * shows what happened, not a false "aborted" (the app did not stop there).
 */
import { afterEach, describe, expect, it } from "vitest";
import { messagesOf, resultsOf, startHarness, type Harness } from "../agent/harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe("fork at a step with a tool call", () => {
  it("keeps the call's result in the fork, from the transcript and from replay", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.txt" } }] },
      { type: "reply", content: [{ type: "text", text: "It says alpha." }] },
    ]);
    await h.turn("read a.txt");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const step = entries.find((e) => e.entry.type === "message" && e.entry.message.role === "assistant");
    expect(step).toBeDefined();
    const seq = step?.seq ?? 0;

    const model = (await h.call("session.load", { sessionId: h.sessionId })).session.model;
    for (const fork of [
      await h.call("session.fork", { sessionId: h.sessionId, atSeq: seq }),
      await h.call("review.fork", {
        sessionId: h.sessionId,
        atSeq: seq,
        model: model ?? { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-6" },
      }),
    ]) {
      const loaded = await h.call("session.load", { sessionId: fork.id });
      const results = resultsOf(loaded.entries);
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ toolCallId: "call_a", isError: false });
      expect(JSON.stringify(results[0].content)).not.toContain("aborted");
      // The answer after the call is not part of the fork.
      expect(messagesOf(loaded.entries).some((m) => m.role === "assistant" && m.stopReason === "stop")).toBe(false);
    }
  });
});
