/**
 * The review.* requests as the transports call them: params parsed with the
 * WorkbenchApi schema, the handler run, errors turned into typed API errors
 * and every result checked against its declared schema.
 */
import { afterEach, describe, expect, it } from "vitest";
import { requests, type ApiResponse, type RequestParams, type RequestResult, type SessionSummary } from "../../shared/api";
import { toApiError } from "../../electron/core/api/dispatch";
import { SessionStore } from "../../electron/core/store";
import { createReviewHandlers, type ReviewContext, type ReviewMethod } from "../../electron/core/review/handlers";
import { GPT41, GPT5, SONNET, T0, TOOL_SPECS, WORKSPACE, buildSession, resolveModel } from "./fixture";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function api(store: SessionStore, extra: Partial<ReviewContext> = {}) {
  const changed: SessionSummary[] = [];
  const handlers = createReviewHandlers({
    store,
    platform: "linux",
    toolSpecs: () => TOOL_SPECS,
    resolveModel,
    now: () => T0 + 100_000,
    onSessionChanged: (s) => changed.push(s),
    ...extra,
  });
  const call = <M extends ReviewMethod>(method: M, params: RequestParams<M>): ApiResponse<RequestResult<M>> => {
    const parsed = requests[method].params.safeParse(params);
    if (!parsed.success) return { ok: false, error: { code: "INVALID_REQUEST", message: parsed.error.issues[0]?.message ?? "invalid" } };
    try {
      const handler = handlers[method] as (p: unknown) => RequestResult<M>;
      const result = handler(parsed.data);
      return { ok: true, result: requests[method].result.parse(result) as RequestResult<M> };
    } catch (e) {
      return { ok: false, error: toApiError(e) };
    }
  };
  const ok = <M extends ReviewMethod>(method: M, params: RequestParams<M>): RequestResult<M> => {
    const r = call(method, params);
    if (!r.ok) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
    return r.result;
  };
  /** "What the model saw" reads the instruction files again, and imports read the file in slices: their handlers answer a promise. */
  const callAsync = async <M extends ReviewMethod>(method: M, params: RequestParams<M>): Promise<ApiResponse<RequestResult<M>>> => {
    const parsed = requests[method].params.safeParse(params);
    if (!parsed.success) return { ok: false, error: { code: "INVALID_REQUEST", message: parsed.error.issues[0]?.message ?? "invalid" } };
    try {
      const handler = handlers[method] as (p: unknown) => Promise<RequestResult<M>>;
      const result = await handler(parsed.data);
      return { ok: true, result: requests[method].result.parse(result) as RequestResult<M> };
    } catch (e) {
      return { ok: false, error: toApiError(e) };
    }
  };
  const okAsync = async <M extends ReviewMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> => {
    const r = await callAsync(method, params);
    if (!r.ok) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
    return r.result;
  };
  return { call, ok, callAsync, okAsync, changed };
}

describe("review requests", () => {
  it("review.timeline returns items and statistics that match their schema", () => {
    const f = buildSession();
    const { ok } = api(f.store);
    const t = ok("review.timeline", { sessionId: f.sessionId });
    expect(t.items).toHaveLength(28);
    expect(t.stats).toMatchObject({ turns: 3, toolCalls: { total: 6 } });
    expect(t.problems).toEqual([]);
  });

  it("review.modelView uses the session's stored workspace path for the system prompt", async () => {
    const f = buildSession();
    const { okAsync, callAsync } = api(f.store);
    const view = await okAsync("review.modelView", { sessionId: f.sessionId, seq: 12 });
    expect(JSON.stringify(view.body)).toContain(`Workspace: ${WORKSPACE}`);
    expect(Object.values(view.idMap)).toContain("call_abc|fc_1");
    expect(await callAsync("review.modelView", { sessionId: f.sessionId, seq: 1 })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST" },
    });
    expect(await callAsync("review.modelView", { sessionId: "nope", seq: 1 })).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
  });

  it("review.forkOrigin gives the source's title and the replay step at the fork point, null when the source is gone", () => {
    const f = buildSession();
    const { ok } = api(f.store);
    const items = ok("review.timeline", { sessionId: f.sessionId }).items;
    const title = f.store.getSession(f.sessionId)?.title;
    // The step is the last one at or before the fork point, as the timeline numbers it.
    const expected = items.filter((i) => i.seq <= 9).at(-1);
    expect(ok("review.forkOrigin", { sourceSessionId: f.sessionId, sourceSeq: 9 })).toEqual({ title, step: (expected?.index ?? -1) + 1 });
    expect(ok("review.forkOrigin", { sourceSessionId: "gone", sourceSeq: 9 })).toBeNull();
  });

  it("review.modelViewHead and review.modelViewText give the same body as review.modelView, by line window", async () => {
    const f = buildSession();
    const { okAsync, callAsync } = api(f.store);
    const full = await okAsync("review.modelView", { sessionId: f.sessionId, seq: 12 });
    const text = JSON.stringify(full.body, null, 2);
    const lines = text.split("\n");
    expect(lines.length).toBeGreaterThan(40);

    const head = await okAsync("review.modelViewHead", { sessionId: f.sessionId, seq: 12, lines: 10 });
    // Everything but the body object, which comes as its first lines and its size.
    expect(head).not.toHaveProperty("body");
    expect({ ...head, text: undefined }).toEqual({ ...full, body: undefined, text: undefined });
    expect(head.text).toEqual({ totalLines: lines.length, totalChars: text.length, from: 0, lines: lines.slice(0, 10) });

    // Windows read while scrolling (the last one runs past the end) put the whole text back together.
    const read: string[] = [];
    for (let from = 0; from < lines.length; from += 17) {
      const w = await okAsync("review.modelViewText", { sessionId: f.sessionId, seq: 12, from, count: 17 });
      expect(w.from).toBe(from);
      read.push(...w.lines);
    }
    expect(read.join("\n")).toBe(text);
    expect((await okAsync("review.modelViewText", { sessionId: f.sessionId, seq: 12, from: lines.length + 5, count: 3 })).lines).toEqual(
      [],
    );

    // A step the dialog did not open is rebuilt on demand; bad steps fail as review.modelView does.
    const other = await okAsync("review.modelViewText", { sessionId: f.sessionId, seq: 2, from: 0, count: 5 });
    expect(other.lines[0]).toBe("{");
    expect(await callAsync("review.modelViewText", { sessionId: f.sessionId, seq: 1, from: 0, count: 5 })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST" },
    });
    expect(await callAsync("review.modelViewHead", { sessionId: "nope", seq: 12, lines: 5 })).toMatchObject({
      ok: false,
      error: { code: "NOT_FOUND" },
    });
  });

  it("review.modelViewText reads the request the dialog opened on, not a later rebuild", async () => {
    const f = buildSession();
    let specs = TOOL_SPECS;
    const { okAsync } = api(f.store, { toolSpecs: () => specs });
    const head = await okAsync("review.modelViewHead", { sessionId: f.sessionId, seq: 12, lines: 1 });
    specs = TOOL_SPECS.slice(1); // the session's tools changed (an MCP server went away)
    const later = await okAsync("review.modelView", { sessionId: f.sessionId, seq: 12 });
    const read = await okAsync("review.modelViewText", { sessionId: f.sessionId, seq: 12, from: 0, count: head.text.totalLines });
    expect(read.totalChars).toBe(head.text.totalChars);
    expect(read.lines.join("\n")).not.toBe(JSON.stringify(later.body, null, 2));
  });

  it("review.fileStates follows the step", () => {
    const f = buildSession();
    const { ok } = api(f.store);
    expect(ok("review.fileStates", { sessionId: f.sessionId, seq: 7 }).files.map((x) => x.path)).toEqual(["src/app.ts"]);
    expect(ok("review.fileStates", { sessionId: f.sessionId, seq: 22 }).files.map((x) => x.path)).toEqual(["src/app.ts", "README.md"]);
  });

  it("adds, lists with filters and deletes notes; a note on another session cannot be deleted through this one", () => {
    const f = buildSession();
    const { ok, call } = api(f.store);
    const a = ok("review.notes.add", { sessionId: f.sessionId, seq: 11, author: "rita", verdict: "problem", text: "rate limit" });
    ok("review.notes.add", { sessionId: f.sessionId, seq: 16, author: "sam", verdict: "ok", text: "good denial" });
    ok("review.notes.add", { sessionId: f.sessionId, seq: 16, author: "rita", verdict: null, text: "question" });
    expect(ok("review.notes.list", { sessionId: f.sessionId }).map((n) => n.text)).toEqual(["rate limit", "good denial", "question"]);
    expect(ok("review.notes.list", { sessionId: f.sessionId, verdict: "problem" }).map((n) => n.text)).toEqual(["rate limit"]);
    expect(ok("review.notes.list", { sessionId: f.sessionId, verdict: "none" }).map((n) => n.text)).toEqual(["question"]);
    expect(ok("review.notes.list", { sessionId: f.sessionId, author: "rita", seq: 16 }).map((n) => n.text)).toEqual(["question"]);

    expect(call("review.notes.add", { sessionId: f.sessionId, seq: 99, author: "rita", verdict: null, text: "x" })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST" },
    });
    expect(call("review.notes.add", { sessionId: f.sessionId, seq: 1, author: "  ", verdict: null, text: "x" })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST" },
    });

    const other = f.store.forkSession(f.sessionId, 3);
    expect(call("review.notes.delete", { sessionId: other.id, noteId: a.id })).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect(ok("review.notes.delete", { sessionId: f.sessionId, noteId: a.id })).toEqual({ ok: true });
    expect(ok("review.notes.list", { sessionId: f.sessionId })).toHaveLength(2);
  });

  it("keeps notes, with author and time, across closing and reopening the database", () => {
    const dir = mkdtempSync(join(tmpdir(), "review-notes-"));
    temps.push(dir);
    const file = join(dir, "sessions.db");
    const f = buildSession(file);
    f.clock.set(T0 + 77_000);
    api(f.store).ok("review.notes.add", { sessionId: f.sessionId, seq: 7, author: "rita", verdict: "ok", text: "Edit is right." });
    f.store.close();

    const reopened = SessionStore.open(file);
    const notes = api(reopened).ok("review.notes.list", { sessionId: f.sessionId });
    expect(notes).toEqual([
      {
        id: notes[0].id,
        sessionId: f.sessionId,
        seq: 7,
        author: "rita",
        verdict: "ok",
        text: "Edit is right.",
        createdAt: T0 + 77_000,
        path: null,
        line: null,
      },
    ]);
    reopened.close();
  });

  it("review.export names the file and redacts the configured keys; review.import creates a new session", async () => {
    const f = buildSession();
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: "my gateway key is gw-1234567890abcdef" }], timestamp: T0 + 60_000 },
    });
    const { ok, call, callAsync, changed } = api(f.store, { knownSecrets: () => ["gw-1234567890abcdef"] });
    const file = ok("review.export", { sessionId: f.sessionId, format: "json" });
    expect(file.filename).toBe(`rename-greet-${f.sessionId.slice(0, 8)}.json`);
    expect(file.mimeType).toBe("application/json");
    expect(file.content).not.toContain("gw-1234567890abcdef");
    expect(ok("review.export", { sessionId: f.sessionId, format: "html" }).filename.endsWith(".html")).toBe(true);

    const response = await callAsync("review.import", { workspaceId: f.workspaceId, content: file.content });
    if (!response.ok) throw new Error(response.error.message);
    const imported = response.result;
    expect(imported.id).not.toBe(f.sessionId);
    expect(imported.entryCount).toBe(23);
    expect(changed.map((s) => s.id)).toEqual([imported.id]);
    // Replay labels the imported copy, not the original.
    expect(ok("review.timeline", { sessionId: imported.id }).imported).toBe(true);
    expect(ok("review.timeline", { sessionId: f.sessionId }).imported).toBe(false);
    expect(await callAsync("review.import", { workspaceId: f.workspaceId, content: "not json" })).toMatchObject({
      ok: false,
      error: { code: "IMPORT_INVALID" },
    });
    expect(call("review.export", { sessionId: "nope", format: "json" })).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
  });

  it("review.fork copies the entries up to the step, switches to the new model and links back", () => {
    const f = buildSession();
    const { ok, call, changed } = api(f.store);
    const fork = ok("review.fork", { sessionId: f.sessionId, atSeq: 8, model: SONNET });
    expect(fork).toMatchObject({ parentSessionId: f.sessionId, parentSeq: 8, model: SONNET, entryCount: 10 });
    const entries = f.store.loadEntries(fork.id);
    expect(entries.slice(0, 8)).toEqual(f.store.loadEntries(f.sessionId).slice(0, 8));
    expect(entries[8].entry).toMatchObject({ type: "fork", sourceSessionId: f.sessionId, sourceSeq: 8 });
    expect(entries[9].entry).toEqual({ type: "modelSwitch", from: GPT5, to: SONNET, timestamp: T0 + 100_000 });
    expect(changed).toEqual([fork]);

    // The fork's next request goes to the new model with the copied history.
    const timeline = ok("review.timeline", { sessionId: fork.id });
    expect(timeline.items.at(-1)).toMatchObject({ kind: "modelSwitch", model: SONNET });

    expect(
      call("review.fork", { sessionId: f.sessionId, atSeq: 8, model: { provider: "nobody", api: "openai-completions", id: "x" } }),
    ).toMatchObject({
      ok: false,
      error: { code: "NOT_FOUND", message: "unknown model nobody/x" },
    });
    expect(call("review.fork", { sessionId: f.sessionId, atSeq: 99, model: GPT41 })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST" },
    });
  });

  it("review.fork at a step with tool calls keeps their stored approvals and results before switching", () => {
    const f = buildSession();
    const { ok } = api(f.store);
    // #12 is the step with the write and bash calls; their approvals and results follow it (#13-#16).
    const fork = ok("review.fork", { sessionId: f.sessionId, atSeq: 12, model: GPT41 });
    const tail = f.store
      .loadEntries(fork.id)
      .slice(12)
      .map((e) =>
        e.entry.type === "message"
          ? `${e.entry.message.role}:${e.entry.message.role === "toolResult" ? e.entry.message.toolCallId : ""}`
          : e.entry.type,
      );
    expect(tail).toEqual(["approval", "toolResult:toolu_01W", "approval", "toolResult:toolu_01X", "fork", "modelSwitch"]);
    const results = f.store
      .loadEntries(fork.id)
      .flatMap((e) => (e.entry.type === "message" && e.entry.message.role === "toolResult" ? [e.entry.message] : []));
    expect(results.filter((r) => JSON.stringify(r.details ?? {}).includes("synthesized"))).toEqual([]);
  });

  it("does not add a switch when forking onto the model already in use", () => {
    const f = buildSession();
    const fork = api(f.store).ok("review.fork", { sessionId: f.sessionId, atSeq: 22, model: SONNET });
    expect(f.store.loadEntries(fork.id).at(-1)?.entry.type).toBe("fork");
  });
});
