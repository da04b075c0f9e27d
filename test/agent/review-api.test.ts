import { afterEach, describe, expect, it } from "vitest";
import { MODELS, TEST_KEYS, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe("review methods through the WorkbenchApi", () => {
  it("serve the timeline, what the model saw and a redacted export of a session the loop ran", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "call_abc|fc_1", name: "read", arguments: { path: "a.txt" } }] },
      { type: "reply", content: [{ type: "text", text: `done; my key is ${TEST_KEYS.ANTHROPIC_API_KEY}` }] },
    ]);
    await h.turn("read a.txt");
    await h.call("chat.switchModel", { sessionId: h.sessionId, model: MODELS.openaiChat });
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "hello from chat" }] }]);
    await h.turn("and now?");

    const timeline = await h.call("review.timeline", { sessionId: h.sessionId });
    expect(timeline.stats).toBeDefined();
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const lastAssistant = [...entries].reverse().find((e) => e.entry.type === "message" && e.entry.message.role === "assistant");
    const view = await h.call("review.modelView", { sessionId: h.sessionId, seq: lastAssistant!.seq });
    // The body rebuilt from storage is the one the provider received.
    const received = h.faux.requests.at(-1)!.body as Record<string, unknown>;
    expect(view.body).toEqual(received);

    for (const format of ["json", "markdown", "html"] as const) {
      const exported = await h.call("review.export", { sessionId: h.sessionId, format });
      expect(exported.content).not.toContain(TEST_KEYS.ANTHROPIC_API_KEY);
    }
  });
});
