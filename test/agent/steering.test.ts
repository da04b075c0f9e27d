/**
 * Steering and follow-ups (docs/sub-agents.md#steering-and-follow-ups): a
 * steering message joins the running turn at its next tool boundary (after
 * the batch's results, before the next request), stored as a user message; a
 * follow-up waits for the turn to end and starts its own; Stop delivers
 * neither. Asserted on the bodies the faux provider received.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { FauxReply, FauxRequest, FauxTurn } from "../../electron/core/faux";
import { readTranscript } from "../../electron/core/faux/transcript";
import { expectAllAccepted, expectEveryCallAnswered, messagesOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const say = (text: string): FauxReply => ({ type: "reply", content: [{ type: "text", text }] });
const slowRead = (id: string): FauxReply => ({
  type: "reply",
  content: [{ type: "toolCall", id, name: "read", arguments: { path: "a.txt" } }],
  chunkDelayMs: 20,
});
const turnsOf = (r: { route: FauxRequest["route"]; body: unknown }): FauxTurn[] => readTranscript(r.route, r.body).turns;
const shape = (turns: FauxTurn[]) => turns.filter((t) => t.role !== "system").map((t) => (t.role === "user" ? `user:${t.text}` : t.role));

describe("steering and follow-ups", () => {
  it("a steering message sent during a tool loop reaches the next request, right after the batch's results", async () => {
    h = await startHarness({ files: { "a.txt": "a\n" } });
    h.faux.script([slowRead("toolu_1"), slowRead("toolu_2"), say("done, as steered")]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "read a.txt" });
    await h.waitFor("stream.partial", () => true, from);
    expect(await h.call("chat.send", { sessionId: h.sessionId, text: "use the second copy", delivery: "steer" })).toEqual({ queued: true });
    const state = await h.waitFor("turn.state", (s) => (s.steering ?? []).includes("use the second copy"), from);
    expect(state.queued).toEqual([]);
    await h.waitIdle(from);

    const [, second, third] = h.faux.requests;
    // The request after the first batch carries the steering message after the read's result; nothing later moved it.
    expect(shape(turnsOf(second))).toEqual(["user:read a.txt", "assistant", "toolResult", "user:use the second copy"]);
    expect(shape(turnsOf(third)).slice(0, 4)).toEqual(shape(turnsOf(second)));
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(messagesOf(entries).map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    expect(messagesOf(entries)[3]).toMatchObject({ role: "user", content: [{ type: "text", text: "use the second copy" }] });
    expectEveryCallAnswered(entries);
    expectAllAccepted(h);
  });

  it("a follow-up waits for the turn to end and starts a turn of its own", async () => {
    h = await startHarness({ files: { "a.txt": "a\n" } });
    h.faux.script([slowRead("toolu_1"), say("first turn done"), say("follow-up answered")]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "read a.txt" });
    await h.waitFor("stream.partial", () => true, from);
    await h.call("chat.send", { sessionId: h.sessionId, text: "then summarise" });
    const state = await h.waitFor("turn.state", (s) => s.queued.includes("then summarise"), from);
    expect(state.steering).toBeUndefined();
    // Two turns: the first ends, the follow-up's begins.
    await h.waitFor("stream.end", (p) => p.sessionId === h?.sessionId, from);
    const ends = () => h?.events.slice(from).filter((e) => e.event === "stream.end").length ?? 0;
    await expect.poll(ends, { timeout: 60_000 }).toBe(2);

    const [, second, third] = h.faux.requests;
    expect(shape(turnsOf(second))).toEqual(["user:read a.txt", "assistant", "toolResult"]);
    expect(shape(turnsOf(third))).toEqual(["user:read a.txt", "assistant", "toolResult", "assistant", "user:then summarise"]);
    expectAllAccepted(h);
  });

  it("a steering message sent while the model writes its final answer keeps the turn going for one more request", async () => {
    h = await startHarness();
    h.faux.script([
      { type: "reply", content: [{ type: "text", text: "Here is a long answer that streams slowly." }], chunkSize: 4, chunkDelayMs: 10 },
      (req) => say(`steered by: ${shape(req.turns).at(-1) ?? ""}`),
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "explain" });
    await h.waitFor("stream.partial", () => true, from);
    await h.call("chat.send", { sessionId: h.sessionId, text: "shorter please", delivery: "steer" });
    await h.waitIdle(from);
    expect(h.events.slice(from).filter((e) => e.event === "stream.end")).toHaveLength(1);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(JSON.stringify(messagesOf(entries).at(-1))).toContain("steered by: user:shorter please");
  });

  it("Stop delivers neither steering messages nor follow-ups", async () => {
    h = await startHarness();
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "working ".repeat(50) }], chunkSize: 4, hangAfterEvents: 5 }]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "go" });
    await h.waitFor("stream.partial", () => true, from);
    await h.call("chat.send", { sessionId: h.sessionId, text: "steer me", delivery: "steer" });
    await h.call("chat.send", { sessionId: h.sessionId, text: "and later this" });
    await h.waitFor("turn.state", (s) => s.queued.length === 1 && s.steering?.length === 1, from);
    await h.call("chat.abort", { sessionId: h.sessionId });
    await h.waitIdle(from);
    const { entries, turn } = await h.call("session.load", { sessionId: h.sessionId });
    expect(turn).toMatchObject({ status: "idle", queued: [] });
    expect(turn.steering).toBeUndefined();
    expect(messagesOf(entries).map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("steering an idle session just starts a turn", async () => {
    h = await startHarness();
    h.faux.script([say("hello")]);
    expect(await h.call("chat.send", { sessionId: h.sessionId, text: "hi", delivery: "steer" })).toEqual({ queued: false });
    await h.waitIdle();
    expect(h.faux.requests).toHaveLength(1);
  });
});
