/**
 * Retry after a failed turn: the core runs the turn again from the stored
 * history, so the model gets the user's message once and the session stores
 * it once. The automatic retries before it are attempts of that one turn.
 */
import { afterEach, describe, expect, it } from "vitest";
import { messagesOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const PROMPT = "Summarise the README";

describe("Retry after a failed turn", () => {
  it("re-runs the turn without a second copy of the prompt, in storage or on the wire", async () => {
    h = await startHarness();
    // The first request and its three automatic retries fail.
    h.faux.script([{ type: "serverError" }, { type: "serverError" }, { type: "serverError" }, { type: "serverError" }]);
    await h.turn(PROMPT);
    let { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const failed = messagesOf(entries).filter((m) => m.role === "assistant" && m.stopReason === "error");
    expect(failed).toHaveLength(4);

    h.faux.script([{ type: "reply", content: [{ type: "text", text: "It is a README." }] }]);
    const from = h.events.length;
    await h.call("chat.retry", { sessionId: h.sessionId });
    await h.waitIdle(from);

    ({ entries } = await h.call("session.load", { sessionId: h.sessionId }));
    const users = messagesOf(entries).filter((m) => m.role === "user");
    expect(users).toHaveLength(1);
    const last = h.faux.requests.at(-1);
    const prompts = JSON.stringify(last?.body).split(PROMPT).length - 1;
    expect(prompts).toBe(1);
    const answer = messagesOf(entries).at(-1);
    expect(answer?.role === "assistant" && answer.content).toEqual([{ type: "text", text: "It is a README." }]);

    // Nothing failed now: a second Retry is refused, not a new turn.
    const again = await h.workbench.handle("chat.retry", { sessionId: h.sessionId });
    expect(again.ok ? null : again.error.code).toBe("CONFLICT");
  });
});
