/**
 * retry-after honoured through the web-mode fetch path (undici with its
 * proxy agent, what web mode and headless runs use), against the faux
 * provider's 429. The wait is observed through what the loop reports and
 * hands its sleep, never timed.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../shared/protocol";
import { nodeProviderFetch } from "../../electron/core/network/provider-fetch";
import { MODELS, messagesOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe.each([
  ["Anthropic", MODELS.anthropic],
  ["OpenAI", MODELS.openaiChat],
] as const)("%s over the web-mode fetch", (_name, model) => {
  it("a 429 with retry-after: 3 is retried after exactly 3 s, and the wait is shown as the provider's", async () => {
    const slept: number[] = [];
    h = await startHarness({
      model,
      workbench: { providerFetch: nodeProviderFetch({}), sleep: async (ms) => void slept.push(ms) },
    });
    h.faux.script([
      { type: "rateLimit", retryAfterSeconds: 3 },
      { type: "reply", content: [{ type: "text", text: "after the wait" }] },
    ]);
    await h.turn("hi");
    const retries = h.events.filter((e) => e.event === "turn.retry").map((e) => e.payload);
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, delayMs: 3000, hinted: true })]);
    expect(slept).toEqual([3000]);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(messagesOf(entries).at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
  });

  it("a 429 with retry-after: 3600 is not retried before then: the turn ends saying how long the provider asked to wait", async () => {
    const slept: number[] = [];
    h = await startHarness({
      model,
      workbench: { providerFetch: nodeProviderFetch({}), sleep: async (ms) => void slept.push(ms) },
    });
    h.faux.script([
      { type: "rateLimit", retryAfterSeconds: 3600 },
      { type: "reply", content: [{ type: "text", text: "too early" }] },
    ]);
    await h.turn("hi");
    expect(h.events.filter((e) => e.event === "turn.retry")).toEqual([]);
    expect(slept).toEqual([]);
    expect(h.faux.requests.length).toBe(1);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const last = messagesOf(entries).at(-1) as AssistantMessage;
    expect(last.stopReason).toBe("error");
    expect(last.errorMessage).toMatch(/^429 .*\(the provider asks to wait 1 h before the next request \(until .* UTC\)/);
  });
});
