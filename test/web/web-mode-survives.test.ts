/**
 * A real web-mode process (`electron/core/web/cli.ts` under tsx) meets what
 * used to end it or wedge its session: a promise rejection nobody handles, an
 * uncaught exception, another process holding SQLite's write lock past the
 * busy timeout during a send, a full disk (a real tmpfs). It logs, reports,
 * keeps serving, the session stays idle, and the same message sent again
 * (what Retry does) is answered once the cause is gone.
 */
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { ApiResponse } from "../../shared/api";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { startFauxProvider, type FauxProvider } from "../../electron/core/faux";
import { canMountSmallDisk, mountSmallDisk } from "../store/small-disk";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const MODEL = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-6" } as const;

interface WebProcess {
  pid: number;
  port: number;
  token: string;
  /** Resolves once the process's stderr contains `text`. */
  stderrHas(text: string): Promise<void>;
  /** Whether the process has exited. */
  gone(): boolean;
  stop(): Promise<number | null>;
}

interface Socket {
  call(method: string, params: unknown): Promise<ApiResponse<unknown>>;
  event(name: string, pred?: (payload: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "wb-web-survives-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function startWebMode(dir: string, dbPath: string, env: Record<string, string> = {}): Promise<WebProcess> {
  const staticDir = join(dir, "static");
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, "index.html"), "<!doctype html><title>wb</title>");
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      join(__dirname, "fixtures", "plant-failures.ts"),
      join(process.cwd(), "electron", "core", "web", "cli.ts"),
      ...["--db", dbPath, "--static", staticDir],
    ],
    { env: { ...process.env, AGENT_WORKBENCH_HOME: join(dir, "home"), ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    return exited;
  };
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  });
  let stderr = "";
  const watchers = new Set<() => void>();
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    for (const w of [...watchers]) w();
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /on http:\/\/127\.0\.0\.1:(\d+)\/#token=([0-9a-f]+)/.exec(out);
      if (!m) return;
      resolve({
        pid: child.pid ?? 0,
        port: Number(m[1]),
        token: m[2],
        stderrHas: (text) =>
          new Promise((done, fail) => {
            const check = () => {
              if (!stderr.includes(text)) return;
              watchers.delete(check);
              done();
            };
            watchers.add(check);
            check();
            void exited.then((code) => fail(new Error(`web mode exited (${code}) before logging ${JSON.stringify(text)}: ${stderr}`)));
          }),
        gone: () => child.exitCode !== null || child.signalCode !== null,
        stop,
      });
    });
    void exited.then((code) => reject(new Error(`web mode exited early (${code}): ${stderr}`)));
  });
}

function connect(web: WebProcess): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws?token=${web.token}`);
    cleanups.push(() => ws.close());
    let next = 1;
    const pending = new Map<number, (r: ApiResponse<unknown>) => void>();
    const events: Array<{ event: string; payload: Record<string, unknown> }> = [];
    const watchers = new Set<() => void>();
    ws.on("message", (data: Buffer) => {
      const frame = JSON.parse(data.toString("utf8")) as
        | { kind: "response"; id: number; response: ApiResponse<unknown> }
        | { kind: "event"; event: string; payload: Record<string, unknown> };
      if (frame.kind === "response") pending.get(frame.id)?.(frame.response);
      else {
        events.push(frame);
        for (const w of [...watchers]) w();
      }
    });
    ws.on("error", reject);
    ws.on("open", () =>
      resolve({
        call: (method, params) =>
          new Promise((done) => {
            const id = next++;
            pending.set(id, done);
            ws.send(JSON.stringify({ id, method, params }));
          }),
        event: (name, pred = () => true) =>
          new Promise((done) => {
            const check = () => {
              const hit = events.find((e) => e.event === name && pred(e.payload));
              if (!hit) return;
              watchers.delete(check);
              done(hit.payload);
            };
            watchers.add(check);
            check();
          }),
      }),
    );
  });
}

function httpStatus(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/", method: "GET" }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

async function ok<T>(response: Promise<ApiResponse<unknown>>): Promise<T> {
  const r = await response;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.result as T;
}

async function startFaux(): Promise<FauxProvider> {
  const faux = await startFauxProvider();
  cleanups.push(() => faux.close());
  return faux;
}

/** Web mode on `dbPath`, its settings pointing Anthropic at the faux provider (as a user's Settings would), with one session. */
async function webModeWithSession(dir: string, dbPath: string, faux: FauxProvider) {
  const setup = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
  expect((await setup.handle("settings.update", { baseUrls: { anthropic: faux.baseUrls.anthropic } })).ok).toBe(true);
  await setup.close();
  const web = await startWebMode(dir, dbPath, { ANTHROPIC_API_KEY: "sk-ant-test-0123456789abcdef" });
  const socket = await connect(web);
  const workspace = join(dir, "ws");
  mkdirSync(workspace, { recursive: true });
  const ws = await ok<{ id: string }>(socket.call("workspace.open", { path: workspace }));
  const session = await ok<{ id: string }>(socket.call("session.create", { workspaceId: ws.id, model: MODEL }));
  return { web, socket, sessionId: session.id };
}

/** What Retry does: the same message sent again; resolves once its turn has ended. */
async function sendAndWait(socket: Socket, sessionId: string, text: string): Promise<void> {
  const ended = socket.event("stream.end", (p) => p.sessionId === sessionId);
  await ok(socket.call("chat.send", { sessionId, text }));
  await ended;
}

async function userTexts(socket: Socket, sessionId: string): Promise<string[]> {
  const { entries } = await ok<{
    entries: Array<{ entry: { type: string; message?: { role: string; content: Array<{ text?: string }> } } }>;
  }>(socket.call("session.load", { sessionId }));
  return entries.flatMap((e) => (e.entry.message?.role === "user" ? [e.entry.message.content[0]?.text ?? ""] : []));
}

describe("web mode keeps serving", () => {
  it(
    "a planted unhandled rejection and uncaught exception are logged and reported, and the process keeps serving",
    async () => {
      const dir = tempDir();
      const web = await startWebMode(dir, join(dir, "workbench.db"));
      const socket = await connect(web);
      const notice = socket.event("app.notice", (p) => String(p.message).includes("planted rejection"));
      process.kill(web.pid, "SIGUSR2");
      await web.stderrHas("unhandled promise rejection (the app keeps running): Error: planted rejection");
      await web.stderrHas("uncaught exception (the app keeps running): Error: planted exception");
      expect((await notice).level).toBe("error");

      expect(web.gone()).toBe(false);
      expect(await httpStatus(web.port)).toBe(200);
      const info = await ok<{ notices: string[] }>(socket.call("app.info", {}));
      expect(info.notices.some((n) => n.includes("planted exception"))).toBe(true);
      expect(await web.stop()).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "another process holding the write lock during a send: the send says so, the session stays idle, and Retry works once it lets go",
    async () => {
      const dir = tempDir();
      const dbPath = join(dir, "workbench.db");
      const faux = await startFaux();
      faux.script([{ type: "reply", content: [{ type: "text", text: "answered" }] }]);
      const { web, socket, sessionId } = await webModeWithSession(dir, dbPath, faux);
      const holder = new Database(dbPath);
      cleanups.push(() => {
        holder.close();
      });
      holder.exec("BEGIN IMMEDIATE");

      const refused = await socket.call("chat.send", { sessionId, text: "hello" });
      expect(refused).toMatchObject({ ok: false, error: { code: "STORAGE" } });
      expect(refused.ok ? "" : refused.error.message).toMatch(/^Another program is holding the session database locked/);
      const active = await ok<unknown[]>(socket.call("chat.activeTurns", {}));
      expect(active).toEqual([]);
      expect(web.gone()).toBe(false);

      holder.exec("ROLLBACK");
      await sendAndWait(socket, sessionId, "hello");
      expect(await userTexts(socket, sessionId)).toEqual(["hello"]);
      expect(faux.requests).toHaveLength(1);
      expect(await web.stop()).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it.skipIf(!canMountSmallDisk)(
    "a full disk during a send: the send says the disk is full, the session stays idle, and Retry works once space is freed",
    async () => {
      const disk = mountSmallDisk(6);
      if (disk === null) throw new Error("the tmpfs mount worked a moment ago");
      cleanups.push(() => disk.remove());
      const dir = tempDir();
      const faux = await startFaux();
      faux.script([{ type: "reply", content: [{ type: "text", text: "answered once there was room" }] }]);
      const { web, socket, sessionId } = await webModeWithSession(dir, join(disk.path, "workbench.db"), faux);
      disk.fill();
      const big = `look at this: ${"lorem ipsum dolor ".repeat(40_000)}`;

      const refused = await socket.call("chat.send", { sessionId, text: big });
      expect(refused).toMatchObject({ ok: false, error: { code: "STORAGE" } });
      expect(refused.ok ? "" : refused.error.message).toMatch(
        /^The disk holding your sessions is full \(.*\): free space and press Retry\.$/,
      );
      expect(await ok<unknown[]>(socket.call("chat.activeTurns", {}))).toEqual([]);
      expect(web.gone()).toBe(false);
      expect(await httpStatus(web.port)).toBe(200);

      disk.free();
      await sendAndWait(socket, sessionId, big);
      expect(await userTexts(socket, sessionId)).toEqual([big]);
      expect(await web.stop()).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
