/**
 * Hostile import content: a valid export with one value out of range (a time
 * of -1e20 white-screened the app at every start, since it reopens the last
 * session) must be refused with a typed error naming the entry and the field,
 * and leave the store as it was. Exports must never fail on what a database
 * already holds.
 */
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiResponse } from "../../shared/api";
import type { SessionExport } from "../../shared/review";
import { dispatch } from "../../electron/core/api/dispatch";
import { createReviewHandlers } from "../../electron/core/review/handlers";
import { TOOL_SPECS, T0, buildSession, resolveModel } from "./fixture";
import { tempDir, type TempDir } from "../store/helpers";

const NOW = T0 + 100_000;
const DAY = 24 * 60 * 60 * 1000;

let dir: TempDir | undefined;
afterEach(() => {
  dir?.remove();
  dir = undefined;
});

function setup() {
  dir = tempDir("import-validation-");
  const path = dir.file("wb.db");
  const f = buildSession(path);
  f.store.addNote({ sessionId: f.sessionId, seq: 11, author: "rita", verdict: "problem", text: "Rate limited." });
  const handlers = createReviewHandlers({ store: f.store, platform: "linux", toolSpecs: () => TOOL_SPECS, resolveModel, now: () => NOW });
  const call = (method: string, params: unknown): Promise<ApiResponse<unknown>> => dispatch(handlers, method, params);
  const exported = async (sessionId = f.sessionId): Promise<SessionExport> => {
    const r = await call("review.export", { sessionId, format: "json" });
    if (!r.ok) throw new Error(r.error.message);
    return JSON.parse((r.result as { content: string }).content) as SessionExport;
  };
  /** Every row of every table: nothing may change on a refused import. */
  const snapshot = () => {
    // The background indexer may catch up on the fixture's rows at any moment: not the import's doing.
    f.store.search("catch up");
    const db = new Database(path, { readonly: true });
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'entries_fts%'`)
      .pluck()
      .all() as string[];
    const rows = Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}"`).all()]));
    db.close();
    return rows;
  };
  return { ...f, call, exported, snapshot };
}

type Mutation = [what: string, mutate: (e: SessionExport) => void, message: RegExp];

/** Entry 17 is an assistant message, 12 has two tool calls, 14 a tool result, 9 a model switch, 6 an approval. */
const message = (e: SessionExport, seq: number) => {
  const entry = e.entries[seq - 1].entry;
  if (entry.type !== "message") throw new Error(`entry ${seq} is not a message`);
  return entry.message as unknown as Record<string, unknown> & { usage: { cost: Record<string, number> } & Record<string, number> };
};

const HOSTILE: Mutation[] = [
  [
    "a time of -1e20",
    (e) => (message(e, 17).timestamp = -1e20),
    /^entry 17: message\.timestamp -1e\+20 is out of range \(2000-01-01 … 2025-03-02\)$/,
  ],
  [
    "a time two days ahead of the clock",
    (e) => (message(e, 17).timestamp = NOW + 2 * DAY),
    /^entry 17: message\.timestamp \d+ is out of range/,
  ],
  ["a time before 2000", (e) => ((e.entries[8].entry as { timestamp: number }).timestamp = 0), /^entry 9: timestamp 0 is out of range/],
  ["a negative cost", (e) => (message(e, 17).usage.cost.total = -5), /^entry 17: message\.usage\.cost\.total -5 is not a cost/],
  ["a cost of 1e300", (e) => (message(e, 17).usage.cost.input = 1e300), /^entry 17: message\.usage\.cost\.input 1e\+300 is not a cost/],
  [
    "a token count past 1e12",
    (e) => (message(e, 17).usage.output = 5e12),
    /^entry 17: message\.usage\.output 5000000000000 is not a token count/,
  ],
  [
    "a tool call id with a line break",
    (e) => ((message(e, 12).content as Array<Record<string, unknown>>)[1].id = "toolu_01W\nrm -rf /"),
    /^entry 12: message\.content\.1\.id contains control characters$/,
  ],
  [
    "a 300-character tool name",
    (e) => (message(e, 14).toolName = "x".repeat(300)),
    /^entry 14: message\.toolName is longer than 256 characters$/,
  ],
  [
    "a model id of 10,000 characters",
    (e) => ((e.entries[8].entry as { to: { id: string } }).to.id = "m".repeat(10_000)),
    /^entry 9: to\.id is longer/,
  ],
  [
    "an approval decided by a 1,000-character name",
    (e) => ((e.entries[5].entry as { decidedBy: string }).decidedBy = "u".repeat(1000)),
    /^entry 6: decidedBy/,
  ],
  ["a title of 5,000 characters", (e) => (e.session.title = "t".repeat(5000)), /^session: title is longer than 1000 characters$/],
  ["a note written in 1970", (e) => (e.notes[0].createdAt = 1), /^note 1: createdAt 1 is out of range/],
  ["a note author of 10,000 characters", (e) => (e.notes[0].author = "a".repeat(10_000)), /^note 1: author is longer than 200 characters$/],
  ["a negative tool duration", (e) => (e.toolCalls[0].durationMs = -1), /^audit row 1: durationMs -1 is not a duration/],
  ["output bytes of 1e20", (e) => (e.toolCalls[0].outputBytes = 1e20), /^audit row 1: outputBytes 1e\+20 is not a byte count/],
  ["an audit time of -1e20", (e) => (e.toolCalls[2].updatedAt = -1e20), /^audit row 3: updatedAt -1e\+20 is out of range/],
  [
    "an image whose media type carries HTML",
    (e) => {
      const m = message(e, 1);
      (m.content as unknown[]).push({ type: "image", mimeType: 'image/png"><script>', data: "iVBORw0KGgo=" });
    },
    /^entry 1: message\.content\.1\.mimeType is not a media type$/,
  ],
  [
    "details nested 200 levels deep",
    (e) => {
      let deep: unknown = "bottom";
      for (let i = 0; i < 200; i++) deep = { d: deep };
      message(e, 14).details = deep;
    },
    /^the file is not a valid export at character \d+: entries 14 is nested more than 128 levels deep$/,
  ],
  [
    "a compaction kept from seq -1",
    (e) =>
      (e.entries[8].entry = {
        type: "compaction",
        summary: "s",
        firstKeptSeq: -1,
        tokensBefore: 10,
        model: (e.entries[8].entry as { to: SessionExport["session"]["model"] }).to!,
        timestamp: T0,
      }),
    /^entry 9: firstKeptSeq -1 is out of range/,
  ],
];

describe("import refuses hostile content", () => {
  it.each(HOSTILE)("refuses %s, naming the entry and the field, and stores nothing", async (_what, mutate, expected) => {
    const f = setup();
    const envelope = await f.exported();
    mutate(envelope);
    const before = f.snapshot();
    const r = await f.call("review.import", { workspaceId: f.workspaceId, content: JSON.stringify(envelope, null, 2) });
    expect(r).toMatchObject({ ok: false, error: { code: "IMPORT_INVALID" } });
    if (!r.ok) expect(r.error.message).toMatch(expected);
    expect(f.snapshot()).toEqual(before);
    f.store.close();
  });

  it("refuses a number JSON can only read as infinite (1e400)", async () => {
    const f = setup();
    const text = JSON.stringify(await f.exported(), null, 2).replace(`"timestamp": ${T0 + 14_000}`, `"timestamp": 1e400`);
    expect(text).toContain("1e400");
    const r = await f.call("review.import", { workspaceId: f.workspaceId, content: text });
    expect(r).toMatchObject({ ok: false, error: { code: "IMPORT_INVALID" } });
    if (!r.ok) expect(r.error.message).toMatch(/^entry 17: message\.timestamp: /);
    f.store.close();
  });

  it("accepts times up to a day ahead of the importing clock (clocks differ), and imports them as they are", async () => {
    const f = setup();
    const envelope = await f.exported();
    message(envelope, 17).timestamp = NOW + DAY - 1;
    const r = await f.call("review.import", { workspaceId: f.workspaceId, content: JSON.stringify(envelope) });
    if (!r.ok) throw new Error(r.error.message);
    const { id } = r.result as { id: string };
    const stored = f.store.loadEntries(id)[16].entry;
    expect(stored.type === "message" && stored.message.timestamp).toBe(NOW + DAY - 1);
    f.store.close();
  });
});

describe("exports never fail on what a database already holds", () => {
  it("exports a session whose stored entries hold impossible times and costs in every format, printing them as they are", async () => {
    const f = setup();
    // As an import before this check could store them.
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: "from the past" }], timestamp: -1e20 },
    });
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "expensive" }],
        stopReason: "stop",
        model: { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" },
        usage: {
          input: 1,
          output: 1,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 2,
          cost: { input: -1, output: 1e300, cacheRead: 0, cacheWrite: 0, total: 1e300 },
        },
        timestamp: 8.64e15 + 1,
      },
    });
    f.store.appendEntry(f.sessionId, { type: "rename", title: "Renamed", timestamp: -1e20 });
    f.store.addNote({ sessionId: f.sessionId, seq: 24, author: "rita", verdict: null, text: "odd" });
    // A tool server's result nested 4,000 levels deep: the store took it; the export must not overflow the stack on it.
    let deep: unknown = "bottom";
    for (let i = 0; i < 2000; i++) deep = { d: [deep] };
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: "mcp_1",
        toolName: "mcp__x__y",
        isError: false,
        content: [{ type: "text", text: "ok" }],
        details: deep,
        timestamp: T0 + 50_000,
      },
    });
    for (const format of ["json", "markdown", "html"]) {
      const r = await f.call("review.export", { sessionId: f.sessionId, format });
      expect(r, format).toMatchObject({ ok: true });
      if (!r.ok) continue;
      const content = (r.result as { content: string }).content;
      if (format === "json") expect(content).toContain('"[nested too deeply to export]"');
      if (format === "markdown") {
        expect(content).toContain("## Step 29 · User · invalid time (-100000000000000000000)");
        expect(content).toContain("Renamed · invalid time (-100000000000000000000)");
        expect(content).toContain("invalid time (8640000000000001)");
      }
    }
    const timeline = await f.call("review.timeline", { sessionId: f.sessionId });
    expect(timeline).toMatchObject({ ok: true });
    f.store.close();
  });
});
