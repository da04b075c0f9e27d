/** The Changes view's data: every file a session changed in a range, with line counts. */
import { describe, expect, it } from "vitest";
import type { StoredEntry } from "../../shared/protocol";
import { changeDiff, changesBetween } from "../../electron/core/review/changes";

let seq = 0;
const user = (text: string): StoredEntry => ({
  seq: ++seq,
  entry: { type: "message", message: { role: "user", content: [{ type: "text", text }], timestamp: seq } },
});
function change(tool: "write" | "edit", path: string, before: string | null, after: string): StoredEntry {
  return {
    seq: ++seq,
    entry: {
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: `c${seq}`,
        toolName: tool,
        isError: false,
        content: [{ type: "text", text: "ok" }],
        details: { path, created: before === null, bytes: after.length, diff: { unifiedDiff: "", added: 0, removed: 0 }, before, after },
        timestamp: seq,
      },
    },
  };
}

describe("changesBetween", () => {
  const entries: StoredEntry[] = [
    user("turn 1"),
    change("write", "new.txt", null, "a\nb\n"),
    change("edit", "src/a.ts", "1\n2\n3\n", "1\nTWO\n3\n"),
    user("turn 2"),
    change("edit", "src/a.ts", "1\nTWO\n3\n", "1\nTWO\n3\n4\n"),
    change("edit", "crlf.txt", "x\ny\n", "x\r\ny\n"),
  ];

  it("since the start: every file, added shown as added, counts from the diff", () => {
    const set = changesBetween(entries, 0, seq);
    expect(set.files.map((f) => [f.path, f.status, f.added, f.removed, f.hunks, f.kind])).toEqual([
      ["crlf.txt", "modified", 1, 1, 1, "lineEnding"],
      ["new.txt", "added", 2, 0, 1, "change"],
      ["src/a.ts", "modified", 2, 1, 2, "change"],
    ]);
    expect([set.added, set.removed]).toEqual([5, 2]);
  });

  it("this turn / since step N: only what changed after that entry, against the content then", () => {
    const turn2 = entries[3].seq;
    const set = changesBetween(entries, turn2, seq);
    expect(set.files.map((f) => [f.path, f.added, f.removed])).toEqual([
      ["crlf.txt", 1, 1],
      ["src/a.ts", 1, 0],
    ]);
    expect(changeDiff(entries, turn2, seq, "src/a.ts")).toEqual({ path: "src/a.ts", before: "1\nTWO\n3\n", after: "1\nTWO\n3\n4\n" });
  });
});
