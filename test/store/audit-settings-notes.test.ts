import { describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";
import { manualClock, user } from "./helpers";

function withSession() {
  const clock = manualClock(1000);
  const store = SessionStore.open(":memory:", clock);
  const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
  return { store, s, clock };
}

describe("tool-call audit", () => {
  it("records a call's lifecycle from proposal through approval to its outcome", () => {
    const { store, s, clock } = withSession();
    const created = store.recordToolCall({
      sessionId: s.id,
      toolCallId: "call_x|fc_y",
      toolName: "bash",
      args: { command: "ls" },
      status: "proposed",
    });
    clock.tick(5);
    store.updateToolCall(s.id, "call_x|fc_y", { status: "approved", approvalDecision: "approved", decidedBy: "user", decidedAt: 1005 });
    clock.tick(5);
    store.updateToolCall(s.id, "call_x|fc_y", { status: "running" });
    clock.tick(5);
    const done = store.updateToolCall(s.id, "call_x|fc_y", { status: "done", durationMs: 12, outputBytes: 2048 });
    expect(done).toEqual({
      id: created.id,
      sessionId: s.id,
      toolCallId: "call_x|fc_y",
      toolName: "bash",
      args: { command: "ls" },
      status: "done",
      durationMs: 12,
      errorCode: null,
      outputBytes: 2048,
      approvalDecision: "approved",
      decidedBy: "user",
      decidedAt: 1005,
      decidedByRule: null,
      hunkDecisions: null,
      createdAt: 1000,
      updatedAt: 1015,
    });
    expect(store.listToolCalls(s.id)).toEqual([done]);
    store.close();
  });

  it("updates the latest call when a provider reuses an id across turns", () => {
    const { store, s } = withSession();
    store.recordToolCall({ sessionId: s.id, toolCallId: "functions.Bash:0", toolName: "bash", args: {}, status: "done" });
    store.recordToolCall({ sessionId: s.id, toolCallId: "functions.Bash:0", toolName: "bash", args: {}, status: "running" });
    store.updateToolCall(s.id, "functions.Bash:0", { status: "error", errorCode: "TIMEOUT" });
    expect(store.listToolCalls(s.id).map((c) => [c.status, c.errorCode])).toEqual([
      ["done", null],
      ["error", "TIMEOUT"],
    ]);
    store.close();
  });

  it("refuses unknown statuses, unknown calls and unknown sessions", () => {
    const { store, s } = withSession();
    expect(() => store.recordToolCall({ sessionId: s.id, toolCallId: "a", toolName: "x", args: {}, status: "bogus" as "done" })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => store.updateToolCall(s.id, "missing", { status: "done" })).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect(() => store.recordToolCall({ sessionId: "nope", toolCallId: "a", toolName: "x", args: {}, status: "done" })).toThrow(
      expect.objectContaining({ code: "NOT_FOUND" }),
    );
    store.close();
  });

  it("the loop's write-only calls store the same rows and refuse the same mistakes", () => {
    const { store, s, clock } = withSession();
    store.addToolCall({
      sessionId: s.id,
      toolCallId: "c1",
      toolName: "read",
      args: { path: "a.txt" },
      status: "done",
      durationMs: 3,
      outputBytes: 10,
    });
    store.addToolCall({ sessionId: s.id, toolCallId: "c2", toolName: "bash", args: { command: "ls" }, status: "proposed" });
    clock.tick(5);
    store.patchToolCall(s.id, "c2", { status: "approved", approvalDecision: "autoApproved", decidedBy: "policy", decidedAt: 1005 });
    store.patchToolCall(s.id, "c2", { status: "error", errorCode: "TIMEOUT" });
    const [c1, c2] = store.listToolCalls(s.id);
    expect(c1).toMatchObject({
      toolCallId: "c1",
      args: { path: "a.txt" },
      status: "done",
      durationMs: 3,
      outputBytes: 10,
      createdAt: 1000,
      updatedAt: 1000,
    });
    expect(c2).toMatchObject({
      status: "error",
      errorCode: "TIMEOUT",
      approvalDecision: "autoApproved",
      decidedBy: "policy",
      decidedAt: 1005,
      updatedAt: 1005,
    });

    expect(() => store.addToolCall({ sessionId: s.id, toolCallId: "a", toolName: "x", args: {}, status: "bogus" as "done" })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => store.patchToolCall(s.id, "c1", { approvalDecision: "maybe" as "approved" })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => store.patchToolCall(s.id, "missing", { status: "done" })).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect(() => store.addToolCall({ sessionId: "nope", toolCallId: "a", toolName: "x", args: {}, status: "done" })).toThrow(
      expect.objectContaining({ code: "NOT_FOUND" }),
    );
    expect(store.listToolCalls(s.id)).toHaveLength(2);
    store.close();
  });

  it("writes an entry and what runs alongside it in one transaction: both or neither", () => {
    const { store, s } = withSession();
    const audit = (toolCallId: string) => () =>
      store.addToolCall({ sessionId: s.id, toolCallId, toolName: "read", args: {}, status: "done" });
    expect(store.appendEntry(s.id, user("one"), audit("c1"))).toBe(1);
    expect(() =>
      store.appendEntry(s.id, user("two"), () => {
        audit("c2")();
        throw new Error("audit failed");
      }),
    ).toThrow();
    expect(store.appendEntry(s.id, user("three"), audit("c3"))).toBe(2);
    expect(store.loadEntries(s.id).map((e) => e.seq)).toEqual([1, 2]);
    expect(store.listToolCalls(s.id).map((c) => c.toolCallId)).toEqual(["c1", "c3"]);
    expect(store.getSession(s.id)?.entryCount).toBe(2);
    store.close();
  });
});

describe("settings", () => {
  it("stores JSON values by key and overwrites them", () => {
    const { store } = withSession();
    expect(store.getSetting("theme")).toBeUndefined();
    store.setSetting("theme", "dark");
    store.setSetting("budget", { maxToolCalls: 20, nested: [1, null] });
    store.setSetting("theme", "light");
    expect(store.getSetting("theme")).toBe("light");
    expect(store.getSetting("budget")).toEqual({ maxToolCalls: 20, nested: [1, null] });
    expect(store.deleteSetting("theme")).toBe(true);
    expect(store.getSetting("theme")).toBeUndefined();
    store.close();
  });

  it("refuses keys that look like secrets", () => {
    const { store } = withSession();
    for (const key of ["openaiApiKey", "anthropic.api_key", "clientSecret", "password", "github_access_token"]) {
      expect(() => store.setSetting(key, "sk-123"), key).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
    store.close();
  });
});

describe("reviewer notes", () => {
  it("adds, lists by entry and deletes notes", () => {
    const { store, s } = withSession();
    for (let i = 0; i < 3; i++) store.appendEntry(s.id, user(`m${i}`));
    const late = store.addNote({ sessionId: s.id, seq: 3, author: "ana", verdict: "problem", text: "wrong file edited" });
    const early = store.addNote({ sessionId: s.id, seq: 1, author: "bo", verdict: null, text: "context" });
    expect(store.listNotes(s.id)).toEqual([early, late]);
    expect(late).toMatchObject({ sessionId: s.id, seq: 3, author: "ana", verdict: "problem", text: "wrong file edited", createdAt: 1000 });
    expect(store.deleteNote(early.id)).toBe(true);
    expect(store.deleteNote(early.id)).toBe(false);
    expect(store.listNotes(s.id)).toEqual([late]);
    store.close();
  });

  it("refuses a note on an entry that does not exist", () => {
    const { store, s } = withSession();
    store.appendEntry(s.id, user("only one"));
    for (const seq of [0, 2]) {
      expect(() => store.addNote({ sessionId: s.id, seq, author: "a", verdict: "ok", text: "x" })).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
    }
    store.close();
  });
});
