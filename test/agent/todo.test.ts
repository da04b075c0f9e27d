/**
 * The todo plan through the real core against the faux provider
 * (docs/sub-agents.md#the-todo-plan): the tool's answer and bounds, no
 * approval but an audit row, the plan derived from the stored calls, the
 * user's edit reaching the model's next request (at the next tool boundary
 * while a turn runs), and the plan carried through a compaction.
 */
import { afterEach, describe, expect, it } from "vitest";
import { planFromEntries, TODO_MAX_ITEMS, TODO_MAX_TEXT, type TodoItem } from "../../shared/todo";
import { faults, type FauxReply, type FauxRequest } from "../../electron/core/faux";
import { readTranscript } from "../../electron/core/faux/transcript";
import { expectAllAccepted, expectEveryCallAnswered, resultsOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const say = (text: string): FauxReply => ({ type: "reply", content: [{ type: "text", text }] });
const todo = (id: string, items: unknown, extra: Partial<FauxReply> = {}): FauxReply => ({
  type: "reply",
  content: [{ type: "toolCall", id, name: "todo", arguments: { items } }],
  ...extra,
});
const PLAN: TodoItem[] = [
  { text: "Read the config loader", status: "in_progress" },
  { text: "Add the --fast flag", status: "pending" },
  { text: "Update the docs", status: "pending" },
];
const userTexts = (req: Pick<FauxRequest, "turns">) => req.turns.flatMap((t) => (t.role === "user" ? [t.text] : []));

describe("the todo plan", () => {
  it("the todo tool sets the plan without asking; the call is stored and audited; the plan is derived from the calls", async () => {
    h = await startHarness();
    h.faux.script([todo("toolu_plan", PLAN), (req) => say(`got: ${req.lastTurn?.role === "toolResult" ? req.lastTurn.text : "?"}`)]);
    const from = h.events.length;
    await h.turn("plan the work");
    expect(
      h.events.slice(from).some((e) => e.event === "turn.state" && (e.payload as { status: string }).status === "awaitingApproval"),
    ).toBe(false);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const [result] = resultsOf(entries);
    expect(result).toMatchObject({ toolName: "todo", isError: false, details: { plan: PLAN } });
    expect(JSON.stringify(result.content)).toContain("The plan is updated: 0 done, 1 in progress, 2 pending.");
    expect(JSON.stringify(result.content)).toContain("1. [~] Read the config loader");
    expect(planFromEntries(entries)).toEqual(PLAN);
    expect(entries.some((e) => e.entry.type === "approval")).toBe(false);
    const exported = JSON.parse((await h.call("review.export", { sessionId: h.sessionId, format: "json" })).content) as {
      toolCalls: Array<Record<string, unknown>>;
    };
    expect(exported.toolCalls).toEqual([expect.objectContaining({ toolName: "todo", status: "done", args: { items: PLAN } })]);
    expectAllAccepted(h);
  });

  it("a plan over the bounds is refused with the tool's error and changes nothing", async () => {
    h = await startHarness();
    const tooMany = Array.from({ length: TODO_MAX_ITEMS + 1 }, (_, i) => ({ text: `step ${i}`, status: "pending" }));
    h.faux.script([
      todo("toolu_ok", PLAN),
      todo("toolu_many", tooMany),
      todo("toolu_long", [{ text: "x".repeat(TODO_MAX_TEXT + 1), status: "pending" }]),
      todo("toolu_status", [{ text: "a", status: "started" }]),
      todo("toolu_extra", [{ text: "a", status: "done", owner: "me" }]),
      faults.invalidToolJson("todo", '{"items": [{"text": "a", "status": "done"}', "toolu_json"),
      say("done"),
    ]);
    await h.turn("plan badly");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const results = resultsOf(entries);
    expect(results.map((r) => r.isError)).toEqual([false, true, true, true, true, true]);
    for (const r of results.slice(1, 5)) expect(JSON.stringify(r.content)).toContain("The todo tool was called with invalid arguments");
    expect(JSON.stringify(results[5].content)).toContain("The arguments of this todo call are not valid JSON");
    expect(JSON.stringify(results[1].content)).toContain(`expected array to have <=${TODO_MAX_ITEMS} items`);
    expect(planFromEntries(entries)).toEqual(PLAN);
    expectEveryCallAnswered(entries);
  });

  it("the user's edit while idle is stored as an entry the model reads on its next request", async () => {
    h = await startHarness();
    h.faux.script([todo("toolu_plan", PLAN), say("planned"), (req) => say(`users: ${userTexts(req).join(" | ")}`)]);
    await h.turn("plan the work");
    const edited: TodoItem[] = [
      { text: "Read the config loader", status: "done" },
      { text: "Add the --fast flag and a test", status: "in_progress" },
    ];
    await h.call("session.setPlan", { sessionId: h.sessionId, items: edited });
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(entries.at(-1)?.entry).toMatchObject({ type: "planEdit", items: edited });
    expect(planFromEntries(entries)).toEqual(edited);
    await h.turn("go on");
    const last = h.faux.requests.at(-1);
    const turns = userTexts({ turns: last ? readTranscript(last.route, last.body).turns : [] });
    expect(turns.join("\n")).toContain(
      "The user edited your plan (todo). It is now:\n1. [x] Read the config loader\n2. [~] Add the --fast flag and a test",
    );
    expectAllAccepted(h);
  });

  it("an edit during a tool call joins at the next tool boundary: after the batch's results, before the next request", async () => {
    h = await startHarness({ files: { "a.txt": "a\n" } });
    h.faux.script([
      todo("toolu_plan", PLAN),
      { type: "reply", content: [{ type: "toolCall", id: "toolu_read", name: "read", arguments: { path: "a.txt" } }], chunkDelayMs: 20 },
      (req) => say(`last user turn: ${userTexts(req).at(-1) ?? ""}`),
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "plan, then read" });
    // The second request streams its read call (the rest of it comes on timers): the plan is set, the read not run yet.
    await h.waitFor("stream.partial", (p) => p.message.content.some((b) => b.type === "toolCall" && b.name === "read"), from);
    const edited: TodoItem[] = [{ text: "Only this", status: "pending" }];
    await h.call("session.setPlan", { sessionId: h.sessionId, items: edited });
    const state = await h.waitFor("turn.state", (s) => s.pendingPlan !== undefined, from);
    expect(state.pendingPlan).toEqual(edited);
    await h.waitIdle(from);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const kinds = entries.map((e) => (e.entry.type === "message" ? e.entry.message.role : e.entry.type));
    expect(kinds.slice(-4)).toEqual(["assistant", "toolResult", "planEdit", "assistant"]);
    expect(JSON.stringify(entries.at(-1)?.entry)).toContain("last user turn: [Agent Workbench] The user edited your plan");
    expectEveryCallAnswered(entries);
    expectAllAccepted(h);
  });

  it("an edit during a turn that is stopped is still stored, once the turn has answered its calls", async () => {
    h = await startHarness();
    h.faux.script([
      {
        type: "reply",
        content: [
          { type: "text", text: "Reading…" },
          { type: "toolCall", id: "toolu_hang", name: "read", arguments: { path: "a.txt" } },
        ],
        chunkSize: 100,
        hangAfterEvents: 5,
      },
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "go" });
    await h.waitFor("stream.partial", () => true, from);
    const edited: TodoItem[] = [{ text: "Kept through Stop", status: "pending" }];
    await h.call("session.setPlan", { sessionId: h.sessionId, items: edited });
    await h.waitFor("turn.state", (s) => s.pendingPlan !== undefined, from);
    await h.call("chat.abort", { sessionId: h.sessionId });
    await h.waitIdle(from);
    const { entries, turn } = await h.call("session.load", { sessionId: h.sessionId });
    expect(turn.pendingPlan).toBeUndefined();
    expect(entries.at(-1)?.entry).toMatchObject({ type: "planEdit", items: edited });
    expect(planFromEntries(entries)).toEqual(edited);
    expectEveryCallAnswered(entries);
  });

  it("the plan survives compaction: the summary carries it and the next request reads it, with the todo call compacted away", async () => {
    h = await startHarness();
    h.faux.script([
      todo("toolu_plan", PLAN),
      // Long enough that the first turn is summarised, not kept verbatim (a compaction that would not shrink is refused).
      say(`planned ${"with many details ".repeat(14_000)}`),
      say("second answer"),
      say("SUMMARY: the user wants a --fast flag."),
      (req) => say(`first user turn: ${userTexts(req)[0] ?? ""}`),
    ]);
    await h.turn("plan the work");
    await h.turn("second question");
    await h.call("session.compact", { sessionId: h.sessionId });
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const compaction = entries.find((e) => e.entry.type === "compaction")?.entry;
    const planText =
      "Your plan (todo) as it stood when the conversation was compacted:\n1. [~] Read the config loader\n2. [ ] Add the --fast flag\n3. [ ] Update the docs";
    expect(compaction?.type === "compaction" && compaction.summary).toContain("SUMMARY: the user wants a --fast flag.");
    // The summariser was given the plan, and the plan is put back after the summary, word for word.
    // The fourth request is the summary's (the script answers it with "SUMMARY: …").
    expect(JSON.stringify(h.faux.requests[3]?.body)).toContain("1. [~] Read the config loader");
    expect(compaction?.type === "compaction" && compaction.carried).toContain(planText);
    await h.turn("third question");
    const last = h.faux.requests.at(-1);
    const body = JSON.stringify(last?.body);
    expect(body).toContain("1. [~] Read the config loader");
    expect(body).not.toContain("toolu_plan");
    expectAllAccepted(h);
  });

  it("refuses a plan over the bounds from the user too, and stores nothing", async () => {
    h = await startHarness();
    const res = await h.workbench.handle("session.setPlan", {
      sessionId: h.sessionId,
      items: [{ text: "x".repeat(TODO_MAX_TEXT + 1), status: "pending" }],
    });
    expect(res).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    const bad = await h.workbench.handle("session.setPlan", { sessionId: h.sessionId, items: [{ text: "a", status: "blocked" }] });
    expect(bad).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(entries).toEqual([]);
  });
});
