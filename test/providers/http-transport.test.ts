/**
 * The provider transport against local servers: https with a test CA,
 * keep-alive reuse, abort and early exit closing the socket, error bodies,
 * broken and refused connections.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  Http1Pool,
  HttpNetworkError,
  postSse,
  ProviderApiError,
  StreamStoppedError,
  type SseEvent,
  type SseResponse,
} from "../../electron/core/providers/http";
import { describeFailure } from "../../electron/core/providers/adapters/errors";
import { streamModel } from "../../electron/core/providers";
import { API_KEY, context, targets, user } from "./adapters-fixtures";
import type { FauxProvider } from "../../electron/core/faux";
import type { StreamEvent } from "../../electron/core/providers/types";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface TestServer {
  url: string;
  /** Every TCP connection the server accepted. */
  sockets: Socket[];
  close: () => Promise<void>;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function listen(server: Server | NetServer, scheme: "http" | "https"): Promise<TestServer> {
  const sockets: Socket[] = [];
  server.on("connection", (socket: Socket) => sockets.push(socket));
  // TLS servers report the raw TCP socket through "connection" too.
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      const handle: TestServer = {
        url: `${scheme}://127.0.0.1:${port}`,
        sockets,
        close: () =>
          new Promise<void>((done) => {
            if ("closeAllConnections" in server) server.closeAllConnections();
            else for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      };
      servers.push(handle);
      resolve(handle);
    });
  });
}

function startServer(handler: Handler): Promise<TestServer> {
  return listen(createServer((req, res) => readAll(req).then(() => handler(req, res))), "http");
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (text += c));
    req.on("end", () => resolve(text));
  });
}

function sseHead(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "x-request-id": "req_1" });
}

const twoEvents: Handler = (_req, res) => {
  sseHead(res);
  res.write('event: a\ndata: {"n":1}\n\n');
  res.end('event: b\ndata: {"n":2}\n\n');
};

async function collect(response: SseResponse): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of response.events) out.push(event);
  return out;
}

function post(url: string, extra: Partial<Parameters<typeof postSse>[0]> = {}) {
  return postSse({ url, headers: { "content-type": "application/json" }, body: '{"q":"é"}', ...extra });
}

function closed(socket: Socket): Promise<void> {
  return socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once("close", () => resolve()));
}

const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;

/** A self-signed certificate for 127.0.0.1, made by openssl for this run. */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "http-transport-tls-"));
  try {
    const result = spawnSync("openssl", [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
      "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
    ]);
    if (result.status !== 0) throw new Error(`openssl failed: ${result.stderr.toString()}`);
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("streaming a response", () => {
  it("sends the body with its byte length and the given headers, and yields the events", async () => {
    let seen: { headers: IncomingMessage["headers"]; body: string; method?: string; url?: string } | null = null;
    const server = await listen(
      createServer(async (req, res) => {
        seen = { headers: req.headers, body: await readAll(req), method: req.method, url: req.url };
        twoEvents(req, res);
      }),
      "http",
    );
    const response = await post(`${server.url}/v1/messages`, { headers: { "x-custom": "yes", "content-type": "application/json" } });
    expect(response.status).toBe(200);
    expect(response.headers["x-request-id"]).toBe("req_1");
    expect(await collect(response)).toEqual([
      { event: "a", data: '{"n":1}' },
      { event: "b", data: '{"n":2}' },
    ]);
    expect(seen).toMatchObject({ method: "POST", url: "/v1/messages", body: '{"q":"é"}' });
    expect(seen!.headers["content-length"]).toBe(String(Buffer.byteLength('{"q":"é"}')));
    expect(seen!.headers["x-custom"]).toBe("yes");
  });

  it("sends a body given in chunks (text and UTF-8 bytes) as one body with the total byte length", async () => {
    let seen: { body: string; length?: string } | null = null;
    const server = await listen(
      createServer(async (req, res) => {
        seen = { body: await readAll(req), length: req.headers["content-length"] };
        twoEvents(req, res);
      }),
      "http",
    );
    const chunks = ['{"messages":[', Buffer.from('{"text":"ünïcødé 🙂"}', "utf8"), ',{"text":"tail é"}]}'];
    await collect(await post(server.url, { body: chunks }));
    const whole = '{"messages":[{"text":"ünïcødé 🙂"},{"text":"tail é"}]}';
    expect(seen).toEqual({ body: whole, length: String(Buffer.byteLength(whole)) });
  });

  it("reuses one kept-alive socket for two sequential calls", async () => {
    const server = await startServer(twoEvents);
    await collect(await post(server.url));
    await collect(await post(server.url));
    expect(server.sockets).toHaveLength(1);
  });

  it("takeQueued hands out the events of a burst already parsed, in order, without waiting", async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.end("data: 1\n\ndata: 2\n\ndata: 3\n\n");
    });
    const { events } = await post(server.url);
    const first = await events.next();
    expect(first.value).toEqual({ event: null, data: "1" });
    // The rest of the burst came in the same read: already queued.
    expect(events.takeQueued()).toEqual({ event: null, data: "2" });
    expect(events.takeQueued()).toEqual({ event: null, data: "3" });
    expect(events.takeQueued()).toBeUndefined();
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it("a slow consumer gets every event in order (the socket pauses and resumes)", async () => {
    const count = 3000;
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.end(Array.from({ length: count }, (_, i) => `data: ${i}\n\n`).join(""));
    });
    const response = await post(server.url);
    const seen: number[] = [];
    for await (const event of response.events) {
      seen.push(Number(event.data));
      if (seen.length % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => i));
  });

  it.skipIf(!hasOpenssl)(
    `streams over https with a test CA, and refuses the same self-signed server by default${hasOpenssl ? "" : " (skipped: openssl is not installed)"}`,
    async () => {
      const { key, cert } = selfSigned();
      const server = await listen(createHttpsServer({ key, cert }, (req, res) => readAll(req).then(() => twoEvents(req, res))), "https");
      const pool = new Http1Pool({ ca: cert });
      try {
        const events = await collect(await post(server.url, { pool }));
        expect(events.map((e) => e.event)).toEqual(["a", "b"]);
        // Product code verifies certificates: without the test CA the call fails as a network error.
        const refused = await post(server.url).catch((err: unknown) => err);
        expect(refused).toBeInstanceOf(HttpNetworkError);
        expect((refused as Error).message).toMatch(/self[- ]signed certificate/i);
      } finally {
        pool.close();
      }
    },
  );
});

describe("the keep-alive pool", () => {
  it("a socket the server closed while idle is not reused: the next call opens a new one and succeeds", async () => {
    const server = await startServer(twoEvents);
    await collect(await post(server.url));
    expect(server.sockets).toHaveLength(1);
    server.sockets[0].destroy();
    await closed(server.sockets[0]);
    expect(await collect(await post(server.url))).toHaveLength(2);
    expect(server.sockets).toHaveLength(2);
  });

  it("a kept-alive socket closed just as the request went out: sent once more on a new connection", async () => {
    let requests = 0;
    const server = await startServer((req, res) => {
      // The second request is the first on the reused socket: the server hangs up without answering (its idle timeout racing our write).
      if (++requests === 2) req.socket.destroy();
      else twoEvents(req, res);
    });
    await collect(await post(server.url));
    expect(await collect(await post(server.url))).toHaveLength(2);
    expect(requests).toBe(3);
    expect(server.sockets).toHaveLength(2);
  });

  it("a new connection closed before any response byte is a network error, and the request is not sent again", async () => {
    let requests = 0;
    const server = await startServer((req) => {
      requests++;
      req.socket.destroy();
    });
    const err = await post(server.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpNetworkError);
    expect((err as Error).message).toMatch(/^could not reach the provider: .*closed/);
    expect(requests).toBe(1);
  });

  it("a socket idle longer than the pool's idle timeout is not reused (a silently dropped connection would hang)", async () => {
    const server = await startServer(twoEvents);
    let clock = 0;
    const pool = new Http1Pool({ idleTimeoutMs: 30_000, now: () => clock });
    try {
      await collect(await post(server.url, { pool }));
      clock += 29_000;
      await collect(await post(server.url, { pool }));
      expect(server.sockets).toHaveLength(1);
      clock += 31_000;
      await collect(await post(server.url, { pool }));
      expect(server.sockets).toHaveLength(2);
      await closed(server.sockets[0]);
    } finally {
      pool.close();
    }
  });

  it("a response with `connection: close` is not followed by reuse of its socket", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream", connection: "close" });
      res.end("data: 1\n\n");
    });
    expect(await collect(await post(server.url))).toEqual([{ event: null, data: "1" }]);
    expect(await collect(await post(server.url))).toEqual([{ event: null, data: "1" }]);
    expect(server.sockets).toHaveLength(2);
  });

  it("a response framed by content-length (not chunked) streams and keeps the socket", async () => {
    const server = await startServer((_req, res) => {
      const text = 'event: a\ndata: {"n":1}\n\n';
      res.writeHead(200, { "content-type": "text/event-stream", "content-length": String(Buffer.byteLength(text)) });
      res.end(text);
    });
    expect(await collect(await post(server.url))).toEqual([{ event: "a", data: '{"n":1}' }]);
    expect(await collect(await post(server.url))).toHaveLength(1);
    expect(server.sockets).toHaveLength(1);
  });

  it("sends host, content-length and keep-alive itself, ignoring a caller's own framing headers", async () => {
    let headers: IncomingMessage["headers"] = {};
    const server = await listen(
      createServer(async (req, res) => {
        headers = req.headers;
        await readAll(req);
        twoEvents(req, res);
      }),
      "http",
    );
    await collect(await post(`${server.url}/v1/x?beta=true`, { headers: { "Content-Length": "999", Host: "evil.example", "x-a": "1" } }));
    expect(headers.host).toBe(new URL(server.url).host);
    expect(headers["content-length"]).toBe(String(Buffer.byteLength('{"q":"é"}')));
    expect(headers.connection).toBe("keep-alive");
    expect(headers["x-a"]).toBe("1");
  });

  it("refuses a header value with a line break (header injection), naming the header but not the value", async () => {
    const server = await startServer(twoEvents);
    const err = await post(server.url, { headers: { authorization: "Bearer sk-secret\r\nx-injected: 1" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toMatch(/authorization/);
    expect((err as Error).message).not.toContain("sk-secret");
    await expect(post(server.url, { headers: { "bad name": "x" } })).rejects.toThrow(/invalid HTTP header name/);
    expect(server.sockets).toHaveLength(0);
  });

  it("a malformed response is a network error and its socket is dropped", async () => {
    const server = await listen(
      createNetServer((socket) => {
        socket.once("data", () => socket.write("HTTP/1.1 2OO OK\r\n\r\n"));
      }),
      "http",
    );
    const err = await post(server.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpNetworkError);
    expect((err as Error).message).toMatch(/^could not reach the provider: /);
    await closed(server.sockets[0]);
  });

  it("idle pooled sockets do not keep the process alive", async () => {
    const server = await startServer(twoEvents);
    const script = `
      import { postSse } from ${JSON.stringify(join(import.meta.dirname, "../../electron/core/providers/http/index.ts"))};
      const r = await postSse({ url: ${JSON.stringify(server.url)}, headers: {}, body: "{}" });
      for await (const _ of r.events) void _;
      console.log("done");
    `;
    // Asynchronously: this process serves the child's request.
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on("exit", (c, sig) => resolve([c, sig])));
    clearTimeout(killer);
    expect(stdout.trim()).toBe("done");
    // Killed by the timeout it would have a signal and no exit code.
    expect(signal).toBeNull();
    expect(code).toBe(0);
  });
});

describe("stopping", () => {
  it("an abort mid-stream closes the socket and ends the iterator with the stop error", async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.write('data: {"first":true}\n\n'); // then nothing: the client has to hang up
    });
    const controller = new AbortController();
    const response = await post(server.url, { signal: controller.signal });
    const iterator = response.events[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ event: null, data: '{"first":true}' });
    const pending = iterator.next();
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(StreamStoppedError);
    await closed(server.sockets[0]);
    expect(server.sockets[0].destroyed).toBe(true);
  });

  it("an abort before the response arrives rejects with the stop error and closes the socket", async () => {
    let arrived!: () => void;
    const requestSeen = new Promise<void>((resolve) => (arrived = resolve));
    const server = await startServer(() => arrived()); // never answers
    const controller = new AbortController();
    const call = post(server.url, { signal: controller.signal });
    await requestSeen;
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(StreamStoppedError);
    await closed(server.sockets[0]);
  });

  it("an already-aborted signal sends nothing", async () => {
    const server = await startServer(twoEvents);
    const controller = new AbortController();
    controller.abort();
    await expect(post(server.url, { signal: controller.signal })).rejects.toBeInstanceOf(StreamStoppedError);
    expect(server.sockets).toHaveLength(0);
  });

  it("a consumer that stops iterating early closes the socket", async () => {
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.write("data: 1\n\ndata: 2\n\n");
    });
    const response = await post(server.url);
    for await (const event of response.events) {
      expect(event.data).toBe("1");
      break;
    }
    await closed(server.sockets[0]);
  });
});

describe("error responses", () => {
  it("a non-2xx JSON body becomes a ProviderApiError that describeFailure reads", async () => {
    const body = { type: "error", error: { type: "rate_limit_error", message: "Slow down" } };
    const server = await startServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "3" });
      res.end(JSON.stringify(body));
    });
    const err = await post(server.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderApiError);
    const apiError = err as ProviderApiError;
    expect(apiError).toMatchObject({ status: 429, error: body, rawBody: JSON.stringify(body), message: "429 Slow down" });
    expect(apiError.headers["retry-after"]).toBe("3");
    expect(describeFailure(err, [], apiError.rawBody)).toMatchObject({
      message: "429 rate_limit_error: Slow down",
      status: 429,
      retryable: true,
      retryAfterMs: 3000,
    });
  });

  it("a non-JSON body keeps its text", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>Bad gateway</html>\n");
    });
    const err = (await post(server.url).catch((e: unknown) => e)) as ProviderApiError;
    expect(err).toBeInstanceOf(ProviderApiError);
    expect(err.error).toBe("<html>Bad gateway</html>\n");
    expect(describeFailure(err, [], err.rawBody)).toMatchObject({ message: "502: <html>Bad gateway</html>", retryable: true });
  });

  it("an empty body says so, as the SDKs did", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(413);
      res.end();
    });
    const err = (await post(server.url).catch((e: unknown) => e)) as ProviderApiError;
    expect(err.message).toBe("413 status code (no body)");
    // Cerebras answers an overflow with a bare 413: the "(no body)" text is how it is recognised.
    expect(describeFailure(err, [], err.rawBody)).toMatchObject({ message: "413: status code (no body)", contextOverflow: true });
  });

  it("an error response leaves the socket reusable", async () => {
    let calls = 0;
    const server = await startServer((_req, res) => {
      if (++calls === 1) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end('{"error":{"message":"boom","type":"server_error"}}');
      } else twoEvents(_req, res);
    });
    await expect(post(server.url)).rejects.toBeInstanceOf(ProviderApiError);
    expect(await collect(await post(server.url))).toHaveLength(2);
    expect(server.sockets).toHaveLength(1);
  });
});

describe("network failures", () => {
  it("a connection dropped mid-stream delivers what arrived, then a retryable network error", async () => {
    let drop: (() => void) | undefined;
    const server = await startServer((_req, res) => {
      sseHead(res);
      res.write("data: 1\n\n");
      drop = () => res.socket?.destroy();
    });
    const response = await post(server.url);
    const seen: string[] = [];
    const err = await (async () => {
      for await (const event of response.events) {
        seen.push(event.data);
        // The break comes once the first event has arrived: mid-stream, not before it.
        drop?.();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["1"]);
    expect(err).toBeInstanceOf(HttpNetworkError);
    expect(describeFailure(err, [])).toMatchObject({ retryable: true, message: expect.stringMatching(/^network error: the connection broke mid-stream/) });
  });

  it("a refused connection is a retryable network error, and the adapter's message never holds the key", async () => {
    const server = await startServer(twoEvents);
    const url = server.url;
    await server.close();
    servers.length = 0;
    const err = await post(url, { headers: { authorization: `Bearer ${API_KEY}` } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpNetworkError);
    expect((err as HttpNetworkError).code).toBe("ECONNREFUSED");
    expect(describeFailure(err, [API_KEY])).toMatchObject({ retryable: true, message: expect.stringMatching(/^network error: could not reach the provider: .*ECONNREFUSED/) });

    const target = targets({ baseUrls: { anthropic: url, openai: url, mistral: url } } as FauxProvider).anthropic;
    const events: StreamEvent[] = [];
    for await (const event of streamModel(target.model, target.provider, context([user("hi")]), { apiKey: API_KEY, headers: { "x-api-key": API_KEY } })) {
      events.push(event);
    }
    const final = events[events.length - 1];
    expect(final.type === "error" && final.retryable).toBe(true);
    expect(final.type === "error" && final.message.errorMessage).toMatch(/^network error: could not reach the provider/);
    expect(JSON.stringify(events)).not.toContain(API_KEY);
  });

  it("rejects a URL that is not http or https with a clear error", async () => {
    await expect(post("ftp://127.0.0.1/x")).rejects.toThrow(/unsupported provider URL scheme "ftp:"/);
    await expect(post("not a url")).rejects.toThrow(/invalid provider URL/);
  });
});
