/**
 * A single prompt followed by hundreds of tool calls finishes on a model
 * whose window holds a small part of it, on every wire API: old tool outputs
 * are pruned first, then older steps are summarised, and the calls go on after
 * each. Every request the faux provider received fit the model's window (the
 * faux enforces it with the provider's real overflow error) and was accepted.
 * The same holds when the session switches from a 1M-token model to a 128k
 * one in the middle of the turn.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Harness } from "./harness";
import {
  compactionsOf,
  expectEveryRequestFit,
  expectFinished,
  LONG_TURN_APIS,
  refOf,
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

/** ~1.5 KB files: each read is a few hundred tokens; the window holds a few dozen. */
function smallFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < count; f++) {
    files[`src/file-${f}.ts`] = Array.from({ length: 30 }, (_, i) => `export const value${f}_${i} = "${"x".repeat(24)}";`).join("\n");
  }
  return files;
}

const PROMPT = "Read every file under src/ one by one, 300 reads in all, then say done.";
const CALLS = 300;

describe.each(LONG_TURN_APIS)("a 300-call turn on a 20k-token window (%s)", (api) => {
  it("finishes: pruning, then summaries, then more calls, every request under the window", async () => {
    const model = testModel(api, `small-window-${api}`, 20_000);
    h = await startLongTurnHarness([model], smallFiles(20));
    const log: ToolLoopLog = { steps: 0, summaries: 0, promptKeptAfterSummary: true };
    h.faux.setDefaultResponder(
      toolLoopResponder(
        { calls: CALLS, call: (i) => ({ name: "read", arguments: { path: `src/file-${i % 20}.ts` } }), final: "done" },
        PROMPT,
        log,
      ),
    );
    await h.turn(PROMPT);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });

    expectFinished(h, entries, CALLS, "done");
    expectEveryRequestFit(h, [model]);
    const compactions = compactionsOf(entries);
    const steps = compactions.map((c) => c.entry.step);
    // Pruning came first; summaries followed when stubs alone no longer made room.
    expect(steps[0]).toBe("prune");
    expect(steps).toContain("summary");
    expect(log.summaries).toBe(steps.filter((s) => s === "summary").length);
    // More calls after a summary (the last one may fall right before the final answer, as request sizes happen to land).
    const firstSummary = compactions.find((c) => c.entry.step === "summary")!;
    const resultsAfter = entries.filter(
      (e) => e.seq > firstSummary.seq && e.entry.type === "message" && e.entry.message.role === "toolResult",
    );
    expect(resultsAfter.length).toBeGreaterThan(0);
    // The user's request reached every request after a summary, word for word.
    expect(log.promptKeptAfterSummary).toBe(true);
    // Each step shrank the request it was made for.
    for (const { entry } of compactions) expect(entry.tokensAfter ?? Infinity).toBeLessThan(entry.tokensBefore);
  });
});

/** ~40 KB files: a dozen reads fill more than 128k tokens. */
function bigFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < count; f++) {
    files[`big/file-${f}.ts`] = Array.from({ length: 600 }, (_, i) => `export const v${f}_${i} = "${"y".repeat(50)}";`).join("\n");
  }
  return files;
}

describe.each(LONG_TURN_APIS)("a switch from a 1M-token model to a 128k one mid-turn (%s)", (api) => {
  it("compacts before the first request to the smaller model, which fits, and the turn finishes", async () => {
    const large = testModel(api, `large-window-${api}`, 1_000_000);
    const small = testModel(api, `mid-window-${api}`, 128_000);
    h = await startLongTurnHarness([large, small], bigFiles(16));
    const harness = h;
    const SWITCH_AT = 16;
    const calls = 40;
    const log: ToolLoopLog = { steps: 0, summaries: 0, promptKeptAfterSummary: true };
    let sizeAtSwitch = 0;
    h.faux.setDefaultResponder(
      toolLoopResponder(
        {
          calls,
          call: (i) => ({ name: "read", arguments: { path: `big/file-${i % 16}.ts` } }),
          before: async (i) => {
            if (i !== SWITCH_AT) return;
            sizeAtSwitch = harness.faux.requests.at(-1)?.tokens ?? 0;
            await harness.call("chat.switchModel", { sessionId: harness.sessionId, model: refOf(small) });
          },
          final: "done",
        },
        "Read the big files.",
        log,
      ),
    );
    await h.turn("Read the big files.");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });

    // The large model's last request held more than the small model's whole window.
    expect(sizeAtSwitch).toBeGreaterThan(128_000);
    expectFinished(h, entries, calls, "done");
    expectEveryRequestFit(h, [large, small]);
    const firstSmall = h.faux.requests.find((r) => r.model === small.id);
    expect(firstSmall?.tokens).toBeLessThan(128_000);
    const switchSeq = entries.find((e) => e.entry.type === "modelSwitch")!.seq;
    expect(compactionsOf(entries).some((c) => c.seq > switchSeq)).toBe(true);
  });
});
