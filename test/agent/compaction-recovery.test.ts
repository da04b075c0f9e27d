/**
 * Compaction as recovery and on request: a provider's overflow report in the
 * middle of a turn compacts and retries, as often as it happens; an overflow
 * compacting cannot cure ends the turn with a clear error after a bounded
 * number of requests; the "ask before compacting" setting pauses the turn
 * until the user compacts or stops; "Compact now" during a turn runs before
 * its next request.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { FauxFault, FauxReply, FauxRequest } from "../../electron/core/faux";
import type { Harness } from "./harness";
import {
  compactionsOf,
  expectFinished,
  isSummaryRequest,
  startLongTurnHarness,
  testModel,
  toolLoopResponder,
  type ToolLoopLog,
} from "./long-turn-fixtures";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FILES = Object.fromEntries(
  Array.from({ length: 10 }, (_, f) => [
    `src/f${f}.ts`,
    Array.from({ length: 30 }, (_, i) => `export const v${f}_${i} = "${"x".repeat(24)}";`).join("\n"),
  ]),
);
const read = (i: number) => ({ name: "read", arguments: { path: `src/f${i % 10}.ts` } });

function newLog(): ToolLoopLog {
  return { steps: 0, summaries: 0, promptKeptAfterSummary: true };
}

/** `inner`, except that the requests `overflowAt` says (counted over non-summary requests) are refused as too long. */
function withOverflows(inner: (req: FauxRequest) => Promise<FauxReply>, overflowAt: (n: number) => boolean) {
  let n = 0;
  return async (req: FauxRequest): Promise<FauxReply | FauxFault> => {
    if (!isSummaryRequest(req) && overflowAt(++n)) return { type: "contextOverflow" };
    return inner(req);
  };
}

describe("overflow reported by the provider", () => {
  it("compacts and retries each time, several times in one turn, and the turn finishes", async () => {
    const model = testModel("anthropic", "overflow-model", 30_000);
    h = await startLongTurnHarness([model], FILES);
    const log = newLog();
    // The 11th, 26th and 41st requests are refused (the provider counted more than the estimate).
    const refused = new Set([11, 26, 41]);
    h.faux.setDefaultResponder(
      withOverflows(toolLoopResponder({ calls: 50, call: read, final: "done" }, "read them", log), (n) => refused.has(n)),
    );
    await h.turn("read them");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expectFinished(h, entries, 50, "done");
    const triggers = compactionsOf(entries).map((c) => c.entry.trigger);
    expect(triggers.filter((t) => t === "overflow")).toHaveLength(3);
  });

  it("an overflow compacting cannot cure ends the turn with a clear error after a bounded number of requests", async () => {
    const model = testModel("anthropic", "overflow-model", 30_000);
    h = await startLongTurnHarness([model], FILES);
    const log = newLog();
    // Fine for five steps, then every request is refused as too long.
    h.faux.setDefaultResponder(withOverflows(toolLoopResponder({ calls: 50, call: read, final: "done" }, "read them", log), (n) => n > 5));
    await h.turn("read them");
    const errors = h.events.filter((e) => e.event === "turn.error").map((e) => (e.payload as { message: string }).message);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^(Compaction would not make the conversation smaller|The provider reports the conversation is too long)/);
    // 5 answered, then at most one refused request per compaction and one more.
    const refusedRequests = h.faux.requests.filter((r) => !isSummaryBody(r.body)).length - 5;
    expect(refusedRequests).toBeGreaterThan(1);
    expect(refusedRequests).toBeLessThanOrEqual(4);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(entries.at(-1)?.entry).toMatchObject({ type: "message", message: { role: "assistant", stopReason: "error" } });
  });
});

const isSummaryBody = (body: unknown) => JSON.stringify(body).includes("You compact coding-agent conversations");

describe("ask before compacting", () => {
  it("pauses the turn until the user answers: compact goes on, stop ends the turn", async () => {
    const model = testModel("anthropic", "ask-model", 16_000);
    h = await startLongTurnHarness([model], FILES);
    await h.call("settings.update", { compaction: { ask: true } });
    const log = newLog();
    h.faux.setDefaultResponder(toolLoopResponder({ calls: 200, call: read, final: "done" }, "read them", log));
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "read them" });

    const first = await h.waitFor("turn.state", (s) => s.sessionId === h!.sessionId && !!s.pendingCompaction, from);
    expect(first.status).toBe("awaitingApproval");
    expect(first.pendingCompaction).toMatchObject({ reason: "threshold", window: 16_000 });
    // Nothing is sent while the turn waits.
    const sent = h.faux.requests.length;
    const { entries: waiting } = await h.call("session.load", { sessionId: h.sessionId });
    expect(compactionsOf(waiting)).toHaveLength(0);
    expect(h.faux.requests.length).toBe(sent);
    const resumed = h.events.length;
    await h.call("session.answerCompaction", { sessionId: h.sessionId, decision: "compact" });

    const second = await h.waitFor("turn.state", (s) => s.sessionId === h!.sessionId && !!s.pendingCompaction, resumed);
    expect(second.pendingCompaction?.reason).toBe("threshold");
    await h.call("session.answerCompaction", { sessionId: h.sessionId, decision: "stop" });
    await h.waitIdle(from);

    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(compactionsOf(entries)).toHaveLength(1);
    const last = entries.at(-1)?.entry;
    expect(last?.type === "message" && last.message.role === "assistant" ? last.message.errorMessage : "").toMatch(
      /^Stopped before compacting/,
    );
    // Answering when nothing waits is refused, not ignored.
    await expect(h.call("session.answerCompaction", { sessionId: h.sessionId, decision: "compact" })).rejects.toThrow(/CONFLICT/);
  });
});

describe("Compact now", () => {
  it("during a turn, compacts before the turn's next request and resolves once it has", async () => {
    const model = testModel("anthropic", "manual-model", 200_000);
    h = await startLongTurnHarness([model], FILES);
    const harness = h;
    const log = newLog();
    let compacted: Promise<unknown> | null = null;
    const inner = toolLoopResponder({ calls: 12, call: read, final: "done" }, "read them", log);
    let stepsAtRequest = -1;
    h.faux.setDefaultResponder(async (req) => {
      if (!isSummaryRequest(req) && log.steps === 6 && compacted === null) {
        // The user presses "Compact now" while the model answers step 6.
        compacted = harness.call("session.compact", { sessionId: harness.sessionId });
        stepsAtRequest = log.steps;
      }
      return inner(req);
    });
    await h.turn("read them");
    expect(compacted).not.toBeNull();
    await expect(compacted).resolves.toEqual({ ok: true });
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expectFinished(h, entries, 12, "done");
    const manual = compactionsOf(entries).filter((c) => c.entry.trigger === "manual");
    expect(manual).toHaveLength(1);
    // Right after the results of the step being answered when it was asked for, before the next request's answer.
    const resultsBefore = entries.filter(
      (e) => e.seq < manual[0].seq && e.entry.type === "message" && e.entry.message.role === "toolResult",
    );
    expect(resultsBefore).toHaveLength(stepsAtRequest + 1);
    expect(manual[0].entry.step).toBe("summary");
    expect(log.summaries).toBe(1);
  });

  it("while idle, compacts a session that is one long turn (one prompt, many steps)", async () => {
    const model = testModel("anthropic", "manual-model", 200_000);
    h = await startLongTurnHarness([model], FILES);
    const log = newLog();
    h.faux.setDefaultResponder(toolLoopResponder({ calls: 10, call: read, final: "done" }, "read them", log));
    await h.turn("read them");
    // One prompt, then ten steps: the steps before the newest are summarised (the old cut needed two prompts).
    await expect(h.call("session.compact", { sessionId: h.sessionId })).resolves.toEqual({ ok: true });
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const [compaction] = compactionsOf(entries);
    expect(compaction?.entry).toMatchObject({ step: "summary", trigger: "manual", userRequest: "read them" });
    expect(log.summaries).toBe(1);
  });
});
