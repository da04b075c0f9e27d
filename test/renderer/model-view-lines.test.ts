import { describe, expect, it } from "vitest";
import { CHUNK_LINES, missingChunks } from "../../renderer/src/replay/model-view-lines";
import { OPEN_ROWS, repairCounts } from "../../renderer/src/replay/model-view-dialog";

describe("what the model saw: reading a long body by chunk", () => {
  it("asks only for the chunks in view that are neither held nor being read", () => {
    const held = new Set([0, 1, 2]);
    expect(missingChunks(0, 40, (c) => held.has(c))).toEqual([]);
    // Scrolled to lines 1,480..1,530: chunk 2 came with the head, chunk 3 is read.
    expect(missingChunks(1_480, 1_530, (c) => held.has(c))).toEqual([3]);
    // A jump past several chunks reads each one the view covers, not the ones skipped.
    expect(missingChunks(5 * CHUNK_LINES - 10, 6 * CHUNK_LINES + 3, (c) => held.has(c))).toEqual([4, 5, 6]);
    expect(missingChunks(10, 5, () => false)).toEqual([]);
  });
});

describe("what the model saw: long sections summarised", () => {
  it("counts the repairs by kind, most frequent first", () => {
    const repairs = [
      ...Array.from({ length: OPEN_ROWS + 1 }, () => ({ kind: "otherReasoningDropped" as const })),
      { kind: "surrogatesReplaced" as const },
    ];
    expect(repairCounts(repairs)).toBe(`${OPEN_ROWS + 1} reasoning left out, 1 text repaired`);
  });
});
