import { describe, expect, it } from "vitest";
import type { SessionEntry, StoredEntry } from "../../shared/protocol";
import { fileStatesAt } from "../../electron/core/review/file-history";
import { fileDiff } from "../../electron/core/tools/diff";
import { APP_AFTER, APP_BEFORE, README_V1, README_V2, T0, buildSession } from "./fixture";

function entries() {
  const f = buildSession();
  return f.store.loadEntries(f.sessionId);
}

describe("workspace files at a replay step", () => {
  it("shows nothing before the first change lands", () => {
    expect(fileStatesAt(entries(), 6)).toEqual({ seq: 6, files: [], untracked: [] });
  });

  it("follows the steps: before the session and as of the step, per touched file", () => {
    const all = entries();
    const at7 = fileStatesAt(all, 7);
    expect(at7.files).toEqual([
      {
        path: "src/app.ts",
        before: APP_BEFORE,
        after: APP_AFTER,
        beforeKnown: true,
        afterKnown: true,
        created: false,
        lastDiff: fileDiff("src/app.ts", APP_BEFORE, APP_AFTER).unifiedDiff,
        changes: [{ seq: 7, toolCallId: "call_def|fc_2", toolName: "edit", added: 1, removed: 1 }],
      },
    ]);

    const at14 = fileStatesAt(all, 14);
    expect(at14.files.map((f) => [f.path, f.before, f.after, f.created])).toEqual([
      ["src/app.ts", APP_BEFORE, APP_AFTER, false],
      ["README.md", null, README_V1, true],
    ]);

    const at21 = fileStatesAt(all, 21);
    const readme = at21.files.find((f) => f.path === "README.md");
    expect(readme).toMatchObject({ before: null, after: README_V2, created: true });
    expect(readme?.changes.map((c) => c.seq)).toEqual([14, 21]);
    // Stepping back shows the earlier state again.
    expect(fileStatesAt(all, 20).files.find((f) => f.path === "README.md")?.after).toBe(README_V1);
  });

  it("does not list a denied bash call as a possible untracked change", () => {
    expect(fileStatesAt(entries(), 22).untracked).toEqual([]);
  });

  it("lists a bash run that did execute, with its command", () => {
    const all: StoredEntry[] = [
      ...entries(),
      {
        seq: 23,
        entry: msg({
          role: "assistant",
          content: [{ type: "toolCall", id: "t1", name: "bash", arguments: { command: "npm run fmt" } }],
          stopReason: "toolUse",
          model: { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" },
          usage: zero(),
          timestamp: T0 + 30_000,
        }),
      },
      {
        seq: 24,
        entry: msg({
          role: "toolResult",
          toolCallId: "t1",
          toolName: "bash",
          isError: false,
          content: [{ type: "text", text: "ok" }],
          details: { exitCode: 0 },
          timestamp: T0 + 30_500,
        }),
      },
    ];
    expect(fileStatesAt(all, 24).untracked).toEqual([{ seq: 24, toolCallId: "t1", command: "npm run fmt" }]);
    expect(fileStatesAt(all, 23).untracked).toEqual([]);
  });

  it("rebuilds a large file from its diffs when the tool omitted the full text", () => {
    const v1 = "line 1\nline 2\nline 3\n";
    const v2 = "line 1\nline two\nline 3\n";
    const v3 = "line 0\nline 1\nline two\nline 3\n";
    const all: StoredEntry[] = [
      {
        seq: 1,
        entry: result("a", "write", {
          path: "big.txt",
          created: true,
          bytes: 21,
          diff: fileDiff("big.txt", null, v1),
          before: null,
          after: v1,
        }),
      },
      {
        seq: 2,
        entry: result("b", "edit", { path: "big.txt", created: false, bytes: 23, diff: fileDiff("big.txt", v1, v2), contentOmitted: true }),
      },
      {
        seq: 3,
        entry: result("c", "edit", { path: "big.txt", created: false, bytes: 30, diff: fileDiff("big.txt", v2, v3), contentOmitted: true }),
      },
    ];
    expect(fileStatesAt(all, 3).files[0]).toMatchObject({ before: null, after: v3, afterKnown: true, beforeKnown: true });
  });

  it("reports the content as unknown when the first change it saw omitted the text", () => {
    const all: StoredEntry[] = [
      {
        seq: 1,
        entry: result("b", "edit", {
          path: "huge.txt",
          created: false,
          bytes: 9,
          diff: fileDiff("huge.txt", "a\n", "b\n"),
          contentOmitted: true,
        }),
      },
    ];
    expect(fileStatesAt(all, 1).files[0]).toMatchObject({
      path: "huge.txt",
      beforeKnown: false,
      afterKnown: false,
      before: null,
      after: null,
    });
  });

  it("ignores failed writes and results whose details are not a file change", () => {
    const all: StoredEntry[] = [
      { seq: 1, entry: result("x", "edit", { errorCode: "NO_MATCH", path: "a.ts" }, true) },
      { seq: 2, entry: result("y", "edit", { unexpected: true }) },
    ];
    expect(fileStatesAt(all, 2).files).toEqual([]);
  });
});

function msg(message: Extract<SessionEntry, { type: "message" }>["message"]): SessionEntry {
  return { type: "message", message };
}

function zero() {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

function result(id: string, toolName: string, details: unknown, isError = false): SessionEntry {
  return msg({ role: "toolResult", toolCallId: id, toolName, isError, content: [{ type: "text", text: "done" }], details, timestamp: T0 });
}
