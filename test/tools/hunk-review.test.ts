/**
 * Per-hunk review of a proposed write/edit: only the accepted hunks reach the
 * disk (exact bytes), the model is told what was applied and what was
 * rejected, the audit records the decision per hunk, and a file changed since
 * the proposal still refuses.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChangeReview, HunkDecision } from "../../shared/hunks";
import { applyHunks } from "../../shared/hunks";
import { computeHunks } from "../../electron/core/tools/hunks";
import type { Proposal, ToolOutcome } from "../../electron/core/tools";
import { call, makeFixture, text, type Fixture } from "./helpers";

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

const lines = (n: number, eol = "\n") => Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join("");

/** An edit changing lines 2, 10 and 18 of a 20-line file: three hunks. */
const THREE = [
  { oldText: "line 2\n", newText: "LINE TWO\n" },
  { oldText: "line 10\n", newText: "LINE TEN\n" },
  { oldText: "line 18\n", newText: "LINE EIGHTEEN\n" },
];

async function propose(name: string, args: Record<string, unknown>): Promise<Proposal> {
  const result = await fx.runtime.propose(call(name, args));
  if (!("proposal" in result)) throw new Error(text(fx.runtime, result.outcome));
  return result.proposal;
}

async function review(name: string, args: Record<string, unknown>, r: ChangeReview): Promise<ToolOutcome> {
  const proposal = await propose(name, args);
  fx.runtime.approve(proposal, { review: r });
  return fx.runtime.execute(proposal);
}

const hunksReview = (...d: ("a" | "r")[]): ChangeReview => ({
  kind: "hunks",
  decisions: d.map((x): HunkDecision => (x === "a" ? "accepted" : "rejected")),
});

function writeBytes(name: string, bytes: Buffer | string): string {
  const file = join(fx.ws, name);
  writeFileSync(file, bytes);
  return file;
}

describe("applying a subset of hunks", () => {
  it("the proposal lists one hunk per changed region", async () => {
    writeBytes("a.txt", lines(20));
    const p = await propose("edit", { path: "a.txt", edits: THREE });
    if (p.preview.kind !== "diff") throw new Error("not a diff");
    expect(p.preview.hunks?.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [2, 1, 2, 1],
      [10, 1, 10, 1],
      [18, 1, 18, 1],
    ]);
  });

  it("first only", async () => {
    const file = writeBytes("a.txt", lines(20));
    const out = await review("edit", { path: "a.txt", edits: THREE }, hunksReview("a", "r", "r"));
    expect(out.ok).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(lines(20).replace("line 2\n", "LINE TWO\n"));
  });

  it("last only", async () => {
    const file = writeBytes("a.txt", lines(20));
    await review("edit", { path: "a.txt", edits: THREE }, hunksReview("r", "r", "a"));
    expect(readFileSync(file, "utf8")).toBe(lines(20).replace("line 18\n", "LINE EIGHTEEN\n"));
  });

  it("alternating (1 and 3 accepted, 2 rejected), and the model is told hunk 2 was rejected", async () => {
    const file = writeBytes("a.txt", lines(20));
    const out = await review("edit", { path: "a.txt", edits: THREE }, hunksReview("a", "r", "a"));
    expect(readFileSync(file, "utf8")).toBe(lines(20).replace("line 2\n", "LINE TWO\n").replace("line 18\n", "LINE EIGHTEEN\n"));
    expect(text(fx.runtime, out)).toBe(
      [
        "Edited a.txt (+2 -2 lines).",
        "Applied 2 of 3 hunks (hunks 1 and 3). The user REJECTED hunk 2: NOT applied, the file does not contain it.",
        "Rejected:",
        "Hunk 2 of 3:",
        "@@ -10,1 +10,1 @@",
        "-line 10",
        "+LINE TEN",
        "Do not assume the rejected part landed; read the file before editing this region again.",
      ].join("\n"),
    );
    if (out.ok) expect(out.details?.review).toEqual({ kind: "hunks", decisions: ["accepted", "rejected", "accepted"] });
  });

  it("all rejected: nothing is written and the model hears it as a denial with the hunks", async () => {
    const file = writeBytes("a.txt", lines(20));
    const out = await review("edit", { path: "a.txt", edits: THREE }, hunksReview("r", "r", "r"));
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.errorCode).toBe("DENIED");
    expect(readFileSync(file, "utf8")).toBe(lines(20));
    const said = text(fx.runtime, out);
    expect(said).toContain("The user rejected all 3 hunks of your proposed change to a.txt; nothing was written.");
    expect(said).toContain("Hunk 3 of 3:\n@@ -18,1 +18,1 @@\n-line 18\n+LINE EIGHTEEN");
  });

  it("all accepted writes the whole proposal", async () => {
    const file = writeBytes("a.txt", lines(20));
    const out = await review("edit", { path: "a.txt", edits: THREE }, hunksReview("a", "a", "a"));
    expect(readFileSync(file, "utf8")).toBe(
      lines(20).replace("line 2\n", "LINE TWO\n").replace("line 10\n", "LINE TEN\n").replace("line 18\n", "LINE EIGHTEEN\n"),
    );
    expect(text(fx.runtime, out)).toContain("The user reviewed and accepted all 3 hunks.");
  });

  it("a CRLF file keeps its CRLF bytes in accepted and untouched regions", async () => {
    const file = writeBytes("crlf.txt", lines(20, "\r\n"));
    await review("edit", { path: "crlf.txt", edits: THREE }, hunksReview("r", "a", "r"));
    expect(readFileSync(file).equals(Buffer.from(lines(20, "\r\n").replace("line 10\r\n", "LINE TEN\r\n")))).toBe(true);
  });

  it("a file with a BOM keeps the BOM", async () => {
    const file = writeBytes("bom.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines(20))]));
    await review("edit", { path: "bom.txt", edits: THREE }, hunksReview("a", "r", "r"));
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(bytes.subarray(3).toString("utf8")).toBe(lines(20).replace("line 2\n", "LINE TWO\n"));
  });

  it("a file without a trailing newline: rejecting the change at its end keeps the end as it was", async () => {
    const original = lines(20).replace(/\n$/, "");
    const file = writeBytes("nonl.txt", original);
    const edits = [
      { oldText: "line 2\n", newText: "LINE TWO\n" },
      { oldText: "line 20", newText: "line 20\nline 21" },
    ];
    await review("edit", { path: "nonl.txt", edits }, hunksReview("a", "r"));
    expect(readFileSync(file, "utf8")).toBe(original.replace("line 2\n", "LINE TWO\n"));
    writeBytes("nonl2.txt", original);
    await review("edit", { path: "nonl2.txt", edits }, hunksReview("r", "a"));
    expect(readFileSync(join(fx.ws, "nonl2.txt"), "utf8")).toBe(original.replace("line 20", "line 20\nline 21"));
  });

  it("a write over an existing file can be accepted hunk by hunk", async () => {
    const file = writeBytes("w.txt", lines(20));
    const content = lines(20).replace("line 1\n", "first\n").replace("line 20\n", "last\n");
    const out = await review("write", { path: "w.txt", content }, hunksReview("r", "a"));
    expect(readFileSync(file, "utf8")).toBe(lines(20).replace("line 20\n", "last\n"));
    expect(text(fx.runtime, out)).toContain("The user REJECTED hunk 1: NOT applied");
  });

  it("a file changed since the proposal still refuses with CONFLICT", async () => {
    const file = writeBytes("a.txt", lines(20));
    const proposal = await propose("edit", { path: "a.txt", edits: THREE });
    fx.runtime.approve(proposal, { review: hunksReview("a", "r", "a") });
    writeFileSync(file, lines(21));
    const out = await fx.runtime.execute(proposal);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.errorCode).toBe("CONFLICT");
    expect(readFileSync(file, "utf8")).toBe(lines(21));
  });

  it("a review with the wrong number of decisions writes nothing", async () => {
    const file = writeBytes("a.txt", lines(20));
    const out = await review("edit", { path: "a.txt", edits: THREE }, hunksReview("a", "r"));
    expect(out.ok).toBe(false);
    expect(readFileSync(file, "utf8")).toBe(lines(20));
  });

  it("the audit records the decision per hunk", async () => {
    writeBytes("a.txt", lines(20));
    await review("edit", { path: "a.txt", edits: THREE }, hunksReview("a", "r", "a"));
    const approval = fx.audit.find((e) => e.type === "approval");
    expect(approval).toMatchObject({ type: "approval", decision: "approved", hunks: ["accepted", "rejected", "accepted"] });
  });
});

describe("editing the proposal before approving", () => {
  it("writes the user's text and tells the model how it differs from its proposal", async () => {
    const file = writeBytes("a.txt", lines(5));
    const out = await review(
      "edit",
      { path: "a.txt", edits: [{ oldText: "line 3\n", newText: "LINE 3\n" }] },
      { kind: "edited", after: lines(5).replace("line 3\n", "Line Three\n") },
    );
    expect(readFileSync(file, "utf8")).toBe(lines(5).replace("line 3\n", "Line Three\n"));
    expect(text(fx.runtime, out)).toContain(
      "The user edited your proposed change to a.txt before approving it, so the file differs from your proposal. Your proposal → what was written:\n@@ -3,1 +3,1 @@\n-LINE 3\n+Line Three",
    );
  });

  it("keeps CRLF when the editor hands back LF text", async () => {
    const file = writeBytes("c.txt", lines(3, "\r\n"));
    await review(
      "edit",
      { path: "c.txt", edits: [{ oldText: "line 2", newText: "LINE 2" }] },
      { kind: "edited", after: "line 1\nEdited\nline 3\n" },
    );
    expect(readFileSync(file, "utf8")).toBe("line 1\r\nEdited\r\nline 3\r\n");
  });
});

describe("hunks", () => {
  it("applying every hunk gives the after text and none gives the before text, byte for byte", () => {
    const cases: [string, string][] = [
      ["a\r\nb\r\nc", "a\r\nB\r\nc\r\nd"],
      ["x\ny\n", "x\ny"],
      ["", "new\n"],
      ["a\nb\nc\nd\n", "a\nc\nd\ne\n"],
    ];
    for (const [before, after] of cases) {
      const hunks = computeHunks(before, after);
      expect(
        applyHunks(
          before,
          hunks,
          hunks.map(() => true),
        ),
      ).toBe(after);
      expect(
        applyHunks(
          before,
          hunks,
          hunks.map(() => false),
        ),
      ).toBe(before);
    }
  });

  it("marks line-ending-only and whitespace-only hunks", () => {
    expect(computeHunks("a\nb\n", "a\r\nb\n").map((h) => h.kind)).toEqual(["lineEnding"]);
    expect(computeHunks("a\n  b\n", "a\n\tb\n").map((h) => h.kind)).toEqual(["whitespace"]);
    expect(computeHunks("a\nb\n", "a\nc\n").map((h) => h.kind)).toEqual(["change"]);
  });

  it("a one-line edit is one changed line, not a rewrite", () => {
    const before = lines(200);
    const hunks = computeHunks(before, before.replace("line 100\n", "line one hundred\n"));
    expect(hunks).toHaveLength(1);
    expect(hunks[0]).toMatchObject({ oldStart: 100, oldLines: 1, newLines: 1, oldText: "line 100\n", newText: "line one hundred\n" });
  });
});
