import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionEntry } from "../../shared/protocol";
import { SessionStore, StoreError } from "../../electron/core/store";
import { GPT, MISTRAL, SONNET, assistant, tempDir, toolCall, toolResult, usage, user, type TempDir } from "./helpers";

const WEIRD_IDS = [
  "functions.Bash:0",
  "call_x|fc_y",
  "x".repeat(450),
  "",
  "toolu_01A09q90qw90lq917835lq9",
  'id with spaces "quotes" \\ / ünï©ødé 🙂',
];

/** One of every message kind and every non-message entry, with the awkward corners filled in. */
function everyKind(): SessionEntry[] {
  return [
    {
      type: "message",
      message: {
        role: "user",
        content: [
          { type: "text", text: "Fix the bug in 📁 src/ — «ünïcödé», עברית, 中文, e\u0301, lone \ud800 surrogate" },
          {
            type: "image",
            data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
            mimeType: "image/png",
          },
        ],
        timestamp: 1_700_000_000_001,
      },
    },
    assistant(
      [
        { type: "thinking", thinking: "Let me look at the file first.", signature: "EqQBCkgIARABGAIiQL9x…sig==" },
        { type: "thinking", thinking: "", signature: "redacted-blob-base64==", redacted: true },
        { type: "text", text: "I'll read it." },
        ...WEIRD_IDS.map((id, i) => toolCall(id, i % 2 === 0 ? "read" : "bash", { path: `f${i}.ts`, nested: { a: [1, null, "x"] } })),
        {
          type: "toolCall",
          id: "call_bad_args",
          name: "edit",
          arguments: {},
          rawArguments: '{"path": "a.ts", "old": "\\uZZZZ',
          argumentsError: "invalid escape at position 27",
        },
      ],
      { model: SONNET, usage: usage(1200, 340, 0.0123, 800, 64), timestamp: 1_700_000_000_002 },
    ),
    ...WEIRD_IDS.map((id, i): SessionEntry => ({
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: id,
        toolName: i % 2 === 0 ? "read" : "bash",
        isError: i === 1,
        content: [
          { type: "text", text: `result ${i} ✓` },
          { type: "image", data: "R0lGODlhAQABAAAAACw=", mimeType: "image/gif" },
        ],
        details: { exitCode: i, durationMs: 12.5, diff: { hunks: [{ added: ["+a"], removed: [] }] }, ok: true, none: null, tag: "ünï" },
        timestamp: 1_700_000_000_003 + i,
      },
    })),
    toolResult("call_bad_args", "INVALID_ARGUMENTS: arguments were not valid JSON", "edit"),
    { type: "modelSwitch", from: null, to: SONNET, timestamp: 1_700_000_000_010 },
    { type: "modelSwitch", from: SONNET, to: GPT, timestamp: 1_700_000_000_011 },
    {
      type: "approval",
      toolCallId: "functions.Bash:0",
      toolName: "bash",
      decision: "denied",
      reason: "don't run rm -rf",
      decidedBy: "user",
      timestamp: 1_700_000_000_012,
    },
    {
      type: "approval",
      toolCallId: "",
      toolName: "write",
      decision: "approvedForSession",
      decidedBy: "policy",
      timestamp: 1_700_000_000_013,
    },
    assistant([{ type: "text", text: "partial answer" }], {
      model: GPT,
      stopReason: "error",
      usage: usage(10, 0, 0),
      timestamp: 1_700_000_000_014,
    }),
    {
      type: "message",
      message: {
        role: "assistant",
        content: [],
        stopReason: "aborted",
        model: MISTRAL,
        usage: usage(0, 0, 0),
        errorMessage: "Request was aborted",
        responseId: "resp_123",
        timestamp: 1_700_000_000_015,
      },
    },
    {
      type: "compaction",
      summary: "The user asked to fix a bug; we read f0.ts.",
      firstKeptSeq: 3,
      tokensBefore: 120_000,
      model: GPT,
      timestamp: 1_700_000_000_016,
    },
    { type: "rename", title: "Fix the bug 🐛", timestamp: 1_700_000_000_017 },
    { type: "fork", sourceSessionId: "5f0c…", sourceSeq: 4, timestamp: 1_700_000_000_018 },
  ];
}

let dir: TempDir | undefined;
afterEach(() => {
  dir?.remove();
  dir = undefined;
});

describe("entries round-trip", () => {
  it("returns every message kind and every non-message entry exactly as appended", () => {
    const store = SessionStore.open(":memory:");
    const ws = store.addWorkspace("/tmp/project");
    const s = store.createSession({ workspaceId: ws.id });
    const entries = everyKind();
    const seqs = entries.map((e) => store.appendEntry(s.id, e));
    expect(seqs).toEqual(entries.map((_, i) => i + 1));

    const loaded = store.loadEntries(s.id);
    expect(loaded).toStrictEqual(entries.map((entry, i) => ({ seq: i + 1, entry })));
    expect(store.loadEntriesChecked(s.id).problems).toEqual([]);
    store.close();
  });

  it("echoes weird tool-call ids verbatim in calls and results", () => {
    const store = SessionStore.open(":memory:");
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    for (const e of everyKind()) store.appendEntry(s.id, e);
    const ids = store
      .loadEntries(s.id)
      .flatMap(({ entry }) => (entry.type === "message" && entry.message.role === "toolResult" ? [entry.message.toolCallId] : []));
    expect(ids).toEqual([...WEIRD_IDS, "call_bad_args"]);
    store.close();
  });

  it("loads a seq range in order", () => {
    const store = SessionStore.open(":memory:");
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    for (let i = 0; i < 10; i++) store.appendEntry(s.id, user(`m${i}`));
    expect(store.loadEntries(s.id, { fromSeq: 4, toSeq: 6 }).map((e) => e.seq)).toEqual([4, 5, 6]);
    expect(store.loadEntries(s.id, { fromSeq: 9 }).map((e) => e.seq)).toEqual([9, 10]);
    store.close();
  });

  it("refuses an entry that breaks the protocol, writes nothing and keeps seqs contiguous", () => {
    const store = SessionStore.open(":memory:");
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    expect(store.appendEntry(s.id, user("one"))).toBe(1);
    const bad = { type: "message", message: { role: "user", content: "not an array", timestamp: 1 } };
    expect(() => store.appendEntry(s.id, bad as unknown as SessionEntry)).toThrow(expect.objectContaining({ code: "INVALID_ENTRY" }));
    const nan = assistant([], { usage: { ...usage(1, 1, 0), input: Number.NaN } });
    expect(() => store.appendEntry(s.id, nan)).toThrow(StoreError);
    expect(store.appendEntry(s.id, user("two"))).toBe(2);
    expect(store.getSession(s.id)?.entryCount).toBe(2);
    store.close();
  });

  it("refuses an append to an unknown session", () => {
    const store = SessionStore.open(":memory:");
    expect(() => store.appendEntry("nope", user("x"))).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    store.close();
  });
});

describe("queryable columns", () => {
  it("stores kind, timestamp, model, stop reason, usage and cost as real columns", () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path);
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.appendEntry(s.id, user("hi", 1_000));
    store.appendEntry(s.id, assistant([toolCall("c1")], { model: SONNET, usage: usage(100, 50, 0.25, 30, 5), timestamp: 2_000 }));
    store.appendEntry(s.id, toolResult("c1", "ok", "read", 3_000));
    store.appendEntry(s.id, { type: "modelSwitch", from: SONNET, to: GPT, timestamp: 4_000 });
    store.appendEntry(s.id, assistant([{ type: "text", text: "done" }], { model: GPT, usage: usage(200, 10, 0.5), timestamp: 5_000 }));
    store.close();

    const db = new Database(path, { readonly: true });
    const rows = db
      .prepare(
        `SELECT seq, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
           input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total
         FROM entries WHERE session_id = ? ORDER BY seq`,
      )
      .all(s.id);
    expect(rows).toEqual([
      {
        seq: 1,
        kind: "user",
        timestamp: 1000,
        provider: null,
        api: null,
        model_id: null,
        stop_reason: null,
        tool_call_id: null,
        input_tokens: null,
        output_tokens: null,
        cache_read_tokens: null,
        cache_write_tokens: null,
        total_tokens: null,
        cost_total: null,
      },
      {
        seq: 2,
        kind: "assistant",
        timestamp: 2000,
        provider: "anthropic",
        api: "anthropic-messages",
        model_id: "claude-sonnet-4-5",
        stop_reason: "toolUse",
        tool_call_id: null,
        input_tokens: 100,
        output_tokens: 50,
        cache_read_tokens: 30,
        cache_write_tokens: 5,
        total_tokens: 185,
        cost_total: 0.25,
      },
      {
        seq: 3,
        kind: "toolResult",
        timestamp: 3000,
        provider: null,
        api: null,
        model_id: null,
        stop_reason: null,
        tool_call_id: "c1",
        input_tokens: null,
        output_tokens: null,
        cache_read_tokens: null,
        cache_write_tokens: null,
        total_tokens: null,
        cost_total: null,
      },
      {
        seq: 4,
        kind: "modelSwitch",
        timestamp: 4000,
        provider: "openai",
        api: "openai-responses",
        model_id: "gpt-5",
        stop_reason: null,
        tool_call_id: null,
        input_tokens: null,
        output_tokens: null,
        cache_read_tokens: null,
        cache_write_tokens: null,
        total_tokens: null,
        cost_total: null,
      },
      {
        seq: 5,
        kind: "assistant",
        timestamp: 5000,
        provider: "openai",
        api: "openai-responses",
        model_id: "gpt-5",
        stop_reason: "stop",
        tool_call_id: null,
        input_tokens: 200,
        output_tokens: 10,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        total_tokens: 210,
        cost_total: 0.5,
      },
    ]);
    const byModel = db
      .prepare(
        `SELECT model_id, sum(cost_total) AS cost FROM entries WHERE kind = 'assistant' AND timestamp BETWEEN 1500 AND 6000 GROUP BY model_id ORDER BY model_id`,
      )
      .all();
    expect(byModel).toEqual([
      { model_id: "claude-sonnet-4-5", cost: 0.25 },
      { model_id: "gpt-5", cost: 0.5 },
    ]);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT model_id, sum(cost_total) FROM entries WHERE kind = 'assistant' AND timestamp BETWEEN 1500 AND 6000 GROUP BY model_id`,
      )
      .all() as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(" ")).toContain("entries_assistant_by_time");
    db.close();
  });

  it("keeps running totals of tokens and cost per session", () => {
    const store = SessionStore.open(":memory:");
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.appendEntry(s.id, assistant([{ type: "text", text: "a" }], { model: SONNET, usage: usage(100, 10, 0.25, 40, 4) }));
    store.appendEntry(s.id, assistant([{ type: "text", text: "b" }], { model: GPT, usage: usage(300, 30, 1.5) }));
    store.appendEntry(s.id, assistant([{ type: "text", text: "c" }], { model: SONNET, usage: usage(200, 20, 0.5) }));
    const summary = store.getSession(s.id);
    expect(summary).toMatchObject({ entryCount: 3, totalTokens: 704, totalCost: 2.25 });
    store.close();
  });
});
