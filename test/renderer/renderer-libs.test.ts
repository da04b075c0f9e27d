import { describe, expect, it } from "vitest";
import { clipHunks, hunksFromTexts, hunksFromUnified, sidesFromHunks } from "../../renderer/src/lib/diff-hunks";
import { languageFromPath } from "../../renderer/src/lib/language";
import { splitSnippet } from "../../renderer/src/lib/snippet";
import { readToolDetails } from "../../renderer/src/lib/tool-details";
import { toolStatusOf } from "../../renderer/src/lib/tool-status";
import { errorPreview, toolSummary } from "../../renderer/src/lib/tool-summary";
import type { ToolResultMessage } from "../../shared/protocol";

const res = (details: unknown, isError = false): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: "c",
  toolName: "edit",
  isError,
  content: [],
  details,
  timestamp: 0,
});

describe("search snippets", () => {
  it("splits the \\u0002…\\u0003 markers into highlighted parts", () => {
    expect(splitSnippet("a \u0002fix\u0003 b")).toEqual([
      { text: "a ", match: false },
      { text: "fix", match: true },
      { text: " b", match: false },
    ]);
  });
});

describe("inline diffs", () => {
  const unified = "--- a/x.ts\n+++ b/x.ts\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n";
  it("counts added and removed lines of a unified diff", () => {
    const s = hunksFromUnified(unified);
    expect([s.added, s.removed]).toEqual([1, 1]);
    expect(s.hunks[0].lines.map((l) => l.kind)).toEqual(["ctx", "del", "add", "ctx"]);
  });
  it("rebuilds both sides from hunks when only the diff is known", () => {
    expect(sidesFromHunks(hunksFromUnified(unified))).toEqual({ before: "a\nb\nc", after: "a\nB\nc" });
  });
  it("computes hunks from before and after texts", () => {
    const s = hunksFromTexts("x.ts", "a\nb\n", "a\nc\nd\n");
    expect([s.added, s.removed]).toEqual([2, 1]);
  });
  it("clips long diffs and says how many rows are hidden", () => {
    const s = hunksFromTexts("x", "", Array.from({ length: 30 }, (_, i) => `l${i}`).join("\n") + "\n");
    const c = clipHunks(s, 12);
    expect(c.hunks[0].lines).toHaveLength(12);
    expect(c.hiddenRows).toBe(18);
  });
});

describe("tool details", () => {
  it("reads a nested diff, exit code and truncation, and drops fields of the wrong type", () => {
    const d = readToolDetails(
      res({ diff: { path: "a.ts", unifiedDiff: "u", added: 1, removed: 2 }, exitCode: 3, truncated: true, durationMs: "slow" }),
    );
    expect(d.diff).toMatchObject({ path: "a.ts", unifiedDiff: "u", added: 1, removed: 2 });
    expect(d.exitCode).toBe(3);
    expect(d.truncated).toBe(true);
    expect(d.durationMs).toBeNull();
  });
  it("returns empty details for a result without them", () => {
    expect(readToolDetails(res(undefined)).diff).toBeNull();
    expect(readToolDetails(res(undefined)).sandboxWarnings).toEqual([]);
  });
  it("reads the hook runs for the card, leaving out a malformed one", () => {
    const run = {
      event: "PreToolUse",
      command: "./check.sh",
      source: "workspace",
      ran: true,
      exitCode: 2,
      decision: "deny",
      reason: "no rm",
    };
    const d = readToolDetails(res({ hooks: [run, { event: 1 }, "x"] }));
    expect(d.hooks).toEqual([run]);
    expect(readToolDetails(res({ hooks: "nope" })).hooks).toEqual([]);
  });
  it("reads the bash sandbox's warnings for the card, and drops them when they are not a list of strings", () => {
    expect(readToolDetails(res({ sandboxWarnings: ["Written through a hard link: a.js."] })).sandboxWarnings).toEqual([
      "Written through a hard link: a.js.",
    ]);
    expect(readToolDetails(res({ sandboxWarnings: [1, 2] })).sandboxWarnings).toEqual([]);
  });
});

describe("tool status", () => {
  const base = { details: readToolDetails(null), approval: null, live: null, awaitingApproval: false };
  it("is denied when the stored result says DENIED", () => {
    expect(
      toolStatusOf({ ...base, result: res({ errorCode: "DENIED" }, true), details: readToolDetails(res({ errorCode: "DENIED" }, true)) }),
    ).toBe("denied");
  });
  it("is aborted for a synthesized aborted result", () => {
    const r = res({ errorCode: "ABORTED", synthesized: true }, true);
    expect(toolStatusOf({ ...base, result: r, details: readToolDetails(r) })).toBe("aborted");
  });
  it("waits for approval while the pending approval is this call", () => {
    expect(toolStatusOf({ ...base, result: null, awaitingApproval: true, live: "running" })).toBe("awaitingApproval");
  });
});

describe("error previews on collapsed tool cards", () => {
  it("shows the first line, and says when there is more to read", () => {
    expect(errorPreview("Error [NOT_FOUND]: a.ts does not exist")).toBe("Error [NOT_FOUND]: a.ts does not exist");
    expect(errorPreview("Error [NO_MATCH]: not found\nHint: re-read the file")).toBe("Error [NO_MATCH]: not found …");
    const long = errorPreview(`Error: ${"x".repeat(400)}\nmore`);
    expect(long).toHaveLength(300);
    expect(long.endsWith("x…")).toBe(true);
  });
});

describe("tool summaries and languages", () => {
  it("summarises common tools readably", () => {
    expect(toolSummary("bash", { command: "npm   test" })).toBe("$ npm test");
    expect(toolSummary("read", { path: "src/a.ts", offset: 10, limit: 5 })).toBe("src/a.ts (lines 10–14)");
    expect(toolSummary("grep", { pattern: "foo", path: "src" })).toBe("/foo/ in src");
  });
  it("counts a written file's lines as the write tool reports them (a final newline adds no line)", () => {
    expect(toolSummary("write", { path: "a.ts", content: "one\ntwo\n" })).toBe("a.ts (2 lines)");
    expect(toolSummary("write", { path: "a.ts", content: "one\r\ntwo\r\n" })).toBe("a.ts (2 lines)");
    expect(toolSummary("write", { path: "a.ts", content: "one" })).toBe("a.ts (1 line)");
  });
  it("maps file names to editor languages", () => {
    expect(languageFromPath("src/app.tsx")).toBe("typescript");
    expect(languageFromPath("Dockerfile")).toBe("dockerfile");
    expect(languageFromPath("notes")).toBe("plaintext");
  });
});
