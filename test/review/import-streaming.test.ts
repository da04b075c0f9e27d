/**
 * Imports of any size: read in slices that yield to the event loop (the
 * core answers other requests meanwhile), sent in chunks cut anywhere,
 * refused past the documented limits before anything is visible, and
 * leaving nothing behind when cancelled, cut off or sent out of order.
 */
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiResponse, SessionSummary } from "../../shared/api";
import { IMPORT_LIMITS, type ImportLimits, type SessionExport } from "../../shared/review";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import type { Workbench } from "../../electron/core/api/workbench";
import { dispatch } from "../../electron/core/api/dispatch";
import { createReviewHandlers, type ReviewContext } from "../../electron/core/review/handlers";
import { serializeEnvelope } from "../../electron/core/review/export-json";
import { SessionStore } from "../../electron/core/store";
import { tempDir, type TempDir } from "../store/helpers";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";
import { bigExport } from "./import-fixtures";
import { TOOL_SPECS, T0, buildSession, resolveModel } from "./fixture";

let dir: TempDir | undefined;
let workbench: Workbench | undefined;
afterEach(async () => {
  await workbench?.close();
  workbench = undefined;
  dir?.remove();
  dir = undefined;
});

function reviewApi(store: SessionStore, extra: Partial<ReviewContext> = {}) {
  const handlers = createReviewHandlers({
    store,
    platform: "linux",
    toolSpecs: () => TOOL_SPECS,
    resolveModel,
    now: () => T0 + 100_000,
    ...extra,
  });
  const call = (method: string, params: unknown): Promise<ApiResponse<unknown>> => dispatch(handlers, method, params);
  const ok = async <T>(method: string, params: unknown): Promise<T> => {
    const r = await call(method, params);
    if (!r.ok) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
    return r.result as T;
  };
  /** Sends `text` cut at `cuts` (positions), as the renderer sends a file. */
  const chunked = async (workspaceId: string, text: string, cuts: number[]): Promise<ApiResponse<unknown>> => {
    const begun = await call("review.import.begin", { workspaceId, bytes: Buffer.byteLength(text) });
    if (!begun.ok) return begun;
    const { importId } = begun.result as { importId: string };
    const bounds = [0, ...cuts.filter((c) => c > 0 && c < text.length).sort((a, b) => a - b), text.length];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const r = await call("review.import.chunk", { importId, index: i, text: text.slice(bounds[i], bounds[i + 1]) });
      if (!r.ok) return r;
    }
    return call("review.import.finish", { importId });
  };
  return { call, ok, chunked };
}

/** Store-assigned ids replaced, as the export round-trip test does. */
function normalise(json: string, sessionId: string): string {
  return json
    .split(sessionId)
    .join("<session>")
    .replace(/"id": \d+,/g, '"id": 0,');
}

function fileStore() {
  dir = tempDir("import-streaming-");
  const path = dir.file("wb.db");
  return { path, ...buildSession(path) };
}

/**
 * Every row of every table but the search index. The store's index is brought
 * up to date first: the background indexer may catch up on the fixture's own
 * rows at any moment, which is not the import's doing.
 */
function snapshot(path: string, store: SessionStore) {
  store.search("catch up");
  const db = new Database(path, { readonly: true });
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'entries_fts%'`)
    .pluck()
    .all() as string[];
  const rows = Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}"`).all()]));
  db.close();
  return rows;
}

describe("import in slices", () => {
  it(
    "answers a session list while a 100,000-entry import is being read, and then holds every entry",
    async () => {
      workbench = await createWorkbench({ dbPath: ":memory:", host: { mode: "web" }, version: "test", env: {} });
      const wb = workbench;
      const folder = tempDir("import-ws-");
      dir = folder;
      const ws = await wb.handle("workspace.open", { path: folder.path });
      if (!ws.ok) throw new Error(ws.error.message);
      const workspaceId = (ws.result as { id: string }).id;
      const content = serializeEnvelope(bigExport(100_000));

      let importSettled = false;
      const importing = wb.handle("review.import", { workspaceId, content }).finally(() => (importSettled = true));
      // Asked after the import started: answered before it ends, and without the session being imported.
      const listed = await wb.handle("session.list", { workspaceId });
      expect(importSettled).toBe(false);
      expect(listed).toMatchObject({ ok: true, result: { sessions: [] } });
      const answeredDuring: ApiResponse<unknown>[] = [];
      while (!importSettled) {
        // Each request in its own event-loop turn, as requests arrive from a transport.
        const r = await new Promise<ApiResponse<unknown>>((resolve) =>
          setImmediate(() => resolve(wb.handle("session.list", { workspaceId }))),
        );
        if (!importSettled) answeredDuring.push(r);
      }
      expect(answeredDuring.length).toBeGreaterThan(0);
      for (const r of answeredDuring) expect(r).toMatchObject({ ok: true, result: { sessions: [] } });

      const imported = await importing;
      if (!imported.ok) throw new Error(imported.error.message);
      expect(imported.result).toMatchObject({ title: "Big session of 100000", entryCount: 100_000 });
      const after = await wb.handle("session.list", { workspaceId });
      expect(after.ok && (after.result as { sessions: SessionSummary[] }).sessions.map((s) => s.entryCount)).toEqual([100_000]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it("imports the same session whatever the chunks: cut inside strings, escapes, surrogate pairs and numbers", async () => {
    const f = fileStore();
    f.clock.set(T0 + 31_000);
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: {
        role: "user",
        content: [{ type: "text", text: 'é "quoted" \\ back\\slash 😀 tab\t nul\u0000 emoji 🧪 end' }],
        timestamp: T0 + 31_000,
      },
    });
    f.store.addNote({ sessionId: f.sessionId, seq: 11, author: "rita", verdict: "problem", text: "Rate limited 😀." });
    const api = reviewApi(f.store);
    const exported = (id: string) => api.ok<{ content: string }>("review.export", { sessionId: id, format: "json" }).then((r) => r.content);
    const text = await exported(f.sessionId);
    // Every position of the characters that are hard to cut at, then pseudo-random ones.
    const hard = [...text.matchAll(/\\.|[\uD800-\uDBFF]|[0-9]{3}|"/g)].flatMap((m) => [m.index, m.index + 1]).filter((_, i) => i % 7 === 0);
    let seed = 7;
    const random = Array.from({ length: 60 }, () => (seed = (seed * 48271) % 2147483647) % text.length);
    for (const cuts of [[], hard, random, Array.from({ length: text.length / 97 }, (_, i) => i * 97)]) {
      const r = await api.chunked(f.workspaceId, text, cuts);
      if (!r.ok) throw new Error(r.error.message);
      const id = (r.result as SessionSummary).id;
      expect(normalise(await exported(id), id)).toBe(normalise(text, f.sessionId));
    }
    f.store.close();
  });

  it("takes a file whose fields come in another order (keys sorted by a tool)", async () => {
    const f = fileStore();
    const api = reviewApi(f.store);
    const envelope = JSON.parse(
      (await api.ok<{ content: string }>("review.export", { sessionId: f.sessionId, format: "json" })).content,
    ) as Record<string, unknown>;
    const sorted = Object.fromEntries(
      Object.keys(envelope)
        .sort()
        .map((k) => [k, envelope[k]]),
    );
    const r = await api.call("review.import", { workspaceId: f.workspaceId, content: JSON.stringify(sorted) });
    expect(r).toMatchObject({ ok: true, result: { title: "Rename greet", entryCount: 22 } });
    f.store.close();
  });
});

describe("import limits and the chunk protocol", () => {
  it("refuses a file past the byte limit at begin, before reading any of it", async () => {
    const f = fileStore();
    const before = snapshot(f.path, f.store);
    const r = await reviewApi(f.store).call("review.import.begin", { workspaceId: f.workspaceId, bytes: IMPORT_LIMITS.bytes + 1 });
    expect(r).toMatchObject({
      ok: false,
      error: { code: "IMPORT_TOO_LARGE", message: "the file is larger than 256 MB (the most an import takes)" },
    });
    expect(snapshot(f.path, f.store)).toEqual(before);
    f.store.close();
  });

  it("refuses more bytes than the limit, more entries, notes or audit rows than the limits, and stores nothing", async () => {
    const f = fileStore();
    const content = serializeEnvelope(bigExport(300));
    const before = snapshot(f.path, f.store);
    const cases: Array<[Partial<ImportLimits>, RegExp]> = [
      [{ entries: 250 }, /^the export has more than 250 entries/],
      [{ notes: 2 }, /^the export has more than 2 notes/],
      [{ toolCalls: 1 }, /^the export has more than 1 toolCalls/],
      [{ bytes: 20_000 }, /^the file is larger than 20 KB/],
    ];
    for (const [limits, message] of cases) {
      const api = reviewApi(f.store, { importLimits: { ...limits, chunkChars: 4096 } });
      const oneShot = await api.call("review.import", { workspaceId: f.workspaceId, content });
      expect(oneShot).toMatchObject({ ok: false, error: { code: "IMPORT_TOO_LARGE" } });
      if (!oneShot.ok) expect(oneShot.error.message).toMatch(message);
      // Chunked, announcing less than it sends.
      const begun = await api.ok<{ importId: string }>("review.import.begin", { workspaceId: f.workspaceId, bytes: 10 });
      let failed: ApiResponse<unknown> | null = null;
      for (let i = 0; failed === null && i * 4096 < content.length; i++) {
        const r = await api.call("review.import.chunk", {
          importId: begun.importId,
          index: i,
          text: content.slice(i * 4096, (i + 1) * 4096),
        });
        if (!r.ok) failed = r;
      }
      expect(failed).toMatchObject({ ok: false, error: { code: "IMPORT_TOO_LARGE" } });
      expect(await api.call("review.import.finish", { importId: begun.importId })).toMatchObject({
        ok: false,
        error: { code: "NOT_FOUND" },
      });
      await f.store.imports.idle();
      expect(snapshot(f.path, f.store)).toEqual(before);
    }
    f.store.close();
  });

  it("leaves nothing behind when an import is cancelled, cut off, or sent out of order", async () => {
    const f = fileStore();
    const api = reviewApi(f.store, { importLimits: { chunkChars: 4096 } });
    const content = serializeEnvelope(bigExport(300));
    const before = snapshot(f.path, f.store);
    const start = async () =>
      (await api.ok<{ importId: string }>("review.import.begin", { workspaceId: f.workspaceId, bytes: content.length })).importId;

    const cancelled = await start();
    await api.ok("review.import.chunk", { importId: cancelled, index: 0, text: content.slice(0, 30_000) });
    await api.ok("review.import.cancel", { importId: cancelled });
    expect(await api.call("review.import.chunk", { importId: cancelled, index: 1, text: "x" })).toMatchObject({
      ok: false,
      error: { code: "NOT_FOUND" },
    });

    const cutOff = await start();
    await api.ok("review.import.chunk", { importId: cutOff, index: 0, text: content.slice(0, 30_000) });
    expect(await api.call("review.import.finish", { importId: cutOff })).toMatchObject({
      ok: false,
      error: { code: "IMPORT_INVALID", message: "the file ends before the export does (it is cut off or not JSON)" },
    });

    const shuffled = await start();
    await api.ok("review.import.chunk", { importId: shuffled, index: 0, text: content.slice(0, 30_000) });
    expect(await api.call("review.import.chunk", { importId: shuffled, index: 2, text: content.slice(30_000, 40_000) })).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST", message: "chunk 2 arrived where chunk 1 was expected; the import was cancelled" },
    });
    await f.store.imports.idle();
    expect(snapshot(f.path, f.store)).toEqual(before);
    f.store.close();
  });

  it("reads the chunks of one import in order even when they are sent without waiting, beside another import", async () => {
    const f = fileStore();
    const api = reviewApi(f.store);
    const a = serializeEnvelope(bigExport(400, { title: "A" }));
    const b = serializeEnvelope(bigExport(200, { title: "B" }));
    const send = async (text: string) => {
      const { importId } = await api.ok<{ importId: string }>("review.import.begin", { workspaceId: f.workspaceId, bytes: text.length });
      const parts = Array.from({ length: Math.ceil(text.length / 5000) }, (_, i) => text.slice(i * 5000, (i + 1) * 5000));
      const sent = parts.map((part, index) => api.ok("review.import.chunk", { importId, index, text: part }));
      await Promise.all(sent);
      return api.ok<SessionSummary>("review.import.finish", { importId });
    };
    const [ia, ib] = await Promise.all([send(a), send(b)]);
    expect([ia.title, ia.entryCount, ib.title, ib.entryCount]).toEqual(["A", 400, "B", 200]);
    f.store.close();
  });

  it("names a file that is not an export, or is empty", async () => {
    const f = fileStore();
    const api = reviewApi(f.store);
    const envelope: Partial<SessionExport> = { format: "agent-workbench.session" };
    for (const [content, message] of [
      ['{"name": "my-package", "version": "1.0.0"}', 'not an Agent Workbench session export (it has a field "name")'],
      ["[1, 2]", "the file is not a valid export at character 1: the file is a JSON array, not an export"],
      [JSON.stringify(envelope), 'the export has no "version" field'],
      ["{} trailing", "the file is not a valid export at character 4: unexpected text after the export"],
    ]) {
      expect(await api.call("review.import", { workspaceId: f.workspaceId, content })).toMatchObject({
        ok: false,
        error: { code: "IMPORT_INVALID", message },
      });
    }
    expect(await api.call("review.import.begin", { workspaceId: f.workspaceId, bytes: 0 })).toMatchObject({
      ok: false,
      error: { code: "IMPORT_INVALID", message: "the file is empty" },
    });
    f.store.close();
  });
});

describe("an import the app did not finish", () => {
  it("is named in a notice at the next start, and never listed", async () => {
    dir = tempDir("import-notice-");
    const dbPath = dir.file("wb.db");
    const store = SessionStore.open(dbPath);
    const workspaceId = store.addWorkspace(dir.path).id;
    // As a process killed mid-import leaves it.
    const id = store.imports.create({ workspaceId, title: "Deploy review", model: null });
    store.imports.stage(id, { entries: bigExport(10).entries.map((e) => e.entry) });
    store.close();

    workbench = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
    const info = await workbench.handle("app.info", {});
    expect(info.ok && (info.result as { notices: string[] }).notices).toContain(
      "The import of “Deploy review” was interrupted when the app stopped; nothing of it was kept. Import the file again.",
    );
    expect(await workbench.handle("session.list", { workspaceId })).toMatchObject({ ok: true, result: { sessions: [] } });
  });
});
