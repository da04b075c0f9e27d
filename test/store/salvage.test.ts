/**
 * A damaged database costs only its damaged part: before the file is moved
 * aside, every row that still reads is copied into the fresh store, and the
 * report says how much was saved. Damage is made for real, by overwriting one
 * page of the file (found with SQLite's dbstat table).
 */
import Database from "better-sqlite3";
import { existsSync, openSync, readFileSync, writeSync, closeSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";
import { tempDir, user, type TempDir } from "./helpers";

let dir: TempDir;
afterEach(() => dir?.remove());

/** A checkpointed file with one session of `n` entries, all indexed for search. */
function database(path: string, n: number): string {
  const store = SessionStore.open(path);
  const s = store.createSession({ workspaceId: store.addWorkspace("/w").id, title: "the long one" });
  for (let i = 1; i <= n; i++)
    store.appendEntry(s.id, user(`entry ${i} about ${i % 7 === 0 ? "zebras" : "horses"} ${"padding ".repeat(20)}`));
  store.close(); // indexes everything, checkpoints and removes the WAL
  return s.id;
}

/** Overwrites one page of `table` (of the given dbstat page type) with garbage; returns its number. */
function damagePage(path: string, table: string, pagetype: "leaf" | "internal"): number {
  const db = new Database(path, { readonly: true });
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const pages = db
    .prepare(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno`)
    .pluck()
    .all(table, pagetype) as number[];
  db.close();
  expect(pages.length).toBeGreaterThan(2);
  const page = pages[Math.floor(pages.length / 2)];
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
  closeSync(fd);
  return page;
}

describe("salvage of a damaged database", () => {
  it("a damaged page of entries: every other entry is saved, the gap is listed, and the report counts both", () => {
    dir = tempDir();
    const path = dir.file("workbench.db");
    const id = database(path, 2000);
    damagePage(path, "entries", "leaf");
    const damaged = readFileSync(path);

    const { store, recovered } = SessionStore.openOrRecover(path);
    expect(recovered).not.toBeNull();
    expect(readFileSync(recovered!.movedTo).equals(damaged)).toBe(true);
    const report = recovered!.salvage!;
    expect(report.sessions).toBe(1);
    expect(report.entries).toBeGreaterThan(1900);
    expect(report.entries + report.missingEntries).toBe(2000);
    expect(report.missingEntries).toBeGreaterThan(0);

    const { entries, problems } = store.loadEntriesChecked(id);
    expect(entries).toHaveLength(report.entries);
    expect(problems).toEqual([expect.objectContaining({ code: "MISSING" })]);
    expect(problems[0].toSeq! - problems[0].seq + 1).toBe(report.missingEntries);
    expect(store.getSession(id)?.title).toBe("the long one");
    // The index is rebuilt from the saved entries.
    expect(store.search("zebras", { limit: 1000 }).length).toBeGreaterThan(250);
    store.close();
  });

  it("a damaged search-index page: all entries are saved and search works again", () => {
    dir = tempDir();
    const path = dir.file("workbench.db");
    const id = database(path, 1502);
    damagePage(path, "entries_fts_data", "leaf");

    const { store, recovered } = SessionStore.openOrRecover(path);
    expect(recovered?.reason).toMatch(/malformed|integrity check failed/);
    expect(recovered?.salvage).toMatchObject({ sessions: 1, entries: 1502, missingEntries: 0 });
    expect(store.loadEntriesChecked(id).problems).toEqual([]);
    expect(store.search("zebras", { limit: 1000 })).toHaveLength(Math.floor(1502 / 7));
    store.close();
    expect(existsSync(recovered!.movedTo)).toBe(true);
  });

  it("recovering the same kept file again adds nothing twice", () => {
    dir = tempDir();
    const path = dir.file("workbench.db");
    database(path, 300);
    damagePage(path, "entries_fts_data", "leaf");
    const { store, recovered } = SessionStore.openOrRecover(path);
    const again = store.salvageFrom(recovered!.movedTo);
    expect(again).toMatchObject({ sessions: 0, entries: 0, alreadyPresent: 1 });
    expect(store.listSessions(store.recentWorkspaces()[0].id).sessions).toHaveLength(1);
    store.close();
  });
});

describe("try to recover from a kept file", () => {
  it("brings back into the current store the sessions it does not have", () => {
    dir = tempDir();
    const path = dir.file("workbench.db");
    const id = database(path, 400);
    damagePage(path, "entries", "leaf");
    const { store, recovered } = SessionStore.openOrRecover(path);
    const saved = recovered!.salvage!.entries;
    store.deleteSession(id);
    expect(store.getSession(id)).toBeUndefined();

    const again = store.salvageFrom(recovered!.movedTo);
    expect(again).toMatchObject({ sessions: 1, sessionIds: [id], entries: saved, alreadyPresent: 0 });
    expect(store.loadEntries(id)).toHaveLength(saved);
    expect(store.keptFiles().map((f) => f.path)).toEqual([recovered!.movedTo]);
    store.close();
  });
});
