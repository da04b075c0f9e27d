/**
 * Imports in web mode, against the real web host and core over a WebSocket
 * with the token: a file larger than one frame may carry (which used to close
 * the socket with 1009) goes in chunks, a file past the import limit gets an
 * error answer on a socket that stays open, and the renderer's client refuses
 * a too-large request itself instead of losing its connection.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { MAX_FRAME_BYTES, WorkbenchApiError, type ApiResponse, type SessionSummary } from "../../shared/api";
import { IMPORT_LIMITS } from "../../shared/review";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import type { Workbench } from "../../electron/core/api/workbench";
import { serializeEnvelope } from "../../electron/core/review/export-json";
import { startWebHost, type WebHost } from "../../electron/core/web/server";
import { WebSocketClient } from "../../renderer/src/api/ws-client";
import { importFile } from "../../renderer/src/replay/import-file";
import { bigExport } from "../review/import-fixtures";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let dir: string;
let workbench: Workbench;
let host: WebHost;
let workspaceId: string;
/** More than one frame may carry: 400 entries of 100 KB of text. */
let big: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "web-import-"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>wb</title>");
  workbench = await createWorkbench({ dbPath: join(dir, "wb.db"), host: { mode: "web" }, version: "test", env: {} });
  host = await startWebHost({ workbench, staticDir: dir });
  const ws = await workbench.handle("workspace.open", { path: dir });
  if (!ws.ok) throw new Error(ws.error.message);
  workspaceId = (ws.result as { id: string }).id;
  big = serializeEnvelope(bigExport(400, { textChars: 100_000, title: "Forty megabytes" }));
  expect(Buffer.byteLength(big)).toBeGreaterThan(MAX_FRAME_BYTES);
});
afterAll(async () => {
  await host.close();
  await workbench.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw client on the host's socket: one request at a time, the answers by id. */
async function connect() {
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let nextId = 1;
  const waiting = new Map<number, (r: ApiResponse<unknown>) => void>();
  let closed: number | null = null;
  socket.on("close", (code) => (closed = code));
  socket.on("message", (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as { kind: string; id?: number; response?: ApiResponse<unknown> };
    if (frame.kind === "response" && frame.id !== undefined && frame.response) waiting.get(frame.id)?.(frame.response);
  });
  const call = (method: string, params: unknown) =>
    new Promise<ApiResponse<unknown>>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { call, closed: () => closed, close: () => socket.close() };
}

describe("imports in web mode", () => {
  it(
    "takes a file larger than one frame in chunks, on the same socket as other requests",
    async () => {
      const c = await connect();
      const begun = await c.call("review.import.begin", { workspaceId, bytes: Buffer.byteLength(big) });
      if (!begun.ok) throw new Error(begun.error.message);
      const { importId, chunkChars } = begun.result as { importId: string; chunkChars: number };
      expect(chunkChars).toBe(IMPORT_LIMITS.chunkChars);
      for (let index = 0; index * chunkChars < big.length; index++) {
        const r = await c.call("review.import.chunk", { importId, index, text: big.slice(index * chunkChars, (index + 1) * chunkChars) });
        expect(r.ok).toBe(true);
      }
      const done = await c.call("review.import.finish", { importId });
      expect(done).toMatchObject({ ok: true, result: { title: "Forty megabytes", entryCount: 400 } });
      const listed = await c.call("session.list", { workspaceId });
      expect(listed.ok && (listed.result as { sessions: SessionSummary[] }).sessions.map((s) => s.title)).toContain("Forty megabytes");
      expect(c.closed()).toBeNull();
      c.close();
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it("answers a file past the import limit with an error, and the socket stays open", async () => {
    const c = await connect();
    const r = await c.call("review.import.begin", { workspaceId, bytes: 100 * 1024 * 1024 * 3 });
    expect(r).toMatchObject({
      ok: false,
      error: { code: "IMPORT_TOO_LARGE", message: "the file is larger than 256 MB (the most an import takes)" },
    });
    expect(await c.call("session.list", { workspaceId })).toMatchObject({ ok: true });
    expect(c.closed()).toBeNull();
    c.close();
  });

  it(
    "the renderer's client imports a large file in chunks, and refuses a request past the frame limit without losing its connection",
    async () => {
      // The browser's WebSocket and window, as the renderer sees them.
      Object.assign(globalThis, { WebSocket, window: globalThis });
      const client = new WebSocketClient(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`);
      try {
        const sent: number[] = [];
        const session = await importFile(client, new Blob([big]), workspaceId, (share) => sent.push(share));
        expect(session).toMatchObject({ title: "Forty megabytes", entryCount: 400 });
        expect(sent.at(-1)).toBe(1);

        const oneShot = client.call("review.import", { workspaceId, content: big });
        await expect(oneShot).rejects.toBeInstanceOf(WorkbenchApiError);
        await expect(oneShot).rejects.toMatchObject({
          error: { code: "INVALID_REQUEST", message: expect.stringMatching(/more than one request/) },
        });
        expect(client.connection().status).toBe("open");
        expect((await client.call("session.list", { workspaceId })).sessions.length).toBeGreaterThan(0);
      } finally {
        client.close();
        for (const k of ["WebSocket", "window"]) Reflect.deleteProperty(globalThis, k);
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
