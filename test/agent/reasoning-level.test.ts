/**
 * The session's reasoning level: stored with the session, a marker entry when
 * it changes, and sent to each API as it expects (checked on the bodies the
 * faux provider received). Levels come from the models' declared capabilities.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MODELS, startHarness, type Harness } from "./harness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Body = Record<string, unknown>;
const lastBody = (harness: Harness, route: string): Body => {
  const request = harness.faux.requests.filter((r) => r.route === route).at(-1);
  if (!request) throw new Error(`no ${route} request`);
  expect(request.rejection?.message ?? null).toBeNull();
  return request.body as Body;
};

describe("reasoning level", () => {
  it("is stored with the session, marked in the transcript, and sent to Anthropic, Responses and Chat as each expects", async () => {
    h = await startHarness({ model: MODELS.anthropic });
    const models = await h.call("models.list", {});
    const levelsOf = (provider: string, api: string, id: string) =>
      models.find((m) => m.provider === provider && m.api === api && m.id === id)?.reasoningLevels;
    expect(levelsOf("anthropic", "anthropic-messages", "claude-sonnet-4-6")).toEqual(["default", "off", "low", "medium", "high"]);
    expect(levelsOf("openai", "openai-responses", "gpt-5")).toEqual(["default", "off", "low", "medium", "high"]);
    expect(levelsOf("openai", "openai-responses", "o3")).toEqual(["default", "low", "medium", "high"]);
    expect(levelsOf("openai", "openai-completions", "gpt-4.1")).toEqual([]);
    expect(levelsOf("deepseek", "openai-completions", "deepseek-reasoner")).toEqual([]);

    // Model default: nothing requested.
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "ok" }] }]);
    await h.turn("hello");
    expect(lastBody(h, "anthropic")).not.toHaveProperty("thinking");

    const summary = await h.call("chat.setReasoning", { sessionId: h.sessionId, level: "high" });
    expect(summary.reasoning).toBe("high");
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "ok" }] }]);
    await h.turn("think hard");
    // Sonnet 4.6 declares adaptive thinking: an effort, not a budget.
    expect(lastBody(h, "anthropic")).toMatchObject({ thinking: { type: "adaptive" }, output_config: { effort: "high" } });

    await h.call("chat.switchModel", {
      sessionId: h.sessionId,
      model: { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" },
    });
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "ok" }] }]);
    await h.turn("again");
    const budget = lastBody(h, "anthropic");
    expect(budget).toMatchObject({ thinking: { type: "enabled", budget_tokens: 24_576 } });
    expect(budget.max_tokens as number).toBeGreaterThan(24_576);

    await h.call("chat.switchModel", { sessionId: h.sessionId, model: MODELS.openaiResponses });
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "ok" }] }]);
    await h.turn("and on GPT-5");
    expect(lastBody(h, "openai-responses")).toMatchObject({
      reasoning: { effort: "high", summary: "auto" },
      include: ["reasoning.encrypted_content"],
      store: false,
    });

    await h.call("chat.setReasoning", { sessionId: h.sessionId, level: "off" });
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "ok" }] }]);
    await h.turn("quick one");
    expect(lastBody(h, "openai-responses")).toMatchObject({ reasoning: { effort: "minimal" } });

    await h.call("chat.setReasoning", { sessionId: h.sessionId, level: "low" });
    await h.call("chat.switchModel", { sessionId: h.sessionId, model: { provider: "openai", api: "openai-completions", id: "gpt-5" } });
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "ok" }] }]);
    await h.turn("on chat");
    expect(lastBody(h, "openai-completions")).toMatchObject({ reasoning_effort: "low" });

    // A model that does not reason gets nothing, whatever the session's level.
    await h.call("chat.switchModel", { sessionId: h.sessionId, model: MODELS.openaiChat });
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "ok" }] }]);
    await h.turn("plain");
    expect(lastBody(h, "openai-completions")).not.toHaveProperty("reasoning_effort");

    const { session, entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(session.reasoning).toBe("low");
    const changes = entries.flatMap((e) => (e.entry.type === "reasoningChange" ? [[e.entry.from, e.entry.to]] : []));
    expect(changes).toEqual([
      ["default", "high"],
      ["high", "off"],
      ["off", "low"],
    ]);
    // Setting the same level again adds no marker.
    await h.call("chat.setReasoning", { sessionId: h.sessionId, level: "low" });
    expect((await h.call("session.load", { sessionId: h.sessionId })).entries).toHaveLength(entries.length);

    // The review rebuilds the request with the level of its time.
    const timeline = await h.call("review.timeline", { sessionId: h.sessionId });
    expect(timeline.items.filter((i) => i.kind === "reasoningChange").map((i) => i.summary)).toContain(
      "Reasoning level changed from default to high",
    );
    const highSeq = entries.filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant")[1].seq;
    const view = await h.call("review.modelView", { sessionId: h.sessionId, seq: highSeq });
    expect(view.body).toMatchObject({ thinking: { type: "adaptive" }, output_config: { effort: "high" } });
  });
});
