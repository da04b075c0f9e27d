import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";
import { openDatabase, schemaVersion } from "../../electron/core/store/db";
import { LATEST_VERSION, MIGRATIONS } from "../../electron/core/store/migrations";
import { tempDir, user, type TempDir } from "./helpers";

let dir: TempDir;
afterEach(() => dir?.remove());

function tableNames(path: string): string[] {
  const db = new Database(path, { readonly: true });
  const names = db
    .prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'index', 'trigger') ORDER BY name`)
    .pluck()
    .all() as string[];
  db.close();
  return names;
}

describe("migrations", () => {
  it("builds the whole schema on an empty database and records the version", () => {
    dir = tempDir();
    const path = dir.file("new.db");
    const store = SessionStore.open(path);
    expect(store.schemaVersion).toBe(LATEST_VERSION);
    store.close();
    const names = tableNames(path);
    for (const t of ["workspaces", "sessions", "entries", "entries_fts", "tool_calls", "settings", "notes"]) expect(names).toContain(t);
    const db = new Database(path, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("user_version", { simple: true })).toBe(LATEST_VERSION);
    db.close();
  });

  it("re-opening changes neither the schema nor the data", () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const first = SessionStore.open(path);
    const ws = first.addWorkspace("/w");
    const s = first.createSession({ workspaceId: ws.id, title: "kept" });
    first.appendEntry(s.id, user("hello"));
    first.close();
    const before = tableNames(path);

    for (let i = 0; i < 3; i++) {
      const again = SessionStore.open(path);
      expect(again.schemaVersion).toBe(LATEST_VERSION);
      expect(again.getSession(s.id)).toMatchObject({ title: "kept", entryCount: 1 });
      expect(again.loadEntries(s.id)).toEqual([{ seq: 1, entry: user("hello") }]);
      again.close();
    }
    expect(tableNames(path)).toEqual(before);
  });

  it("applies pending migrations all-or-nothing: a failing one leaves the previous version intact", () => {
    dir = tempDir();
    const path = dir.file("m.db");
    openDatabase(path).close();
    const broken = [
      ...MIGRATIONS,
      { version: LATEST_VERSION + 1, name: "good part", sql: `CREATE TABLE extra (x INTEGER);` },
      { version: LATEST_VERSION + 2, name: "bad part", sql: `CREATE TABLE extra2 (x INTEGER); SELECT * FROM no_such_table;` },
    ];
    expect(() => openDatabase(path, broken)).toThrow();
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name LIKE 'extra%'`).all()).toEqual([]);
    db.close();
  });

  it("refuses a database from a newer app version without touching it", () => {
    dir = tempDir();
    const path = dir.file("newer.db");
    SessionStore.open(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${LATEST_VERSION + 5}`);
    raw.close();
    expect(() => SessionStore.open(path)).toThrow(expect.objectContaining({ code: "TOO_NEW" }));
    expect(() => SessionStore.openOrRecover(path)).toThrow(expect.objectContaining({ code: "TOO_NEW" }));
    expect(tableNames(path)).toContain("entries");
  });

  it("migration 3 keeps every session and entry of a version-1 database, and adds the reasoning level and its marker", () => {
    dir = tempDir();
    const path = dir.file("v1.db");
    // A database as version 1 left it: migration 1 only, rows written with its columns.
    const v1 = openDatabase(path, MIGRATIONS.slice(0, 1));
    v1.prepare(`INSERT INTO workspaces (id, path, name, created_at, last_opened_at) VALUES ('w1', '/w', 'w', 1, 1)`).run();
    v1.prepare(`INSERT INTO sessions (num, id, workspace_id, title, created_at, updated_at) VALUES (1, 's1', 'w1', 'from v1', 1, 1)`).run();
    const insert = v1.prepare(
      `INSERT INTO entries (id, session_id, kind, timestamp, running_tokens, running_cost, content) VALUES (?, 's1', 'user', ?, 0, 0, ?)`,
    );
    insert.run(4294967296 + 1, 1, JSON.stringify(user("hello")));
    insert.run(4294967296 + 2, 2, JSON.stringify(user("again")));
    v1.close();
    const s = { id: "s1" };

    const store = SessionStore.open(path);
    expect(store.schemaVersion).toBe(LATEST_VERSION);
    expect(store.getSession(s.id)).toMatchObject({ title: "from v1", entryCount: 2, reasoning: "default" });
    expect(store.loadEntries(s.id)).toEqual([
      { seq: 1, entry: user("hello") },
      { seq: 2, entry: user("again") },
    ]);
    store.appendEntry(s.id, { type: "reasoningChange", from: "default", to: "high", timestamp: 5 });
    expect(store.setSessionReasoning(s.id, "high").reasoning).toBe("high");
    // The rebuilt table keeps its triggers: deleting the session deletes its entries.
    expect(store.loadEntries(s.id).at(-1)).toEqual({
      seq: 3,
      entry: { type: "reasoningChange", from: "default", to: "high", timestamp: 5 },
    });
    expect(store.deleteSession(s.id)).toBe(true);
    store.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare(`SELECT count(*) FROM entries`).pluck().get()).toBe(0);
    expect(tableNames(path)).toEqual(
      expect.arrayContaining(["entries_assistant_by_time", "sessions_delete_entries", "entries_delete_search"]),
    );
    expect(tableNames(path)).not.toContain("entries_v1");
    raw.close();
  });

  it("migration 6 keeps a version-5 database's sessions and entries, links sub-agent sessions and takes planEdit entries", () => {
    dir = tempDir();
    const path = dir.file("v5.db");
    const v5 = openDatabase(path, MIGRATIONS.slice(0, 5));
    v5.prepare(`INSERT INTO workspaces (id, path, name, created_at, last_opened_at) VALUES ('w1', '/w', 'w', 1, 1)`).run();
    v5.prepare(`INSERT INTO sessions (num, id, workspace_id, title, created_at, updated_at) VALUES (1, 's1', 'w1', 'from v5', 1, 1)`).run();
    v5.prepare(
      `INSERT INTO entries (id, session_id, kind, timestamp, running_tokens, running_cost, content) VALUES (?, 's1', 'user', 1, 0, 0, ?)`,
    ).run(4294967296 + 1, JSON.stringify(user("hello")));
    // A planEdit row is refused before the migration: the kind CHECK did not know it.
    expect(() =>
      v5
        .prepare(
          `INSERT INTO entries (id, session_id, kind, timestamp, running_tokens, running_cost, content) VALUES (?, 's1', 'planEdit', 2, 0, 0, '{}')`,
        )
        .run(4294967296 + 2),
    ).toThrow(/CHECK/);
    v5.close();

    const store = SessionStore.open(path);
    expect(store.schemaVersion).toBe(LATEST_VERSION);
    expect(store.loadEntries("s1")).toEqual([{ seq: 1, entry: user("hello") }]);
    const plan = { type: "planEdit" as const, items: [{ text: "Write the test", status: "in_progress" as const }], timestamp: 3 };
    store.appendEntry("s1", plan);
    expect(store.loadEntries("s1").at(-1)).toEqual({ seq: 2, entry: plan });
    const child = store.createSubAgentSession({
      title: "Look around",
      model: null,
      reasoning: "default",
      parentSessionId: "s1",
      parentSeq: 1,
      parentToolCallId: "toolu_1",
    });
    expect(child).toMatchObject({ workspaceId: "w1", parentSessionId: "s1", parentSeq: 1, parentToolCallId: "toolu_1" });
    expect(store.getSession("s1")?.parentToolCallId).toBeUndefined();
    expect(store.deleteSession("s1")).toBe(true);
    expect(store.getSession(child.id)).toBeUndefined();
    store.close();
    expect(tableNames(path)).not.toContain("entries_v3");
  });

  it("numbers migrations 1, 2, 3 … without gaps", () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });
});
