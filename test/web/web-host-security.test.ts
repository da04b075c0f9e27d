import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { ApiResponse } from "../../shared/api";
import type { Workbench } from "../../electron/core/api/workbench";
import { CONTENT_SECURITY_POLICY, startWebHost, tokensEqual, type WebHost } from "../../electron/core/web/server";

/** A transport-level test: the core behind the socket only echoes. */
const echoWorkbench: Workbench = {
  handle: async (method: string, params: unknown): Promise<ApiResponse<unknown>> => ({ ok: true, result: { method, params } }),
  onEvent: () => () => undefined,
  close: async () => undefined,
};

let host: WebHost;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "web-host-"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>wb</title>");
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "assets", "start-abc.js"), "export const started = true;\n");
  writeFileSync(join(tmpdir(), "outside-secret.txt"), "secret");
  host = await startWebHost({ workbench: echoWorkbench, staticDir: dir });
});
afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(join(tmpdir(), "outside-secret.txt"), { force: true });
});

/** Resolves with the HTTP status the upgrade was refused with, or "open". */
function tryConnect(path: string, origin?: string): Promise<number | "open"> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}${path}`, origin ? { origin } : {});
    ws.on("open", () => {
      ws.close();
      resolve("open");
    });
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("error", () => undefined);
  });
}

function get(path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: host.port, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("web mode security", () => {
  it("listens on the loopback address only", () => {
    const address = host.server.address();
    expect(address).toMatchObject({ address: "127.0.0.1" });
    expect(host.url.startsWith(`http://127.0.0.1:${host.port}/#token=`)).toBe(true);
  });

  it("uses a 256-bit random token", () => {
    expect(host.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a WebSocket upgrade without a token", async () => {
    expect(await tryConnect("/ws")).toBe(401);
  });

  it("refuses a wrong token, including one that differs only in length", async () => {
    expect(await tryConnect(`/ws?token=${"0".repeat(64)}`)).toBe(401);
    expect(await tryConnect(`/ws?token=${host.token}00`)).toBe(401);
    expect(await tryConnect(`/ws?token=${host.token.slice(0, 63)}`)).toBe(401);
  });

  it("refuses a foreign Origin even with the right token", async () => {
    expect(await tryConnect(`/ws?token=${host.token}`, "http://evil.example")).toBe(403);
    expect(await tryConnect(`/ws?token=${host.token}`, `http://127.0.0.1:${host.port + 1}`)).toBe(403);
  });

  it("accepts the right token from the page's own origin and answers requests", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}` });
    const reply = await new Promise<unknown>((resolve, reject) => {
      ws.on("open", () => ws.send(JSON.stringify({ id: 7, method: "app.info", params: {} })));
      ws.on("message", (d) => resolve((d as Buffer).toString("utf8")));
      ws.on("error", reject);
    });
    ws.close();
    expect(JSON.parse(reply as string)).toEqual({
      kind: "response",
      id: 7,
      response: { ok: true, result: { method: "app.info", params: {} } },
    });
  });

  it("answers a malformed frame with a typed error instead of dropping the connection", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`);
    const reply = await new Promise<unknown>((resolve, reject) => {
      ws.on("open", () => ws.send("{not json"));
      ws.on("message", (d) => resolve(JSON.parse((d as Buffer).toString("utf8"))));
      ws.on("error", reject);
    });
    ws.close();
    expect(reply).toMatchObject({ kind: "response", response: { ok: false, error: { code: "INVALID_REQUEST" } } });
  });

  it("serves the renderer with a strict CSP and never a file outside its folder", async () => {
    const page = await get("/");
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:\/\/(?!127)/);
    for (const path of ["/../outside-secret.txt", "/%2e%2e/outside-secret.txt", "/..%2foutside-secret.txt"]) {
      const res = await get(path);
      expect(res.body).not.toContain("secret");
      expect([403, 404]).toContain(res.status);
    }
  });

  it("serves the files it read at start from memory, with their type and length", async () => {
    // Removed from disk after start: still served, from the copy read before listening.
    unlinkSync(join(dir, "assets", "start-abc.js"));
    const script = await get("/assets/start-abc.js");
    expect(script.status).toBe(200);
    expect(script.body).toBe("export const started = true;\n");
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(script.headers["content-length"]).toBe(String(Buffer.byteLength(script.body)));
    expect(script.headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY);
    // A file that appears after start is not served.
    writeFileSync(join(dir, "assets", "late.js"), "late");
    expect((await get("/assets/late.js")).status).toBe(404);
  });

  it("compares tokens by value, not by prefix", () => {
    expect(tokensEqual("abc", "abc")).toBe(true);
    expect(tokensEqual("abc", "abcd")).toBe(false);
    expect(tokensEqual("", "abc")).toBe(false);
  });
});
