/**
 * Diffs in tool details and approval previews are bounded: a 14-character
 * edit of a 5 MB one-line file used to store a 10.5 MB diff in the result
 * (and send before, after, diff and hunks, ~30 MB, with the approval).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProposalPreviewSchema } from "../../shared/api";
import type { StoredEntry } from "../../shared/protocol";
import { fileStatesAt } from "../../electron/core/review/file-history";
import { DIFF_MAX_CHARS } from "../../electron/core/tools/diff";
import type { Proposal } from "../../electron/core/tools";
import { startHarness, type Harness } from "../agent/harness";
import { call, makeFixture, text, type Fixture } from "./helpers";

let fx: Fixture | null = null;
let h: Harness | null = null;
afterEach(async () => {
  fx?.cleanup();
  fx = null;
  await h?.close();
  h = null;
});

const BIG = "x".repeat(5 * 1024 * 1024 - 20) + "needle-in-here";
const EDIT = { path: "big.txt", edits: [{ oldText: "needle-in-here", newText: "NEEDLE-IN-HERE" }] };

describe("a 14-character edit of a 5 MB one-line file", () => {
  it("stores the counts and a 'too large to show' form, not a 10 MB diff; the model's text is as for any edit", async () => {
    fx = makeFixture();
    writeFileSync(join(fx.ws, "big.txt"), BIG);
    let preview: Proposal["preview"] | null = null;
    const outcome = await fx.runtime.run(call("edit", EDIT), {
      ask: async (proposal) => {
        preview = proposal.preview;
        return { approved: true };
      },
    });
    expect(outcome.ok).toBe(true);
    expect(text(fx.runtime, outcome)).toBe("Edited big.txt: 1 replacement (+1 -1 lines).");
    const details = outcome.details as { diff: { unifiedDiff: string; added: number; removed: number; tooLarge?: { diffChars: number } } };
    expect(JSON.stringify(details).length).toBeLessThan(64 * 1024);
    expect(details.diff).toMatchObject({ unifiedDiff: "", added: 1, removed: 1 });
    expect(details.diff.tooLarge?.diffChars).toBeGreaterThan(10 * 1024 * 1024);

    // The approval preview: no texts, no hunks, no diff; what the UI needs to say so, valid for the wire.
    expect(preview).not.toBeNull();
    expect(JSON.stringify(preview).length).toBeLessThan(64 * 1024);
    expect(ProposalPreviewSchema.parse(preview)).toMatchObject({
      kind: "diff",
      path: "big.txt",
      before: "",
      after: "",
      unifiedDiff: "",
      added: 1,
      removed: 1,
      textsOmitted: true,
      tooLarge: { diffChars: details.diff.tooLarge?.diffChars },
    });
    expect((preview as unknown as { hunks?: unknown }).hunks).toBeUndefined();
  });

  it("a small edit of a large file keeps its diff and hunks but leaves the texts out of the preview", async () => {
    fx = makeFixture();
    const lines = Array.from({ length: 60_000 }, (_, i) => `line ${i}\n`).join("");
    writeFileSync(join(fx.ws, "long.txt"), lines);
    let preview: Proposal["preview"] | null = null;
    await fx.runtime.run(call("edit", { path: "long.txt", edits: [{ oldText: "line 20000\n", newText: "LINE 20000\n" }] }), {
      ask: async (proposal) => {
        preview = proposal.preview;
        return { approved: false };
      },
    });
    const p = ProposalPreviewSchema.parse(preview);
    if (p.kind !== "diff") throw new Error("not a diff preview");
    expect(p.textsOmitted).toBe(true);
    expect(p.before).toBe("");
    expect(p.unifiedDiff).toContain("-line 20000\n+LINE 20000");
    expect(p.unifiedDiff.length).toBeLessThan(DIFF_MAX_CHARS);
    expect(p.hunks).toHaveLength(1);
    expect(p.tooLarge).toBeUndefined();
  });

  it("replay's files at a step call such a file's content unknown instead of applying an empty diff", () => {
    const entries: StoredEntry[] = [
      {
        seq: 1,
        entry: {
          type: "message",
          message: {
            role: "toolResult",
            toolCallId: "c0",
            toolName: "write",
            content: [{ type: "text", text: "Created big.txt (1 lines)." }],
            details: {
              path: "big.txt",
              created: true,
              diff: { unifiedDiff: "+abc\n", added: 1, removed: 0 },
              before: null,
              after: "abc\n",
            },
            isError: false,
            timestamp: 1,
          },
        },
      },
      {
        seq: 2,
        entry: {
          type: "message",
          message: {
            role: "toolResult",
            toolCallId: "c1",
            toolName: "edit",
            content: [{ type: "text", text: "Edited big.txt: 1 replacement (+1 -1 lines)." }],
            details: {
              path: "big.txt",
              created: false,
              diff: { unifiedDiff: "", added: 1, removed: 1, tooLarge: { diffChars: 11_000_000 } },
              contentOmitted: true,
            },
            isError: false,
            timestamp: 1,
          },
        },
      },
    ];
    // Known after the write; after the edit whose diff was left out, no longer (not "unchanged").
    expect(fileStatesAt(entries, 1).files[0]).toMatchObject({ path: "big.txt", afterKnown: true, after: "abc\n" });
    expect(fileStatesAt(entries, 2).files[0]).toMatchObject({ path: "big.txt", afterKnown: false, after: null });
  });

  it("through the API: the pending approval is small, an edit of the text it left out is refused, a plain approval writes", async () => {
    h = await startHarness({ files: { "big.txt": BIG } });
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "toolu_big", name: "edit", arguments: EDIT }] },
      { type: "reply", content: [{ type: "text", text: "done" }] },
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "edit the big file" });
    const state = await h.waitFor("turn.state", (s) => s.pendingApproval?.toolCallId === "toolu_big", from);
    expect(JSON.stringify(state).length).toBeLessThan(64 * 1024);
    // A client that edits what it was shown would write that part as the whole file.
    const refused = await h.workbench.handle("approval.answer", {
      sessionId: h.sessionId,
      toolCallId: "toolu_big",
      decision: "approve",
      review: { kind: "edited", after: "just this" },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "toolu_big", decision: "approve" });
    await h.waitIdle(from);
    expect(readFileSync(join(h.workspace, "big.txt"), "utf8")).toBe(BIG.replace("needle-in-here", "NEEDLE-IN-HERE"));
  });
});
