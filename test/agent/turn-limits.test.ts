/**
 * Limits that hold: a model that never stops calling tools is stopped at the
 * turn's cap (round trips, the tool budget, cost, wall time), after one final
 * request without tools that summarises where the work stands, stored with
 * the limit that ended the turn. A limit changed in Settings applies at the
 * next request; a sub-agent's spending counts against its parent's budget.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { FauxReply, FauxRequest } from "../../electron/core/faux";
import { TurnCaps } from "../../electron/core/agent/turn-caps";
import type { AssistantMessage, StoredEntry } from "../../shared/protocol";
import { expectAllAccepted, expectEveryCallAnswered, messagesOf, startHarness, type Harness } from "./harness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Old code kept looping; the responder gives up after this many requests so such a run ends (and the test fails). */
const GIVE_UP_AFTER = 150;

interface Seen {
  requests: number;
  /** How many tools each request offered. */
  tools: number[];
}

/** Calls `read` on every request; `answerWithoutTools`: a tool-less request gets a text summary (as a real model would). */
function runaway(seen: Seen, answerWithoutTools: boolean, onRequest?: (n: number) => Promise<void> | void) {
  return async (req: FauxRequest): Promise<FauxReply> => {
    const n = ++seen.requests;
    seen.tools.push(req.tools.length);
    await onRequest?.(n);
    if (n > GIVE_UP_AFTER) return { type: "reply", content: [{ type: "text", text: "giving up" }] };
    if (answerWithoutTools && req.tools.length === 0) {
      return { type: "reply", content: [{ type: "text", text: "Where it stands: read a.txt many times; nothing left." }] };
    }
    return { type: "reply", content: [{ type: "toolCall", id: `call_${n}`, name: "read", arguments: { path: "a.txt" } }] };
  };
}

const lastAssistant = (entries: StoredEntry[]): AssistantMessage | undefined =>
  messagesOf(entries)
    .filter((m): m is AssistantMessage => m.role === "assistant")
    .at(-1);

const BIG_TOOL_BUDGET = { maxToolCalls: 10_000, maxOutputBytes: 1e9, maxDurationMs: 3_600_000, maxSideEffects: 10 };

describe("turn limits", () => {
  it("a model that never stops calling tools stops at the round-trip cap, after one tool-less request for a summary", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    await h.call("settings.update", { budget: BIG_TOOL_BUDGET, limits: { maxCostUsd: null, maxRoundTrips: 20, maxWallTimeMs: null } });
    const seen: Seen = { requests: 0, tools: [] };
    h.faux.setDefaultResponder(runaway(seen, true));
    await h.turn("go");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });

    expect(seen.requests).toBe(21);
    expect(seen.tools.slice(0, 20).every((n) => n > 0)).toBe(true);
    expect(seen.tools[20]).toBe(0);
    const final = lastAssistant(entries);
    expect(final?.limit?.kind).toBe("roundTrips");
    expect(final?.content).toEqual([{ type: "text", text: "Where it stands: read a.txt many times; nothing left." }]);
    // The model was told why there are no tools; the prompt is stored (replay, "what the model saw").
    const prompts = messagesOf(entries).filter((m) => m.role === "user" && JSON.stringify(m.content).includes("This turn reached"));
    expect(prompts).toHaveLength(1);
    expect(h.events.some((e) => e.event === "turn.error")).toBe(false);
    expectEveryCallAnswered(entries);
    expectAllAccepted(h);
  });

  it("once the tool budget is spent the turn makes one tool-less request and stops, even if the model still calls tools", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    await h.call("settings.update", {
      budget: { maxToolCalls: 5, maxOutputBytes: 1e9, maxDurationMs: 3_600_000, maxSideEffects: 10 },
      limits: { maxCostUsd: null, maxRoundTrips: null, maxWallTimeMs: null },
    });
    const seen: Seen = { requests: 0, tools: [] };
    h.faux.setDefaultResponder(runaway(seen, false));
    await h.turn("go");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });

    // 5 calls run, the 6th is refused for the budget, then the one final request.
    expect(seen.requests).toBe(7);
    expect(seen.tools.at(-1)).toBe(0);
    const final = lastAssistant(entries);
    expect(final?.limit?.kind).toBe("toolBudget");
    // The call the model made anyway is answered, not run.
    const results = messagesOf(entries).filter((m) => m.role === "toolResult");
    expect(JSON.stringify(results.at(-1)?.content)).toContain("not run: this turn reached the tool budget");
    expectEveryCallAnswered(entries);
    expectAllAccepted(h);
  });

  it("stops at the cost limit, counting every request's cost", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    await h.call("settings.update", { budget: BIG_TOOL_BUDGET, limits: { maxCostUsd: 0.05, maxRoundTrips: null, maxWallTimeMs: null } });
    const seen: Seen = { requests: 0, tools: [] };
    h.faux.setDefaultResponder(runaway(seen, true));
    await h.turn("go");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });

    const final = lastAssistant(entries);
    expect(final?.limit?.kind).toBe("cost");
    expect(final?.limit?.detail).toMatch(/^the cost limit of \$0\.05 \(\$0\.0\d+ spent\)$/);
    const assistants = messagesOf(entries).filter((m): m is AssistantMessage => m.role === "assistant");
    const beforeFinal = assistants.slice(0, -1).reduce((n, m) => n + m.usage.cost.total, 0);
    const beforeLast = assistants.slice(0, -2).reduce((n, m) => n + m.usage.cost.total, 0);
    // It went on while under the limit and stopped at the first request that reached it.
    expect(beforeLast).toBeLessThan(0.05);
    expect(beforeFinal).toBeGreaterThanOrEqual(0.05);
    expectEveryCallAnswered(entries);
  });

  it("stops at the wall-time limit of the turn", async () => {
    let clock = 1_700_000_000_000;
    h = await startHarness({ files: { "a.txt": "alpha\n" }, workbench: { now: () => clock } });
    await h.call("settings.update", {
      budget: BIG_TOOL_BUDGET,
      limits: { maxCostUsd: null, maxRoundTrips: null, maxWallTimeMs: 5 * 60_000 },
    });
    const seen: Seen = { requests: 0, tools: [] };
    // Each request takes the model a minute.
    h.faux.setDefaultResponder(runaway(seen, true, () => void (clock += 60_000)));
    await h.turn("go");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });

    expect(seen.requests).toBe(6);
    expect(lastAssistant(entries)?.limit).toEqual({ kind: "wallTime", detail: "the time limit of 5 min per turn" });
  });

  it("a limit changed in Settings during a turn applies at the next request", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    const harness = h;
    await h.call("settings.update", { budget: BIG_TOOL_BUDGET, limits: { maxCostUsd: null, maxRoundTrips: 500, maxWallTimeMs: null } });
    const seen: Seen = { requests: 0, tools: [] };
    h.faux.setDefaultResponder(
      runaway(seen, true, async (n) => {
        if (n === 5) await harness.call("settings.update", { limits: { maxCostUsd: null, maxRoundTrips: 8, maxWallTimeMs: null } });
      }),
    );
    await h.turn("go");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(seen.requests).toBe(9);
    expect(lastAssistant(entries)?.limit?.kind).toBe("roundTrips");
  });
});

describe("a shared turn budget (sub-agents)", () => {
  it("charges a child's spending to its parent, and a child is out of budget when its parent is", () => {
    let now = 0;
    const parent = new TurnCaps({ maxCostUsd: 1, maxRoundTrips: 10, maxWallTimeMs: null }, () => now);
    const child = parent.child({ maxRoundTrips: 3 });
    child.charge({ costUsd: 0.4, roundTrips: 2 });
    expect(parent.spent()).toMatchObject({ costUsd: 0.4, roundTrips: 2 });
    expect(child.reached()).toBeNull();
    child.charge({ roundTrips: 1 });
    // The child's own cap, not the parent's.
    expect(child.reached()?.kind).toBe("roundTrips");
    expect(parent.reached()).toBeNull();
    // Spending outside the child (the parent's own requests) stops the child too.
    parent.charge({ costUsd: 0.7 });
    const sibling = parent.child();
    expect(sibling.reached()?.kind).toBe("cost");
    now += 1;
    expect(parent.spent().wallTimeMs).toBe(1);
  });

  it("ignores charges that are not real spending", () => {
    const budget = new TurnCaps({ maxCostUsd: 1, maxRoundTrips: 2, maxWallTimeMs: null }, () => 0);
    budget.charge({ costUsd: Number.NaN, roundTrips: -3 });
    budget.charge({ costUsd: -5, roundTrips: 1.5 });
    expect(budget.spent()).toMatchObject({ costUsd: 0, roundTrips: 0 });
  });
});
