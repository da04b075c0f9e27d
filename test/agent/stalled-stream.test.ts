/**
 * A stream that stalls for ever is ended by the app's own idle timeout, not
 * the HTTP library's (undici's 300 s, reported as "the connection broke"),
 * with an accurate, retryable message; through the web-mode fetch path
 * against the faux provider's stall (a reply that hangs after a few events).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../shared/protocol";
import { DEFAULT_IDLE_TIMEOUT_MS } from "../../electron/core/providers/adapters/common";
import { TRANSPORT_TIMEOUT_MS } from "../../electron/core/network/node-fetch";
import { nodeProviderFetch } from "../../electron/core/network/provider-fetch";
import { MODELS, messagesOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe("a stalled stream", () => {
  it("the app's idle timeout is two minutes, below the HTTP library's own, so it is the one that fires", () => {
    expect(DEFAULT_IDLE_TIMEOUT_MS).toBe(120_000);
    expect(TRANSPORT_TIMEOUT_MS).toBeGreaterThan(DEFAULT_IDLE_TIMEOUT_MS);
  });

  it.each([
    ["Anthropic", MODELS.anthropic],
    ["OpenAI", MODELS.openaiChat],
  ] as const)(
    "%s: silence mid-answer ends the attempt with 'no data from the provider for 2 s', and the retry answers",
    async (_name, model) => {
      h = await startHarness({ model, workbench: { providerFetch: nodeProviderFetch({}), streamIdleTimeoutMs: 2000 } });
      h.faux.script([
        { type: "reply", content: [{ type: "text", text: "Some words, then silence." }], chunkSize: 5, hangAfterEvents: 4 },
        { type: "reply", content: [{ type: "text", text: "answered on the retry" }] },
      ]);
      await h.turn("hi");
      const retries = h.events.filter((e) => e.event === "turn.retry").map((e) => e.payload as { error: string });
      expect(retries).toHaveLength(1);
      expect(retries[0].error).toBe("stalled stream: no data from the provider for 2 s; the app stopped waiting");
      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      const assistant = messagesOf(entries).filter((m): m is AssistantMessage => m.role === "assistant");
      expect(assistant.map((m) => m.stopReason)).toEqual(["error", "stop"]);
      expect(assistant[0].errorMessage).toMatch(/^stalled stream: no data from the provider for 2 s/);
      expect(assistant[1].content).toEqual([{ type: "text", text: "answered on the retry" }]);
    },
  );
});
