/**
 * No main-process stall: the search index catches up in slices that stop at
 * their deadline and carry on where they stopped, search is never stale, and
 * the integrity scan runs off the main thread, reporting damage as at open.
 */
import { openSync, readSync, writeSync, closeSync, existsSync } from "node:fs";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore, StoreError } from "../../electron/core/store";
import { createContext, openDatabase } from "../../electron/core/store/db";
import { appendEntry } from "../../electron/core/store/entries";
import { indexSlice } from "../../electron/core/store/search-index";
import { createSession } from "../../electron/core/store/sessions";
import { addWorkspace } from "../../electron/core/store/workspaces";
import { tempDir, user, type TempDir } from "./helpers";

let dir: TempDir | null = null;
afterEach(() => {
  dir?.remove();
  dir = null;
});

describe("search index slices", () => {
  it("a slice with no room still makes progress, stops, and the next one carries on to the end", () => {
    const ctx = createContext(openDatabase(":memory:"), Date.now);
    const ws = addWorkspace(ctx, "/w");
    const s = createSession(ctx, { workspaceId: ws.id });
    for (let i = 0; i < 100; i++) appendEntry(ctx, s.id, user(`message ${i} word${i}`));
    const watermark = () => ctx.db.prepare(`SELECT fts_indexed_seq FROM sessions WHERE id = ?`).pluck().get(s.id) as number;

    const first = indexSlice(ctx, [s.id], 0);
    expect(first.scanned).toBeGreaterThan(0);
    expect(first.scanned).toBeLessThan(100);
    expect(first.behind).toEqual([s.id]);
    expect(watermark()).toBe(first.scanned);

    let slices = 1;
    let behind = first.behind;
    while (behind.length > 0) {
      behind = indexSlice(ctx, behind, 0).behind;
      slices++;
    }
    expect(slices).toBeGreaterThan(2);
    expect(watermark()).toBe(100);
    const indexed = ctx.db.prepare(`SELECT count(*) FROM search_rows`).pluck().get() as number;
    expect(indexed).toBe(100);
    // Nothing twice: another slice finds nothing to do.
    expect(indexSlice(ctx, "all").scanned).toBe(0);
    ctx.db.close();
  });

  it("search never misses a committed message, however far behind the slices are", () => {
    const store = SessionStore.open(":memory:", { indexer: { idleMs: null, maxBacklog: 8, sliceChars: 0, mergeSteps: 1 } });
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    for (let i = 0; i < 300; i++) store.appendEntry(s.id, user(`note ${i} uniq${i}`));
    expect(store.search("uniq299")).toHaveLength(1);
    expect(store.search("uniq0")).toHaveLength(1);
    expect(store.search("note").length).toBe(50);
    store.close();
  });
});

/** Makes the usage index (read by nothing at open) unreadable: the file opens, quick_check fails. */
function damageIndexPage(path: string): void {
  const db = new Database(path);
  db.pragma("wal_checkpoint(TRUNCATE)");
  const page = db.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'entries_assistant_by_time'`).pluck().get() as number;
  const size = db.pragma("page_size", { simple: true }) as number;
  db.close();
  const fd = openSync(path, "r+");
  const garbage = Buffer.alloc(64, 0xff);
  const before = Buffer.alloc(1);
  readSync(fd, before, 0, 1, (page - 1) * size);
  writeSync(fd, garbage, 0, garbage.length, (page - 1) * size);
  closeSync(fd);
}

function storeWithHistory(path: string): void {
  const store = SessionStore.open(path);
  const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
  for (let i = 0; i < 50; i++) store.appendEntry(s.id, user(`m${i}`));
  store.close();
}

describe("integrity check off the main thread", () => {
  it("opens a healthy store without the scan and reports it healthy from the worker", async () => {
    dir = tempDir();
    const path = dir.file("s.db");
    storeWithHistory(path);
    const store = SessionStore.open(path, { integrityCheck: "background" });
    expect(store.recentWorkspaces()).toHaveLength(1);
    await expect(store.integrity()).resolves.toEqual({ ok: true });
    store.close();
  });

  it("reports damage found after start, and the next start saves every row into a fresh file and moves the damaged one aside", async () => {
    dir = tempDir();
    const path = dir.file("s.db");
    storeWithHistory(path);
    damageIndexPage(path);
    // The scan at open (the store's default) still refuses it.
    expect(() => SessionStore.open(path)).toThrow(StoreError);

    const store = SessionStore.open(path, { integrityCheck: "background" });
    expect(store.recentWorkspaces()).toHaveLength(1);
    const report = await store.integrity();
    expect(report).toMatchObject({ ok: false, damaged: true });
    store.close();
    expect(existsSync(`${path}.needs-integrity-check`)).toBe(true);

    const next = SessionStore.openOrRecover(path, { integrityCheck: "background" });
    expect(next.recovered?.movedTo).toContain(".damaged-");
    // The damaged page was an index: every row is still there to copy.
    expect(next.recovered?.salvage).toMatchObject({ sessions: 1, entries: 50, missingEntries: 0 });
    expect(next.store.recentWorkspaces()).toHaveLength(1);
    next.store.close();
    expect(existsSync(`${path}.needs-integrity-check`)).toBe(false);
  });
});
