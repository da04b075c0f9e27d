import { describe, expect, it } from "vitest";
import { byModel, byTool, errorsOnly, filterChoices, filterTimeline, sideEffectsOnly } from "../../electron/core/review/filters";
import { sessionStats } from "../../electron/core/review/stats";
import { buildTimeline } from "../../electron/core/review/timeline";
import { GPT5, SONNET, T0, buildSession } from "./fixture";

function timeline() {
  const f = buildSession();
  const entries = f.store.loadEntries(f.sessionId);
  const items = buildTimeline(entries, f.store.listToolCalls(f.sessionId));
  return { ...f, entries, items, stats: sessionStats(entries, items) };
}

describe("replay timeline", () => {
  it("lists every entry in order, with one item per tool call right after its assistant message", () => {
    const { items } = timeline();
    expect(items.map((i) => `${i.seq}:${i.kind}`)).toEqual([
      "1:user",
      "2:assistant",
      "2:toolCall",
      "2:toolCall",
      "3:toolResult",
      "4:toolResult",
      "5:assistant",
      "5:toolCall",
      "6:approval",
      "7:toolResult",
      "8:assistant",
      "9:modelSwitch",
      "10:user",
      "11:error",
      "12:assistant",
      "12:toolCall",
      "12:toolCall",
      "13:approval",
      "14:toolResult",
      "15:approval",
      "16:toolResult",
      "17:assistant",
      "18:user",
      "19:assistant",
      "19:toolCall",
      "20:approval",
      "21:toolResult",
      "22:assistant",
    ]);
    expect(items.map((i) => i.index)).toEqual(items.map((_, n) => n));
  });

  it("gives each assistant step its model, tokens, cost and latency from the message that triggered it", () => {
    const { items } = timeline();
    const first = items[1];
    expect(first).toMatchObject({
      kind: "assistant",
      timestamp: T0 + 1_200,
      model: GPT5,
      tokens: { input: 1_000, output: 50, cacheRead: 0, cacheWrite: 0, total: 1_050 },
      cost: 0.01,
      latencyMs: 200,
      outcome: "toolUse",
      summary: "Let me look at the code.",
    });
    // The edit request followed the failed read's result at +1310.
    expect(items[6]).toMatchObject({ kind: "assistant", latencyMs: 490, summary: "Calls edit" });
    // The retry after the rate-limit error.
    expect(items[14]).toMatchObject({ kind: "assistant", model: SONNET, latencyMs: 1_900 });
    expect(items[13]).toMatchObject({
      kind: "error",
      model: SONNET,
      isError: true,
      outcome: "error",
      summary: "Error: 429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit",
    });
  });

  it("links tool calls to their results: outcome, error code, audit duration and latency", () => {
    const { items } = timeline();
    expect(items[2]).toMatchObject({
      kind: "toolCall",
      toolName: "read",
      toolCallId: "call_abc|fc_1",
      outcome: "ok",
      durationMs: 4,
      sideEffect: false,
      summary: "read src/app.ts",
    });
    expect(items[3]).toMatchObject({ kind: "toolCall", outcome: "error", errorCode: "NOT_FOUND", isError: true });
    expect(items[4]).toMatchObject({
      kind: "toolResult",
      toolCallId: "call_abc|fc_1",
      outcome: "ok",
      latencyMs: 100,
      durationMs: 4,
      model: GPT5,
    });
    expect(items[5]).toMatchObject({ kind: "toolResult", outcome: "error", errorCode: "NOT_FOUND", isError: true, durationMs: 2 });
    expect(items[16]).toMatchObject({
      kind: "toolCall",
      toolName: "bash",
      outcome: "denied",
      errorCode: "DENIED",
      isError: false,
      sideEffect: true,
    });
    expect(items[20]).toMatchObject({ kind: "toolResult", toolName: "bash", outcome: "denied", isError: false });
    expect(items[8]).toMatchObject({
      kind: "approval",
      outcome: "approved",
      toolName: "edit",
      latencyMs: 700,
      sideEffect: true,
      model: GPT5,
    });
    expect(items[19]).toMatchObject({ kind: "approval", outcome: "denied", summary: "denied bash (by user): no tests in this repo" });
    expect(items[11]).toMatchObject({
      kind: "modelSwitch",
      model: SONNET,
      summary: "Model switched from openai/gpt-5 to anthropic/claude-sonnet-4-5",
    });
  });

  it("marks a call that never got a result as missing", () => {
    const { entries } = timeline();
    const items = buildTimeline(entries.filter((e) => e.seq !== 3));
    expect(items.find((i) => i.toolCallId === "call_abc|fc_1" && i.kind === "toolCall")?.outcome).toBe("missing");
  });

  it("counts duration, turns, tool calls by tool and outcome, approvals, errors, retries and cost per model", () => {
    const { stats, store, sessionId } = timeline();
    expect(stats).toMatchObject({
      entries: 22,
      startedAt: T0 + 1_000,
      endedAt: T0 + 22_000,
      durationMs: 21_000,
      turns: 3,
      assistantMessages: 8,
      modelSwitches: 1,
      compactions: 0,
      approvals: { granted: 3, denied: 1, byDecision: { approved: 2, approvedForSession: 1, denied: 1, autoApproved: 0, autoDenied: 0 } },
      errors: { requests: 1, tools: 1, retries: 1, aborted: 0 },
    });
    expect(stats.toolCalls.total).toBe(6);
    expect(stats.toolCalls.byTool).toEqual([
      { toolName: "edit", total: 2, ok: 2, error: 0, denied: 0, aborted: 0, missing: 0 },
      { toolName: "read", total: 2, ok: 1, error: 1, denied: 0, aborted: 0, missing: 0 },
      { toolName: "bash", total: 1, ok: 0, error: 0, denied: 1, aborted: 0, missing: 0 },
      { toolName: "write", total: 1, ok: 1, error: 0, denied: 0, aborted: 0, missing: 0 },
    ]);
    expect(stats.byModel.map((m) => [m.model.id, m.messages, m.input, m.output])).toEqual([
      ["claude-sonnet-4-5", 5, 9_400, 195],
      ["gpt-5", 3, 3_600, 150],
    ]);
    // Same figures as the running totals the session list shows.
    const summary = store.getSession(sessionId);
    expect(stats.totals.totalTokens).toBe(summary?.totalTokens);
    expect(stats.totals.cost).toBeCloseTo(summary?.totalCost ?? Number.NaN, 10);
    expect(stats.byModel[0].cost).toBeCloseTo(0.084, 10);
  });

  it("shows compaction, rename and fork entries with their own summaries", () => {
    const f = buildSession();
    f.store.appendEntry(f.sessionId, {
      type: "compaction",
      summary: "Renamed greet; added README.",
      firstKeptSeq: 18,
      tokensBefore: 12_000,
      model: SONNET,
      timestamp: T0 + 23_000,
    });
    f.store.renameSession(f.sessionId, "Greeter clean-up");
    const fork = f.store.forkSession(f.sessionId, 24);
    const entries = f.store.loadEntries(fork.id);
    const items = buildTimeline(entries);
    // Steps are numbered as replay numbers them (by item), never by stored entry.
    const keptStep = items.findIndex((i) => i.seq >= 18) + 1;
    expect(keptStep).toBeGreaterThan(18);
    expect(items.slice(-3).map((i) => [i.seq, i.kind, i.summary, i.model])).toEqual([
      [23, "compaction", `Context compacted (12000 tokens before; kept from step ${keptStep})`, SONNET],
      [24, "rename", 'Renamed to "Greeter clean-up"', null],
      [25, "fork", `Forked from session ${f.sessionId} (its entry #24)`, null],
    ]);
    // With its source session at hand, a fork names it and the step it was forked at.
    const named = buildTimeline(entries, [], {
      forkSource: (id, seq) => (id === f.sessionId && seq === 24 ? { title: "Greeter clean-up", step: 31 } : undefined),
    });
    expect(named.at(-1)?.summary).toBe("Forked from “Greeter clean-up” at step 31");
    expect(sessionStats(entries, items).compactions).toBe(1);
  });

  it("does not count the loop's own continue prompt as a turn", () => {
    const { entries } = timeline();
    const cont = {
      seq: 23,
      entry: {
        type: "message" as const,
        message: {
          role: "user" as const,
          content: [
            {
              type: "text" as const,
              text: "[Agent Workbench] Your last response was cut off at the output token limit. Continue from where you stopped, or wrap up briefly.",
            },
          ],
          timestamp: T0 + 23_000,
        },
      },
    };
    const all = [...entries, cont];
    expect(sessionStats(all, buildTimeline(all)).turns).toBe(3);
  });
});

describe("timeline filters", () => {
  it("errors only keeps the failed request and the failed tool call", () => {
    const { items } = timeline();
    expect(errorsOnly(items).map((i) => `${i.seq}:${i.kind}`)).toEqual(["2:toolCall", "4:toolResult", "11:error"]);
  });

  it("one tool keeps its calls, approvals and results", () => {
    const { items } = timeline();
    expect(byTool(items, "bash").map((i) => `${i.seq}:${i.kind}`)).toEqual(["12:toolCall", "15:approval", "16:toolResult"]);
  });

  it("one model keeps what it wrote and called, and the switch to it", () => {
    const { items } = timeline();
    const gpt = byModel(items, GPT5);
    expect(new Set(gpt.map((i) => i.seq))).toEqual(new Set([2, 3, 4, 5, 6, 7, 8]));
    const sonnet = byModel(items, SONNET);
    expect(sonnet[0]).toMatchObject({ seq: 9, kind: "modelSwitch" });
    expect(sonnet.every((i) => i.seq >= 9)).toBe(true);
  });

  it("side effects only keeps write, edit and bash with their approvals", () => {
    const { items } = timeline();
    expect(sideEffectsOnly(items).map((i) => `${i.seq}:${i.kind}:${i.toolName}`)).toEqual([
      "5:toolCall:edit",
      "6:approval:edit",
      "7:toolResult:edit",
      "12:toolCall:write",
      "12:toolCall:bash",
      "13:approval:write",
      "14:toolResult:write",
      "15:approval:bash",
      "16:toolResult:bash",
      "19:toolCall:edit",
      "20:approval:edit",
      "21:toolResult:edit",
    ]);
  });

  it("combines filters and lists the choices for the menus", () => {
    const { items } = timeline();
    expect(filterTimeline(items, { toolName: "edit", model: SONNET, sideEffectsOnly: true }).map((i) => i.seq)).toEqual([19, 20, 21]);
    expect(filterTimeline(items, { errorsOnly: true, toolName: "read" }).map((i) => i.seq)).toEqual([2, 4]);
    expect(filterTimeline(items, {})).toHaveLength(items.length);
    const choices = filterChoices(items);
    expect(choices.tools).toEqual(["bash", "edit", "read", "write"]);
    expect(choices.models).toEqual([GPT5, SONNET]);
  });
});

describe("model names in the timeline", () => {
  it("a model switch is summed up with the catalog's names when given, else provider/id", () => {
    const entries = [
      {
        seq: 1,
        entry: {
          type: "modelSwitch" as const,
          from: { provider: "demo", api: "anthropic-messages" as const, id: "demo" },
          to: { provider: "anthropic", api: "anthropic-messages" as const, id: "claude-sonnet-4-6" },
          timestamp: 1,
        },
      },
    ];
    const names: Record<string, string> = { demo: "Demo (offline)", "claude-sonnet-4-6": "Claude Sonnet 4.6" };
    expect(buildTimeline(entries, [], { modelName: (ref) => names[ref.id] })[0].summary).toBe(
      "Model switched from Demo (offline) to Claude Sonnet 4.6",
    );
    expect(buildTimeline(entries)[0].summary).toBe("Model switched from demo/demo to anthropic/claude-sonnet-4-6");
  });
});
