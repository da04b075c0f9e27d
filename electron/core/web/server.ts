/**
 * Web mode: serves the built renderer and the WorkbenchApi over one WebSocket,
 * on 127.0.0.1 only.
 *
 * Security: the WebSocket upgrade is refused without the per-launch token
 * (256 bits, compared in constant time) or with an Origin other than the
 * page's own. Static files carry a strict CSP. Nothing binds another address.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { resolve } from "node:path";
import { WebSocketServer, type WebSocket } from "ws";
import { ClientFrameSchema, MAX_FRAME_BYTES, type ServerFrame } from "../../../shared/api";
import type { Workbench } from "../api/workbench";
import { loadStaticAssets, type StaticAsset } from "./static-assets";

export const LOOPBACK = "127.0.0.1";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self' ws://127.0.0.1:*",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join("; ");

export interface WebHostOptions {
  workbench: Workbench;
  /** Folder holding the built renderer (index.html); read into memory at start. */
  staticDir: string;
  /** 0 picks a random free port. */
  port?: number;
  /** Hex token; generated when absent (tests pass their own). */
  token?: string;
}

export interface WebHost {
  url: string;
  port: number;
  token: string;
  server: Server;
  close(): Promise<void>;
}

export function generateToken(): string {
  return randomBytes(32).toString("hex");
}

/** Constant-time comparison of two tokens of any length (hashed first so lengths match). */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? generateToken();
  const assets = loadStaticAssets(resolve(options.staticDir));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const server = createServer((req, res) => serveStatic(assets, req, res));
  let port = 0;

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const verdict = checkUpgrade(req, token, port);
    if (verdict !== null) {
      socket.write(`HTTP/1.1 ${verdict}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => attachClient(ws, options.workbench));
  });

  await new Promise<void>((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      server.off("error", reject);
      resolvePromise();
    });
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://${LOOPBACK}:${port}/#token=${token}`;

  return {
    url,
    port,
    token,
    server,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      // Browsers keep static-file connections alive; without this, close waits for them.
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Returns null when the upgrade may proceed, else the HTTP status line to refuse it with. */
export function checkUpgrade(req: IncomingMessage, token: string, port: number): string | null {
  const url = new URL(req.url ?? "/", `http://${LOOPBACK}`);
  if (url.pathname !== "/ws") return "404 Not Found";
  const given = url.searchParams.get("token") ?? "";
  if (!tokensEqual(given, token)) return "401 Unauthorized";
  const origin = req.headers.origin;
  // Browsers always send Origin on WebSocket upgrades; a page from any other site is refused.
  const allowed = new Set([`http://${LOOPBACK}:${port}`, `http://localhost:${port}`]);
  if (origin !== undefined && !allowed.has(origin)) return "403 Forbidden";
  return null;
}

function attachClient(ws: WebSocket, workbench: Workbench): void {
  const send = (frame: ServerFrame) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  const unsubscribe = workbench.onEvent((event, payload) => send({ kind: "event", event, payload }));
  ws.on("close", unsubscribe);
  ws.on("error", unsubscribe);
  const onFrame = async (data: WebSocket.RawData) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(frameText(data));
    } catch {
      send({ kind: "response", id: -1, response: { ok: false, error: { code: "INVALID_REQUEST", message: "frame is not JSON" } } });
      return;
    }
    const frame = ClientFrameSchema.safeParse(parsed);
    if (!frame.success) {
      send({
        kind: "response",
        id: -1,
        response: { ok: false, error: { code: "INVALID_REQUEST", message: "frame must be { id, method, params }" } },
      });
      return;
    }
    const response = await workbench.handle(frame.data.method, frame.data.params);
    send({ kind: "response", id: frame.data.id, response });
  };
  ws.on("message", (data) => {
    // After the I/O already read in this turn: a script request that arrived with this frame is
    // answered before the core's work on the frame (docs/performance.md#first-paint-of-a-long-session-cold).
    setImmediate(() => {
      // `handle` answers every failure as a response; a rejection here would be a bug in the host, reported, not thrown.
      onFrame(data).catch((err: unknown) => {
        send({
          kind: "response",
          id: -1,
          response: { ok: false, error: { code: "INTERNAL", message: err instanceof Error ? err.message : String(err) } },
        });
      });
    });
  });
}

function frameText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return (Buffer.isBuffer(data) ? data : Buffer.from(new Uint8Array(data))).toString("utf8");
}

function serveStatic(assets: Map<string, StaticAsset>, req: IncomingMessage, res: ServerResponse): void {
  const headers = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, headers).end();
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? "/", `http://${LOOPBACK}`).pathname);
  } catch {
    res.writeHead(400, headers).end();
    return;
  }
  // Only the files read at start are served: a path outside the folder is simply not among them.
  const asset = assets.get(pathname === "/" ? "/index.html" : pathname);
  if (!asset) {
    res.writeHead(404, { ...headers, "Content-Type": "text/plain" }).end("not found");
    return;
  }
  res.writeHead(200, {
    ...headers,
    "Content-Type": asset.contentType,
    "Content-Length": asset.body.length,
    "Cache-Control": "no-cache",
  });
  res.end(req.method === "HEAD" ? undefined : asset.body);
}
