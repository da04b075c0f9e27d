import { describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";

describe("store warm-up", () => {
  it("runs on an empty store and on one with sessions, and changes nothing a later read sees", () => {
    const empty = SessionStore.open(":memory:");
    expect(() => empty.warmUp()).not.toThrow();
    empty.close();

    const store = SessionStore.open(":memory:");
    const ws = store.addWorkspace("/tmp/warm-up-project", "project");
    const session = store.createSession({ workspaceId: ws.id, title: "kept" });
    store.appendEntry(session.id, { type: "message", message: { role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 } });
    const before = { summary: store.getSession(session.id), entries: store.loadEntries(session.id) };
    store.warmUp();
    expect(store.getSession(session.id)).toEqual(before.summary);
    expect(store.loadEntries(session.id)).toEqual(before.entries);
    expect(store.loadEntries(session.id, { fromSeq: 1 })).toHaveLength(1);
    store.close();
  });
});
