/** Review comments anchored to a file and line, and per-hunk decisions in the tool-call audit. */
import { describe, expect, it } from "vitest";
import { SessionStore, StoreError } from "../../electron/core/store";
import { manualClock, user } from "./helpers";

function withSession() {
  const store = SessionStore.open(":memory:", manualClock(1000));
  const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
  store.appendEntry(s.id, user("hello"));
  return { store, s };
}

describe("review comments", () => {
  it("stores a comment with its file and line, and a plain note without", () => {
    const { store, s } = withSession();
    store.addNote({ sessionId: s.id, seq: 1, author: "ana", verdict: null, text: "use a constant", path: "src/a.ts", line: 12 });
    store.addNote({ sessionId: s.id, seq: 1, author: "ana", verdict: "ok", text: "fine" });
    expect(store.listNotes(s.id).map((n) => [n.path, n.line, n.text])).toEqual([
      ["src/a.ts", 12, "use a constant"],
      [null, null, "fine"],
    ]);
    store.close();
  });

  it("refuses a comment with a path but no line, or a line below 1", () => {
    const { store, s } = withSession();
    expect(() => store.addNote({ sessionId: s.id, seq: 1, author: "ana", verdict: null, text: "x", path: "a.ts", line: null })).toThrow(
      StoreError,
    );
    expect(() => store.addNote({ sessionId: s.id, seq: 1, author: "ana", verdict: null, text: "x", path: "a.ts", line: 0 })).toThrow(
      StoreError,
    );
    expect(store.listNotes(s.id)).toEqual([]);
    store.close();
  });
});

describe("per-hunk decisions in the audit", () => {
  it("are kept on the tool call's audit row", () => {
    const { store, s } = withSession();
    store.recordToolCall({ sessionId: s.id, toolCallId: "c1", toolName: "edit", args: {}, status: "proposed" });
    const row = store.updateToolCall(s.id, "c1", {
      status: "approved",
      approvalDecision: "approved",
      decidedBy: "user",
      hunkDecisions: ["accepted", "rejected", "accepted"],
    });
    expect(row.hunkDecisions).toEqual(["accepted", "rejected", "accepted"]);
    store.updateToolCall(s.id, "c1", { status: "done" });
    expect(store.listToolCalls(s.id)[0].hunkDecisions).toEqual(["accepted", "rejected", "accepted"]);
    store.close();
  });
});
