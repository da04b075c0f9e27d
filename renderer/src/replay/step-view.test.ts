import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StoredEntry } from "../../../shared/protocol";
import type { TimelineItem } from "../../../shared/review";
import { benchEntries } from "../../../bench/ui-session";
import { buildTranscript, type TranscriptModel } from "../lib/transcript-model";
import { parseReplayRoute, withReplayRoute } from "./replay-route";
import { firstItemOf, lastItemAtOrBefore } from "./replay-store";
import {
  NO_FILTER,
  buildStepIndex,
  fileStateKey,
  filterItems,
  nearestVisible,
  runningTotals,
  stepFrom,
  transcriptAt,
  visiblePosition,
} from "./step-view";

const ENTRIES: StoredEntry[] = benchEntries(600).map((entry, i) => ({ seq: i + 1, entry }));
const INDEX = buildStepIndex(ENTRIES);

/** What a model shows: row keys, and the result and decision each tool card would find. */
function shown(model: TranscriptModel) {
  const callIds = model.rows.flatMap((r) =>
    r.kind === "assistant" ? r.message.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : [])) : [],
  );
  return {
    rows: model.rows.map((r) => r.key),
    results: callIds.map((id) => model.results.get(id)?.seq ?? null),
    approvals: callIds.map((id) => model.approvals.get(id)?.decision ?? null),
    resultCount: [...model.results.keys()].length,
  };
}

function item(index: number, seq: number, patch: Partial<TimelineItem> = {}): TimelineItem {
  return {
    index,
    seq,
    kind: "user",
    timestamp: seq,
    model: null,
    tokens: null,
    cost: null,
    latencyMs: null,
    durationMs: null,
    toolName: null,
    toolCallId: null,
    outcome: null,
    errorCode: null,
    sideEffect: false,
    isError: false,
    summary: "",
    ...patch,
  };
}

describe("the session at a replay step", () => {
  it("shows exactly what a transcript built from the entries up to that step shows", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ENTRIES.length + 2 }), (seq) => {
        const expected = buildTranscript(ENTRIES.filter((e) => e.seq <= seq));
        expect(shown(transcriptAt(INDEX, seq))).toEqual(shown(expected));
      }),
      { numRuns: 60 },
    );
  });

  it("hides a tool result and its approval until the step that stored them", () => {
    const approval = ENTRIES.find((e) => e.entry.type === "approval");
    if (!approval || approval.entry.type !== "approval") throw new Error("the bench session has approvals");
    const id = approval.entry.toolCallId;
    expect(transcriptAt(INDEX, approval.seq - 1).approvals.get(id)).toBeUndefined();
    expect(transcriptAt(INDEX, approval.seq).approvals.get(id)?.decision).toBe("approved");
    expect(transcriptAt(INDEX, approval.seq).results.get(id)).toBeUndefined();
    expect(transcriptAt(INDEX, approval.seq + 1).results.get(id)?.seq).toBe(approval.seq + 1);
  });

  it("keys the workspace files by the last write, edit or bash result at or before the step", () => {
    const firstEdit = ENTRIES.find(
      (e) => e.entry.type === "message" && e.entry.message.role === "toolResult" && e.entry.message.toolName === "edit",
    );
    if (!firstEdit) throw new Error("the bench session has edits");
    expect(fileStateKey(INDEX, 1)).toBe(0);
    expect(fileStateKey(INDEX, firstEdit.seq - 1)).toBe(0);
    expect(fileStateKey(INDEX, firstEdit.seq)).toBe(firstEdit.seq);
    expect(fileStateKey(INDEX, firstEdit.seq + 1)).toBe(firstEdit.seq);
  });
});

describe("stepping through filtered steps", () => {
  const items = [
    item(0, 1),
    item(1, 2, { kind: "assistant", model: { provider: "openai", api: "openai-responses", id: "gpt-5" } }),
    item(2, 2, { kind: "toolCall", toolName: "edit", sideEffect: true }),
    item(3, 3, { kind: "toolResult", toolName: "edit", sideEffect: true, isError: true }),
    item(4, 4, { kind: "error", isError: true }),
    item(5, 5, { kind: "toolCall", toolName: "read" }),
  ];

  it("filters by errors, tool, model, side effects and notes, all conditions together", () => {
    expect(filterItems(items, NO_FILTER, new Set())).toEqual([0, 1, 2, 3, 4, 5]);
    expect(filterItems(items, { ...NO_FILTER, errorsOnly: true }, new Set())).toEqual([3, 4]);
    expect(filterItems(items, { ...NO_FILTER, tool: "edit" }, new Set())).toEqual([2, 3]);
    expect(filterItems(items, { ...NO_FILTER, model: "openai/openai-responses/gpt-5" }, new Set())).toEqual([1]);
    expect(filterItems(items, { ...NO_FILTER, sideEffectsOnly: true, errorsOnly: true }, new Set())).toEqual([3]);
    expect(filterItems(items, { ...NO_FILTER, notedOnly: true }, new Set([2]))).toEqual([1, 2]);
  });

  it("moves to the next or previous match, also from a step that does not match", () => {
    const visible = [1, 3, 5];
    expect(stepFrom(visible, 1, 1)).toBe(3);
    expect(stepFrom(visible, 3, -1)).toBe(1);
    expect(stepFrom(visible, 2, 1)).toBe(3);
    expect(stepFrom(visible, 2, -1)).toBe(1);
    expect(stepFrom(visible, 0, 1)).toBe(1);
    expect(stepFrom(visible, 0, -1)).toBeNull();
    expect(stepFrom(visible, 5, 1)).toBeNull();
    expect(stepFrom([], 0, 1)).toBeNull();
    expect(nearestVisible(visible, 4)).toBe(5);
    expect(nearestVisible(visible, 6)).toBe(5);
    expect(nearestVisible(visible, 3)).toBe(3);
    expect(visiblePosition(visible, 5)).toBe(2);
    expect(visiblePosition(visible, 4)).toBe(-1);
  });

  it("finds the steps of an entry by seq (a note or a fork point)", () => {
    expect(firstItemOf(items, 2)).toBe(1);
    expect(lastItemAtOrBefore(items, 2)).toBe(2);
    expect(firstItemOf(items, 9)).toBe(-1);
    expect(lastItemAtOrBefore(items, 0)).toBe(-1);
  });

  it("sums tokens and cost up to each step", () => {
    const withUsage = [
      item(0, 1),
      item(1, 2, { tokens: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, total: 3 }, cost: 0.5 }),
      item(2, 3),
    ];
    const totals = runningTotals(withUsage);
    expect([...totals.tokens]).toEqual([0, 3, 3]);
    expect([...totals.cost]).toEqual([0, 0.5, 0.5]);
  });
});

describe("the replay address", () => {
  it("keeps the web mode's token and other parameters when the replay parameters change", () => {
    const hash = withReplayRoute("#token=abc123", { sessionId: "s-1", step: 7 });
    expect(parseReplayRoute(hash)).toEqual({ sessionId: "s-1", step: 7 });
    expect(new URLSearchParams(hash.slice(1)).get("token")).toBe("abc123");
    expect(withReplayRoute(hash, null)).toBe("#token=abc123");
    expect(parseReplayRoute("#token=abc123")).toBeNull();
    expect(parseReplayRoute("#replay=s-1&step=x")).toEqual({ sessionId: "s-1", step: null });
  });
});
