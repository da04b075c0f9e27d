import Database from "better-sqlite3";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";
import { GPT, SONNET, assistant, manualClock, tempDir, toolCall, toolResult, usage, user, type TempDir } from "./helpers";

let dir: TempDir;
afterEach(() => dir?.remove());

describe("workspaces", () => {
  it("upserts by path, keeps the id and lists the most recently opened first", () => {
    const clock = manualClock();
    const store = SessionStore.open(":memory:", clock);
    const a = store.addWorkspace("/home/me/alpha");
    clock.tick();
    const b = store.addWorkspace("/home/me/beta", "Beta project");
    clock.tick();
    const again = store.addWorkspace("/home/me/alpha");
    expect(a.name).toBe("alpha");
    expect(b.name).toBe("Beta project");
    expect(again.id).toBe(a.id);
    expect(again.lastOpenedAt).toBeGreaterThan(a.lastOpenedAt);
    expect(store.recentWorkspaces().map((w) => w.path)).toEqual(["/home/me/alpha", "/home/me/beta"]);
    expect(store.recentWorkspaces(1)).toHaveLength(1);
    expect(store.getWorkspace(b.id)).toEqual(b);
    expect(store.getWorkspace("nope")).toBeUndefined();
    store.close();
  });
});

describe("sessions", () => {
  it("creates a session with defaults and refuses an unknown workspace", () => {
    const store = SessionStore.open(":memory:", { now: () => 42 });
    const ws = store.addWorkspace("/w");
    const s = store.createSession({ workspaceId: ws.id, model: SONNET });
    expect(s).toEqual({
      id: expect.any(String),
      workspaceId: ws.id,
      title: "New session",
      createdAt: 42,
      updatedAt: 42,
      model: SONNET,
      reasoning: "default",
      parentSessionId: null,
      parentSeq: null,
      entryCount: 0,
      totalCost: 0,
      totalTokens: 0,
    });
    expect(store.getSession(s.id)).toEqual(s);
    expect(() => store.createSession({ workspaceId: "nope" })).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    store.close();
  });

  it("renames by setting the title and appending a rename entry", () => {
    const store = SessionStore.open(":memory:", { now: () => 7 });
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.appendEntry(s.id, user("hi"));
    expect(store.renameSession(s.id, "Better title").title).toBe("Better title");
    expect(store.loadEntries(s.id).at(-1)).toEqual({ seq: 2, entry: { type: "rename", title: "Better title", timestamp: 7 } });
    expect(() => store.renameSession(s.id, "  ")).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => store.renameSession("nope", "x")).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    store.close();
  });

  it("switches the current model without appending an entry", () => {
    const store = SessionStore.open(":memory:");
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id, model: SONNET });
    expect(store.setSessionModel(s.id, GPT).model).toEqual(GPT);
    expect(store.getSession(s.id)?.entryCount).toBe(0);
    store.close();
  });

  it("keeps updatedAt within a second of the latest append while the session tops its list", () => {
    const clock = manualClock();
    const store = SessionStore.open(":memory:", clock);
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    const created = s.updatedAt;
    clock.tick(400);
    store.appendEntry(s.id, user("a"));
    expect(store.getSession(s.id)?.updatedAt).toBe(created);
    clock.tick(700);
    store.appendEntry(s.id, user("b"));
    expect(store.getSession(s.id)?.updatedAt).toBe(created + 1100);
    store.close();
  });

  it("keeps seqs contiguous when another connection appended to the same session", () => {
    dir = tempDir();
    const path = dir.file("two.db");
    const a = SessionStore.open(path);
    const s = a.createSession({ workspaceId: a.addWorkspace("/w").id });
    expect(a.appendEntry(s.id, user("from a"))).toBe(1);
    const b = SessionStore.open(path);
    expect(b.appendEntry(s.id, user("from b"))).toBe(2);
    b.close();
    expect(a.appendEntry(s.id, user("from a again"))).toBe(3);
    expect(a.loadEntries(s.id).map((e) => e.entry)).toEqual([user("from a"), user("from b"), user("from a again")]);
    expect(a.getSession(s.id)?.entryCount).toBe(3);
    a.close();
  });

  it("moves a session to the top of its list when an entry is appended", () => {
    const clock = manualClock();
    const store = SessionStore.open(":memory:", clock);
    const ws = store.addWorkspace("/w");
    const first = store.createSession({ workspaceId: ws.id, title: "first" });
    clock.tick();
    store.createSession({ workspaceId: ws.id, title: "second" });
    clock.tick();
    store.appendEntry(first.id, user("bump"));
    expect(store.listSessions(ws.id).sessions.map((s) => s.title)).toEqual(["first", "second"]);
    store.close();
  });
});

describe("listing sessions", () => {
  it("pages newest first with the updatedAt cursor", () => {
    const clock = manualClock();
    const store = SessionStore.open(":memory:", clock);
    const ws = store.addWorkspace("/w");
    const other = store.addWorkspace("/other");
    store.createSession({ workspaceId: other.id });
    const titles = Array.from({ length: 7 }, (_, i) => {
      clock.tick();
      return store.createSession({ workspaceId: ws.id, title: `s${i}` }).title;
    });
    const seen: string[] = [];
    let before: number | undefined;
    for (;;) {
      const page = store.listSessions(ws.id, { limit: 3, before });
      seen.push(...page.sessions.map((s) => s.title));
      if (!page.hasMore) break;
      before = page.sessions.at(-1)?.updatedAt;
    }
    expect(seen).toEqual([...titles].reverse());
    store.close();
  });

  it("never skips or repeats a session across pages, even when many share an updatedAt", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 0, maxLength: 30 }),
        fc.integer({ min: 1, max: 6 }),
        (times, limit) => {
          let t = 0;
          const store = SessionStore.open(":memory:", { now: () => t });
          const ws = store.addWorkspace("/w");
          const ids = times.map((time) => {
            t = time;
            return store.createSession({ workspaceId: ws.id }).id;
          });
          const seen: string[] = [];
          const stamps: number[] = [];
          let before: number | undefined;
          for (let guard = 0; guard < 100; guard++) {
            const page = store.listSessions(ws.id, { limit, before });
            seen.push(...page.sessions.map((s) => s.id));
            stamps.push(...page.sessions.map((s) => s.updatedAt));
            if (!page.hasMore) break;
            before = page.sessions.at(-1)?.updatedAt;
          }
          store.close();
          expect([...seen].sort()).toEqual([...ids].sort());
          expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("deleting a session", () => {
  it("removes its entries, search rows, audit rows and notes, and leaves its forks standing", () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path);
    const ws = store.addWorkspace("/w");
    const s = store.createSession({ workspaceId: ws.id });
    store.appendEntry(s.id, user("zebra crossing"));
    store.appendEntry(s.id, assistant([{ type: "text", text: "zebra answer" }, toolCall("c1")]));
    store.appendEntry(s.id, toolResult("c1", "zebra output"));
    store.recordToolCall({ sessionId: s.id, toolCallId: "c1", toolName: "read", args: {}, status: "done" });
    store.addNote({ sessionId: s.id, seq: 1, author: "rev", verdict: "ok", text: "fine" });
    const fork = store.forkSession(s.id, 1);
    const keep = store.createSession({ workspaceId: ws.id });
    store.appendEntry(keep.id, user("zebra elsewhere"));
    expect(store.search("zebra")).toHaveLength(5);

    expect(store.deleteSession(s.id)).toBe(true);
    expect(store.deleteSession(s.id)).toBe(false);
    expect(store.getSession(s.id)).toBeUndefined();
    expect(
      store
        .search("zebra")
        .map((h) => h.sessionId)
        .sort(),
    ).toEqual([fork.id, keep.id].sort());
    expect(store.getSession(fork.id)).toMatchObject({ parentSessionId: null, parentSeq: 1, entryCount: 2 });
    store.close();

    const raw = new Database(path, { readonly: true });
    for (const table of ["entries", "tool_calls", "notes"]) {
      expect(raw.prepare(`SELECT count(*) FROM ${table} WHERE session_id = ?`).pluck().get(s.id)).toBe(0);
    }
    expect(raw.prepare(`SELECT count(*) FROM entries_fts`).pluck().get()).toBe(2);
    expect(raw.prepare(`SELECT count(*) FROM search_rows`).pluck().get()).toBe(2);
    raw.close();
  });
});

describe("forking", () => {
  function sourceSession(store: SessionStore) {
    const ws = store.addWorkspace("/w");
    const s = store.createSession({ workspaceId: ws.id, title: "Source", model: SONNET });
    store.appendEntry(s.id, user("find the walrus"));
    store.appendEntry(s.id, assistant([toolCall("c1", "grep")], { usage: usage(100, 10, 0.5) }));
    store.appendEntry(s.id, toolResult("c1", "walrus found in zoo.ts", "grep"));
    store.appendEntry(s.id, assistant([{ type: "text", text: "It is in zoo.ts" }], { usage: usage(200, 20, 1) }));
    store.appendEntry(s.id, user("now the narwhal"));
    return s;
  }

  it("copies entries up to N, records the parent and appends a fork entry", () => {
    const store = SessionStore.open(":memory:", { now: () => 99 });
    const src = sourceSession(store);
    const fork = store.forkSession(src.id, 4);
    expect(fork).toMatchObject({
      title: "Source (fork)",
      workspaceId: src.workspaceId,
      model: SONNET,
      parentSessionId: src.id,
      parentSeq: 4,
      entryCount: 5,
      totalCost: 1.5,
      totalTokens: 330,
    });
    const source = store.loadEntries(src.id);
    expect(store.loadEntries(fork.id)).toEqual([
      ...source.slice(0, 4),
      { seq: 5, entry: { type: "fork", sourceSessionId: src.id, sourceSeq: 4, timestamp: 99 } },
    ]);
    expect(store.getSession(src.id)?.entryCount).toBe(5);
    expect(
      store
        .search("walrus")
        .map((h) => h.sessionId)
        .sort(),
    ).toEqual([src.id, src.id, fork.id, fork.id].sort());
    expect(store.search("narwhal").map((h) => h.sessionId)).toEqual([src.id]);
    expect(store.appendEntry(fork.id, user("continue"))).toBe(6);
    store.close();
  });

  it("forks at 0 into an empty session and takes a custom title", () => {
    const store = SessionStore.open(":memory:");
    const src = sourceSession(store);
    const fork = store.forkSession(src.id, 0, { title: "Fresh start" });
    expect(fork).toMatchObject({ title: "Fresh start", entryCount: 1, totalCost: 0 });
    store.close();
  });

  it("refuses a fork point outside the session", () => {
    const store = SessionStore.open(":memory:");
    const src = sourceSession(store);
    for (const at of [-1, 6, 1.5]) {
      expect(() => store.forkSession(src.id, at)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
    expect(() => store.forkSession("nope", 0)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect(store.listSessions(src.workspaceId).sessions).toHaveLength(1);
    store.close();
  });

  it("a fork cut between a tool call and its result can be repaired", () => {
    const store = SessionStore.open(":memory:");
    const src = sourceSession(store);
    const fork = store.forkSession(src.id, 2);
    expect(store.repairSession(fork.id)).toBe(1);
    expect(store.loadEntries(fork.id).at(-1)?.entry).toMatchObject({ message: { role: "toolResult", toolCallId: "c1", isError: true } });
    store.close();
  });
});
