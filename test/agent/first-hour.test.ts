/**
 * What a new user meets in the first hour, at the core: a failed turn is
 * stored as the turn's outcome (so a reload, replay and statistics show it),
 * a model switch before the first message just sets the model, `--demo` makes
 * the demo model the default even with a key around, and the offline demo
 * costs nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestMethod, RequestParams, RequestResult } from "../../shared/api";
import type { AssistantMessage } from "../../shared/protocol";
import { startCore } from "../../electron/core/host/start-core";
import { MODELS, messagesOf, startHarness, type Harness } from "./harness";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  cleanups.push(() => h.close());
  return h;
}

const GROQ = { provider: "groq", api: "openai-completions", id: "llama-3.3-70b-versatile" } as const;

describe("a failed turn is stored as the turn's outcome", () => {
  it("a model without a key: the user message gets an error answer that a reload, the timeline and the statistics show", async () => {
    const h = await harness({ model: GROQ });
    await h.turn("hello there");
    expect(h.faux.requests).toHaveLength(0);
    expect(h.events.some((e) => e.event === "turn.error")).toBe(true);

    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const messages = messagesOf(entries);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const answer = messages[1] as AssistantMessage;
    expect(answer.stopReason).toBe("error");
    expect(answer.errorMessage).toMatch(/No API key for Groq/);
    expect(answer.model).toEqual(GROQ);

    const timeline = await h.call("review.timeline", { sessionId: h.sessionId });
    expect(timeline.stats.errors.requests).toBe(1);

    // The next turn, on a model with a key, works: the stored error does not break the history sent.
    await h.call("chat.switchModel", { sessionId: h.sessionId, model: MODELS.anthropic });
    h.faux.script({ type: "reply", content: [{ type: "text", text: "Hi!" }] });
    await h.turn("and now?");
    const after = messagesOf((await h.call("session.load", { sessionId: h.sessionId })).entries);
    expect((after.at(-1) as AssistantMessage).stopReason).toBe("stop");
    expect(h.faux.requests.every((r) => r.accepted)).toBe(true);
  });
});

describe("model switches", () => {
  it("before the first message a switch just sets the model, without a marker", async () => {
    const h = await harness();
    await h.call("chat.switchModel", { sessionId: h.sessionId, model: MODELS.openaiChat });
    const s = await h.call("chat.switchModel", { sessionId: h.sessionId, model: MODELS.openaiResponses });
    expect(s.model).toEqual(MODELS.openaiResponses);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(entries.filter((e) => e.entry.type === "modelSwitch")).toEqual([]);
  });

  it("after a message a switch is recorded as a marker", async () => {
    const h = await harness();
    h.faux.script({ type: "reply", content: [{ type: "text", text: "Hi!" }] });
    await h.turn("hello");
    await h.call("chat.switchModel", { sessionId: h.sessionId, model: MODELS.openaiChat });
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(entries.filter((e) => e.entry.type === "modelSwitch")).toHaveLength(1);
  });
});

async function core(demo: boolean | "auto", env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "wb-first-hour-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const running = await startCore({ dbPath: join(dir, "workbench.db"), host: { mode: "web" }, version: "test", demo, env });
  cleanups.push(() => running.close());
  const call = async <M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> => {
    const res = await running.workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.message}`);
    return res.result as RequestResult<M>;
  };
  const ws = await call("workspace.open", { path: dir });
  return { running, call, workspaceId: ws.id };
}

describe("the demo model", () => {
  it("with --demo, new sessions use the demo model even when a key is in the environment", async () => {
    const c = await core(true, { ANTHROPIC_API_KEY: "sk-ant-test-0123456789abcdef" });
    const session = await c.call("session.create", { workspaceId: c.workspaceId });
    expect(session.model?.provider).toBe("demo");
  });

  it("costs nothing: a demo turn is stored with $0 and lists a $0 price", async () => {
    const c = await core(true, {});
    const demo = (await c.call("models.list", {})).find((m) => m.demo);
    expect(demo?.price).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    const session = await c.call("session.create", { workspaceId: c.workspaceId });
    const ended = new Promise<void>((resolve) => c.running.workbench.onEvent((event) => event === "stream.end" && resolve()));
    await c.call("chat.send", { sessionId: session.id, text: "hello" });
    await ended;
    const { entries } = await c.call("session.load", { sessionId: session.id });
    const answers = messagesOf(entries).filter((m): m is AssistantMessage => m.role === "assistant");
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((m) => m.usage.output > 0 && m.usage.cost.total === 0)).toBe(true);
    const stats = (await c.call("review.timeline", { sessionId: session.id })).stats;
    expect(stats.totals.cost).toBe(0);
  });
});
