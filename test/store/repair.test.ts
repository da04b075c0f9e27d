import { afterEach, describe, expect, it } from "vitest";
import { ABORTED_RESULT_TEXT, SessionStore } from "../../electron/core/store";
import { assistant, manualClock, tempDir, toolCall, toolResult, user, type TempDir } from "./helpers";

let dir: TempDir;
afterEach(() => dir?.remove());

const REOPEN_AT = 1_800_000_000_000;

function aborted(toolCallId: string, toolName: string) {
  return {
    type: "message",
    message: {
      role: "toolResult",
      toolCallId,
      toolName,
      isError: true,
      content: [{ type: "text", text: ABORTED_RESULT_TEXT }],
      details: { errorCode: "ABORTED", synthesized: true },
      timestamp: REOPEN_AT,
    },
  };
}

describe("repair on open", () => {
  it("adds an aborted result for each call the app died before answering, in call order", () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path);
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.appendEntry(s.id, user("go"));
    store.appendEntry(
      s.id,
      assistant([
        { type: "text", text: "working" },
        toolCall("functions.read:0", "read"),
        toolCall("call_x|fc_y", "bash"),
        toolCall("", "grep"),
      ]),
    );
    store.appendEntry(s.id, toolResult("call_x|fc_y", "done", "bash"));
    store.recordToolCall({ sessionId: s.id, toolCallId: "", toolName: "grep", args: { pattern: "x" }, status: "running" });
    store.close(); // the app "dies" here

    const reopened = SessionStore.open(path, { now: () => REOPEN_AT });
    expect(reopened.openReport).toMatchObject({ repaired: [{ sessionId: s.id, added: 2 }], repairFailures: [], leftoverImports: [] });
    const tail = reopened.loadEntries(s.id, { fromSeq: 4 });
    expect(tail).toEqual([
      { seq: 4, entry: aborted("functions.read:0", "read") },
      { seq: 5, entry: aborted("", "grep") },
    ]);
    expect(reopened.listToolCalls(s.id)).toEqual([expect.objectContaining({ toolCallId: "", status: "aborted", errorCode: "ABORTED" })]);
    // The session can continue: appends go on after the synthesized results.
    expect(reopened.appendEntry(s.id, user("again"))).toBe(6);
    reopened.close();

    const third = SessionStore.open(path);
    expect(third.openReport.repaired).toEqual([]);
    expect(third.getSession(s.id)?.entryCount).toBe(6);
    third.close();
  });

  it("leaves complete sessions and sessions without tool calls untouched", () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const clock = manualClock();
    const store = SessionStore.open(path, clock);
    const ws = store.addWorkspace("/w");
    const complete = store.createSession({ workspaceId: ws.id });
    store.appendEntry(complete.id, assistant([toolCall("a"), toolCall("b")]));
    store.appendEntry(complete.id, toolResult("b", "ok"));
    store.appendEntry(complete.id, toolResult("a", "ok"));
    const plain = store.createSession({ workspaceId: ws.id });
    store.appendEntry(plain.id, user("hi"));
    store.appendEntry(plain.id, assistant([{ type: "text", text: "hello" }]));
    const before = [complete, plain].map((s) => store.getSession(s.id));
    store.close();

    clock.tick(1000);
    const again = SessionStore.open(path, clock);
    expect(again.openReport.repaired).toEqual([]);
    expect([complete, plain].map((s) => again.getSession(s.id))).toEqual(before);
    again.close();
  });

  it("closes only one of two calls that share an id when one result arrived", () => {
    const store = SessionStore.open(":memory:", { now: () => REOPEN_AT });
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.appendEntry(s.id, assistant([toolCall("dup", "read"), toolCall("dup", "read")]));
    store.appendEntry(s.id, toolResult("dup", "first"));
    expect(store.repairSession(s.id)).toBe(1);
    expect(store.loadEntries(s.id, { fromSeq: 3 })).toEqual([{ seq: 3, entry: aborted("dup", "read") }]);
    expect(store.repairSession(s.id)).toBe(0);
    store.close();
  });

  it("repairs an interrupted turn stored with stopReason aborted", () => {
    const store = SessionStore.open(":memory:", { now: () => REOPEN_AT });
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.appendEntry(s.id, assistant([toolCall("c1", "edit")], { stopReason: "aborted" }));
    expect(store.repairSession(s.id)).toBe(1);
    expect(store.loadEntries(s.id).at(-1)).toEqual({ seq: 2, entry: aborted("c1", "edit") });
    store.close();
  });

  it("refuses to repair an unknown session", () => {
    const store = SessionStore.open(":memory:");
    expect(() => store.repairSession("nope")).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    store.close();
  });
});
