import Database from "better-sqlite3";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore, toFtsQuery } from "../../electron/core/store";
import { assistant, manualClock, tempDir, toolCall, toolResult, user, type TempDir } from "./helpers";

let dir: TempDir | undefined;
afterEach(() => {
  dir?.remove();
  dir = undefined;
});

function seeded() {
  const clock = manualClock();
  const store = SessionStore.open(":memory:", clock);
  const ws = store.addWorkspace("/w");
  const other = store.addWorkspace("/other");
  const s = store.createSession({ workspaceId: ws.id, title: "Parser work" });
  store.appendEntry(s.id, user("Why does the tokenizer crash on foo-bar inputs?", 1000));
  store.appendEntry(
    s.id,
    assistant(
      [
        { type: "thinking", thinking: "secretthought about the tokenizer", signature: "sigblobxyz" },
        { type: "text", text: "The tokenizer splits on hyphens; let me grep." },
        toolCall("c1", "grep", { pattern: "argumentonlyword" }),
      ],
      { timestamp: 2000 },
    ),
  );
  store.appendEntry(s.id, toolResult("c1", "src/tokenizer.ts:42: throw new Error('café unexpected')", "grep", 3000));
  const o = store.createSession({ workspaceId: other.id, title: "Other" });
  store.appendEntry(o.id, user("tokenizer in another workspace", 4000));
  return { store, ws, other, s, o };
}

describe("full-text search", () => {
  it("finds user, assistant and tool-result text, newest first, with marked snippets", () => {
    const { store, s, o } = seeded();
    const hits = store.search("tokenizer");
    expect(hits.map((h) => [h.sessionId, h.seq])).toEqual([
      [o.id, 1],
      [s.id, 3],
      [s.id, 2],
      [s.id, 1],
    ]);
    expect(hits[3]).toEqual({
      sessionId: s.id,
      sessionTitle: "Parser work",
      workspaceId: s.workspaceId,
      seq: 1,
      snippet: "Why does the \u0002tokenizer\u0003 crash on foo-bar inputs?",
      timestamp: 1000,
    });
    store.close();
  });

  it("does not index thinking, signatures or tool arguments", () => {
    const { store } = seeded();
    expect(store.search("secretthought")).toEqual([]);
    expect(store.search("sigblobxyz")).toEqual([]);
    expect(store.search("argumentonlyword")).toEqual([]);
    store.close();
  });

  it("filters by workspace and honours the limit", () => {
    const { store, ws, s } = seeded();
    expect(store.search("tokenizer", { workspaceId: ws.id }).map((h) => h.sessionId)).toEqual([s.id, s.id, s.id]);
    expect(store.search("tokenizer", { limit: 2 })).toHaveLength(2);
    store.close();
  });

  it("treats punctuation as text: hyphenated words, prefixes and accents match", () => {
    const { store } = seeded();
    expect(store.search("foo-bar").map((h) => h.seq)).toEqual([1]);
    expect(store.search("tokeni*")).toHaveLength(4);
    expect(store.search("cafe")).toHaveLength(1);
    expect(store.search("tokenizer.ts:42")).toHaveLength(1);
    expect(store.search("hyphens grep")).toHaveLength(1);
    expect(store.search("hyphens zzznotthere")).toEqual([]);
    store.close();
  });

  it("never throws on hostile query strings", () => {
    const { store } = seeded();
    const hostile = [
      '"',
      '"unbalanced',
      "-tokenizer",
      "tokenizer -crash",
      "*",
      "a:b",
      "text:tokenizer",
      "(",
      ")",
      "((tokenizer",
      "AND",
      "OR NOT",
      "NEAR(a b",
      "^tokenizer",
      "{text}: x",
      "'",
      "\u0000",
      "🯰\u0000",
      "",
      "   ",
      "🙂",
      'tokenizer"OR"x',
      "\\",
      "NOT tokenizer",
      "+",
      "x".repeat(500),
    ];
    for (const q of hostile) expect(() => store.search(q), q).not.toThrow();
    expect(store.search("-tokenizer")).toHaveLength(4);
    expect(store.search("NOT tokenizer")).toEqual([]); // NOT is a plain word here, and no text holds it
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (q) => {
        expect(Array.isArray(store.search(q))).toBe(true);
      }),
      { numRuns: 1000 },
    );
    store.close();
  });

  it("finds messages appended just before the search, without waiting for the background batch", () => {
    const store = SessionStore.open(":memory:", { indexer: { idleMs: null, maxBacklog: 1_000_000 } });
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.appendEntry(s.id, user("first platypus"));
    expect(store.search("platypus")).toHaveLength(1);
    store.appendEntry(s.id, user("second platypus"));
    expect(store.search("platypus").map((h) => h.seq)).toEqual([2, 1]);
    store.close();
  });

  it("indexes messages a previous process committed but never indexed", () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path);
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.appendEntry(s.id, user("okapi sighting"));
    store.appendEntry(s.id, toolResult("c", "okapi confirmed"));
    store.close();
    // What a process killed before its index batch leaves behind: rows, no index, watermark at 0.
    const raw = new Database(path);
    raw.exec(`DELETE FROM entries_fts; DELETE FROM search_rows; UPDATE sessions SET fts_indexed_seq = 0;`);
    raw.close();

    const again = SessionStore.open(path);
    expect(again.search("okapi").map((h) => h.seq)).toEqual([2, 1]);
    again.close();
  });

  it("quotes every term so FTS operators stay plain text", () => {
    expect(toFtsQuery('say "hi" -x a:b')).toBe('"say" """hi""" "-x" "a:b"');
    expect(toFtsQuery("pre*")).toBe('"pre"*');
    expect(toFtsQuery("- * ( )")).toBeNull();
  });
});
