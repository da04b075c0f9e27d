/**
 * Other models' reasoning is dropped, not demoted: a GPT-5 (Responses) turn
 * that reasoned, then a switch to Claude — the body the faux Anthropic server
 * received carries none of GPT-5's reasoning (Anthropic answers reasoning
 * passed off as text with `Refusal (reasoning_extraction)`), while the visible
 * text and the tool call still reach it; "what the model saw" says what was
 * left out. Real core, real adapters, faux provider on loopback.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { FauxReply } from "../../electron/core/faux";
import { expectAllAccepted, MODELS, startHarness, type Harness } from "./harness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const GPT5_REASONING = "GPT5-PRIVATE-CHAIN: the user wants the notes summarised, read notes.md first";

describe("switching from GPT-5 to Claude", () => {
  it("sends no GPT-5 reasoning in the Anthropic body, and lists it as left out in what the model saw", async () => {
    h = await startHarness({ files: { "notes.md": "# notes\nship on Friday\n" }, model: MODELS.openaiResponses });
    const withReasoning: FauxReply = {
      type: "reply",
      content: [
        { type: "thinking", thinking: GPT5_REASONING },
        { type: "text", text: "Reading the notes." },
        { type: "toolCall", id: "call_n1|fc_n1", name: "read", arguments: { path: "notes.md" } },
      ],
    };
    h.faux.script([withReasoning, { type: "reply", content: [{ type: "text", text: "The notes say: ship on Friday." }] }]);
    await h.turn("summarise the notes");

    // GPT-5 got its own reasoning item back in its tool loop (encrypted content, same model).
    const responses = h.faux.requests.filter((r) => r.route === "openai-responses");
    expect(responses).toHaveLength(2);
    expect(JSON.stringify(responses[1].body)).toContain('"type":"reasoning"');

    await h.call("chat.switchModel", { sessionId: h.sessionId, model: MODELS.anthropic });
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "Friday it is." }] }]);
    await h.turn("and when do we ship?");

    const anthropic = h.faux.requests.filter((r) => r.route === "anthropic");
    expect(anthropic).toHaveLength(1);
    const body = JSON.stringify(anthropic[0].body);
    expect(body).not.toContain("GPT5-PRIVATE-CHAIN");
    expect(body).not.toContain('"type":"thinking"');
    expect(body).not.toContain("encrypted");
    // What the user saw still reaches Claude: the visible text, the call and its result.
    expect(body).toContain("Reading the notes.");
    expect(body).toContain('"type":"tool_use"');
    expect(body).toContain("ship on Friday");
    expectAllAccepted(h);

    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const claudeSeq = entries.filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant").at(-1)?.seq;
    const gptSeq = entries.find((e) => e.entry.type === "message" && e.entry.message.role === "assistant")?.seq;
    if (claudeSeq === undefined || gptSeq === undefined) throw new Error("no assistant entries");
    const view = await h.call("review.modelView", { sessionId: h.sessionId, seq: claudeSeq });
    expect(JSON.stringify(view.body)).not.toContain("GPT5-PRIVATE-CHAIN");
    expect(view.repairs).toEqual([
      expect.objectContaining({ kind: "otherReasoningDropped", seq: gptSeq, detail: expect.stringContaining("openai/gpt-5") }),
    ]);
  });
});
