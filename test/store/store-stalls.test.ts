/**
 * No main-process stall, continued: an index slice is bounded by the text it
 * adds, and FTS5 segment merges happen in slices instead of inside whichever
 * commit crosses FTS5's threshold.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";
import { createContext, openDatabase } from "../../electron/core/store/db";
import { appendEntry } from "../../electron/core/store/entries";
import { indexSlice, mergeSlice, SearchIndexer, useSlicedMerges } from "../../electron/core/store/search-index";
import { createSession } from "../../electron/core/store/sessions";
import { addWorkspace } from "../../electron/core/store/workspaces";
import { user } from "./helpers";

function sessionWith(n: number, wordsEach = 0) {
  const ctx = createContext(openDatabase(":memory:"), Date.now);
  const s = createSession(ctx, { workspaceId: addWorkspace(ctx, "/w").id });
  for (let i = 0; i < n; i++) {
    const extra = Array.from({ length: wordsEach }, (_, j) => `t${i}x${j}`).join(" ");
    appendEntry(ctx, s.id, user(`message ${i} word${i} ${extra}`));
  }
  return { ctx, id: s.id };
}

describe("index slices are bounded by text, not rows", () => {
  it("a slice with no room left still indexes one row: every slice makes progress", () => {
    const { ctx, id } = sessionWith(100);
    const r = indexSlice(ctx, [id], 0);
    expect(r.scanned).toBe(1);
    expect(r.behind).toEqual([id]);
    expect(indexSlice(ctx, [id]).scanned).toBe(99);
    ctx.db.close();
  });

  it("a row whose text would overflow the slice waits for the next one, which indexes it alone", () => {
    const ctx = createContext(openDatabase(":memory:"), Date.now);
    const s = createSession(ctx, { workspaceId: addWorkspace(ctx, "/w").id });
    for (let i = 0; i < 5; i++) appendEntry(ctx, s.id, user(`short ${i}`));
    // One tool output can hold as much text as a hundred messages.
    appendEntry(ctx, s.id, user(`huge ${"word ".repeat(40_000)}`));
    appendEntry(ctx, s.id, user("after"));
    const first = indexSlice(ctx, [s.id], 1000);
    expect(first).toMatchObject({ scanned: 5, indexed: 5, behind: [s.id] });
    expect(first.chars).toBeLessThan(100);
    const second = indexSlice(ctx, [s.id], 1000);
    expect(second.scanned).toBe(1);
    expect(second.chars).toBeGreaterThan(200_000);
    expect(indexSlice(ctx, [s.id], 1000)).toMatchObject({ scanned: 1, behind: [] });
    ctx.db.close();
  });
});

describe("FTS5 segment merges in slices", () => {
  it("a slice either indexes or merges, never both: merge steps come in turns with index slices", () => {
    const { ctx, id } = sessionWith(60, 50);
    useSlicedMerges(ctx);
    // Level-0 segments enough for FTS5 to have merges due.
    let behind: string[] = [id];
    while (behind.length > 0) behind = indexSlice(ctx, behind, 0).behind;
    for (let i = 0; i < 40; i++) appendEntry(ctx, id, user(`later ${i}`));
    const indexer = new SearchIndexer(ctx, { idleMs: null, maxBacklog: 512, sliceChars: 100_000, mergeSteps: 4 });
    indexer.noteAppend(id);
    const kinds: string[] = [];
    for (let done = false, i = 0; !done && i < 20; i++) {
      done = indexer.slice();
      const s = indexer.lastSlice!;
      expect(s.texts > 0 && s.mergeSteps > 0).toBe(false);
      kinds.push(s.texts > 0 ? "index" : "merge");
    }
    // The pending rows are indexed first; merges follow in their own slices.
    expect(kinds[0]).toBe("index");
    expect(kinds).toContain("merge");
    expect(ctx.db.prepare(`SELECT count(*) FROM entries_fts WHERE entries_fts MATCH 'later'`).pluck().get()).toBe(40);
    ctx.db.close();
  });

  it("the store turns FTS5's in-commit automerge off at open", () => {
    const store = SessionStore.open(":memory:");
    const db = (store as unknown as { ctx: { db: Database.Database } }).ctx.db;
    expect(db.prepare(`SELECT v FROM entries_fts_config WHERE k = 'automerge'`).pluck().get()).toBe(0);
    store.close();
  });

  it("segments written by many small commits are merged by slices until none are left, and search still finds every text", () => {
    // Distinct words in every text: segments of many pages, so merging takes many steps.
    const { ctx, id } = sessionWith(120, 200);
    useSlicedMerges(ctx);
    // One row per commit: 120 level-0 segments' worth of writes, none merged inside a commit.
    let behind: string[] = [id];
    while (behind.length > 0) behind = indexSlice(ctx, behind, 0).behind;
    expect(mergeSlice(ctx, 1)).toBe(true);

    const indexer = new SearchIndexer(ctx, { idleMs: null, maxBacklog: 512, sliceChars: 0, mergeSteps: 1 });
    let slices = 1;
    while (!indexer.slice()) slices++;
    expect(slices).toBeGreaterThan(1);
    // Done: a merge now finds nothing to do.
    expect(mergeSlice(ctx, 1)).toBe(false);
    expect(() => ctx.db.exec(`INSERT INTO entries_fts (entries_fts) VALUES ('integrity-check')`)).not.toThrow();
    const hits = (w: string) => ctx.db.prepare(`SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?`).pluck().get(w);
    expect(hits("message")).toBe(120);
    expect(hits("word77")).toBe(1);
    ctx.db.close();
  });
});
