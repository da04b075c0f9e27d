/**
 * An import's staged session: written in slices, invisible to list, search,
 * open, indexing and repair until it is published in one transaction;
 * discarded (in slices) when the import fails, and at the next open when the
 * process died mid-import.
 */
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";
import { assistant, tempDir, toolCall, user, type TempDir } from "./helpers";

let dir: TempDir | undefined;
afterEach(() => {
  dir?.remove();
  dir = undefined;
});

const rowCounts = (path: string) => {
  const db = new Database(path, { readonly: true });
  const count = (sql: string) => (db.prepare(sql).pluck().get() as number) ?? 0;
  const counts = {
    sessions: count(`SELECT count(*) FROM sessions`),
    staged: count(`SELECT count(*) FROM sessions WHERE staged_at IS NOT NULL`),
    entries: count(`SELECT count(*) FROM entries`),
    toolCalls: count(`SELECT count(*) FROM tool_calls`),
    notes: count(`SELECT count(*) FROM notes`),
    searchRows: count(`SELECT count(*) FROM search_rows`),
  };
  db.close();
  return counts;
};

function stagedStore() {
  dir = tempDir();
  const path = dir.file("staged.db");
  const store = SessionStore.open(path);
  const ws = store.addWorkspace("/w").id;
  const id = store.imports.create({ workspaceId: ws, title: "Imported", model: null });
  // The last entry leaves a call open: repair at open must not touch a staged session.
  store.imports.stage(id, {
    entries: [user("needle in the staged import"), assistant([toolCall("call_1")])],
    toolCalls: [{ toolCallId: "call_1", toolName: "read", args: { path: "a.txt" }, status: "running" }],
  });
  store.imports.stage(id, { notes: [{ seq: 1, author: "rita", verdict: "ok", text: "noted" }] });
  return { store, path, ws, id };
}

describe("staged imports", () => {
  it("a staged session is not listed, found, opened, indexed or repaired", () => {
    const { store, path, ws, id } = stagedStore();
    expect(store.listSessions(ws).sessions).toEqual([]);
    expect(store.getSession(id)).toBeUndefined();
    expect(store.search("needle")).toEqual([]);
    store.close();
    expect(rowCounts(path)).toMatchObject({ staged: 1, entries: 2, searchRows: 0 });
  });

  it("publish makes the whole session visible at once, with its final title and model, and searchable", () => {
    const { store, ws, id } = stagedStore();
    const model = { provider: "anthropic", api: "anthropic-messages" as const, id: "claude-sonnet-4-5" };
    const published = store.imports.publish(id, { title: "Final title", model });
    expect(published).toMatchObject({ id, title: "Final title", model, entryCount: 2 });
    expect(store.listSessions(ws).sessions.map((s) => s.id)).toEqual([id]);
    expect(store.search("needle").map((h) => h.sessionId)).toEqual([id]);
    expect(store.listNotes(id).map((n) => n.text)).toEqual(["noted"]);
    expect(() => store.imports.publish(id, { title: "again", model: null })).toThrow(/no import in progress/);
    store.close();
  });

  it("discard removes every row of the staged session and leaves other sessions alone", async () => {
    const { store, path, ws, id } = stagedStore();
    const other = store.createSession({ workspaceId: ws });
    store.appendEntry(other.id, user("keep me"));
    await store.imports.discard(id);
    expect(() => store.imports.stage(id, { entries: [user("late")] })).toThrow(/no import in progress/);
    store.close();
    expect(rowCounts(path)).toMatchObject({ sessions: 1, staged: 0, entries: 1, toolCalls: 0, notes: 0 });
  });

  it("a staged session left by a dead process is reported at the next open, never shown, and discarded", async () => {
    const { store, path, ws, id } = stagedStore();
    store.close();
    const reopened = SessionStore.open(path);
    expect(reopened.openReport.leftoverImports).toEqual([{ sessionId: id, title: "Imported", entries: 2 }]);
    // Not repaired: its open call would otherwise have got a synthesized result.
    expect(reopened.openReport.repaired).toEqual([]);
    expect(reopened.listSessions(ws).sessions).toEqual([]);
    await reopened.imports.idle();
    reopened.close();
    expect(rowCounts(path)).toMatchObject({ sessions: 0, entries: 0, toolCalls: 0, notes: 0 });
    const third = SessionStore.open(path);
    expect(third.openReport.leftoverImports).toEqual([]);
    third.close();
  });

  it("discards a large staged session in slices, answering reads in between", async () => {
    dir = tempDir();
    const store = SessionStore.open(dir.file("big.db"));
    const ws = store.addWorkspace("/w").id;
    const id = store.imports.create({ workspaceId: ws, title: "Big", model: null });
    for (let i = 0; i < 10; i++)
      store.imports.stage(id, { entries: Array.from({ length: 1000 }, (_, k) => user(`entry ${i * 1000 + k}`)) });
    let readsDuring = 0;
    let done = false;
    const discarded = store.imports.discard(id).then(() => (done = true));
    // A read scheduled after the discard started runs before the discard ends.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!done) readsDuring += store.listSessions(ws).sessions.length === 0 ? 1 : 0;
    await discarded;
    expect(readsDuring).toBe(1);
    store.close();
  });
});
