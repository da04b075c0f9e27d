/**
 * The HTTP/1.1 response parser gives the same head, body bytes, end and
 * reusability however the bytes are split; rejects malformed responses with
 * a message naming the problem; and reads what a real node:http server sends
 * as node:http itself reads it.
 */
import { createServer as createHttpServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Http1ParseError, Http1ResponseParser, type ResponseHead } from "../../electron/core/providers/http/http1-response";

/** One chunk of a chunked body: size (hex), optional extension, data. */
const chunk = (data: string, ext = "", eol = "\r\n") => `${Buffer.byteLength(data).toString(16)}${ext}${eol}${data}${eol}`;

interface Parsed {
  head: ResponseHead | undefined;
  body: string;
  /** Handler calls in order: H(ead), B(ody), C(omplete). */
  calls: string;
  reusable: boolean;
}

/** Feeds the pieces, then `close()` when asked; records what the handlers saw. */
function parse(pieces: Buffer[], close = false, options?: { maxHeaderBytes?: number }): Parsed {
  let head: ResponseHead | undefined;
  const body: Buffer[] = [];
  let calls = "";
  const parser = new Http1ResponseParser(
    {
      onHead: (h) => {
        head = h;
        calls += "H";
      },
      onBody: (b) => {
        body.push(b);
        calls += b.length === 0 ? "0" : "B"; // an empty chunk shows as "0" and fails the pattern
      },
      onComplete: () => {
        calls += "C";
      },
    },
    options,
  );
  for (const piece of pieces) parser.push(piece);
  if (close) parser.close();
  expect(parser.complete).toBe(true);
  return { head, body: Buffer.concat(body).toString("utf8"), calls: calls.replace(/B+/, "B"), reusable: parser.reusable };
}

const splits = {
  whole: (raw: Buffer) => [[raw]],
  "in two at every byte": (raw: Buffer) => Array.from({ length: raw.length - 1 }, (_, k) => [raw.subarray(0, k + 1), raw.subarray(k + 1)]),
  "one byte at a time": (raw: Buffer) => [Array.from(raw, (b) => Buffer.from([b]))],
};

interface Case {
  name: string;
  raw: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
  reusable: boolean;
  /** The body ends with the connection. */
  close?: boolean;
}

const SSE = ['event: message_start\ndata: {"text":"héllo 日本語 😀"}\n\n', "data: 0\r\n\r\n\n", "data: [DONE]\n\n"];

const CASES: Case[] = [
  {
    name: "a chunked SSE body with extensions, upper-case and zero-padded sizes, and trailers",
    raw:
      "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" +
      chunk(SSE[0], ";name=value") +
      `00${Buffer.byteLength(SSE[1]).toString(16).toUpperCase()} ; a=b;c\r\n${SSE[1]}\r\n` +
      chunk(SSE[2]) +
      "0;last\r\nx-trailer: ignored\r\nx-checksum: 1\r\n\r\n",
    status: 200,
    statusText: "OK",
    headers: { "content-type": "text/event-stream", "transfer-encoding": "chunked" },
    body: SSE.join(""),
    reusable: true,
  },
  {
    name: "a chunked body with bare LF line ends",
    raw: "HTTP/1.1 200 OK\ntransfer-encoding: gzip, chunked\n\n" + chunk("abc", "", "\n") + chunk("de", "", "\n") + "0\n\n",
    status: 200,
    statusText: "OK",
    headers: { "transfer-encoding": "gzip, chunked" },
    body: "abcde",
    reusable: true,
  },
  {
    name: "a content-length body",
    raw: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{\"ok\":\"ünï\"}\r\n",
    status: 200,
    statusText: "OK",
    headers: { "content-type": "application/json", "content-length": "16" },
    body: '{"ok":"ünï"}\r\n',
    reusable: true,
  },
  {
    name: "content-length 0, no reason phrase",
    raw: "HTTP/1.1 200\r\ncontent-length: 0\r\n\r\n",
    status: 200,
    statusText: "",
    headers: { "content-length": "0" },
    body: "",
    reusable: true,
  },
  {
    name: "identical content-length values, an empty reason phrase",
    raw: "HTTP/1.1 429 \r\ncontent-length: 2, 2\r\nContent-Length: 2\r\n\r\nno",
    status: 429,
    statusText: "",
    headers: { "content-length": "2, 2, 2" },
    body: "no",
    reusable: true,
  },
  { name: "204 has no body", raw: "HTTP/1.1 204 No Content\r\ndate: x\r\n\r\n", status: 204, statusText: "No Content", headers: { date: "x" }, body: "", reusable: true },
  {
    name: "304 has no body, whatever its content-length",
    raw: "HTTP/1.1 304 Not Modified\r\ncontent-length: 10\r\n\r\n",
    status: 304,
    statusText: "Not Modified",
    headers: { "content-length": "10" },
    body: "",
    reusable: true,
  },
  {
    name: "a body delimited by the close",
    raw: "HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/plain\r\n\r\nsomething broke\r\n0\r\n\r\n",
    status: 500,
    statusText: "Internal Server Error",
    headers: { "content-type": "text/plain" },
    body: "something broke\r\n0\r\n\r\n",
    reusable: false,
    close: true,
  },
  {
    name: "100 Continue and 103 Early Hints before the 200",
    raw:
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\n" +
      "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok",
    status: 200,
    statusText: "OK",
    headers: { "content-length": "2" },
    body: "ok",
    reusable: true,
  },
  {
    name: "HTTP/1.0 with connection: keep-alive",
    raw: "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\ncontent-length: 3\r\n\r\nabc",
    status: 200,
    statusText: "OK",
    headers: { connection: "Keep-Alive", "content-length": "3" },
    body: "abc",
    reusable: true,
  },
  {
    name: "HTTP/1.0 without keep-alive",
    raw: "HTTP/1.0 200 OK\r\ncontent-length: 3\r\n\r\nabc",
    status: 200,
    statusText: "OK",
    headers: { "content-length": "3" },
    body: "abc",
    reusable: false,
  },
  {
    name: "repeated headers joined, values trimmed, a __proto__ header kept as a key",
    raw: "HTTP/1.1 200 OK\r\nset-cookie: a=1\r\nSet-Cookie:b=2  \r\nx-multi: \tone\r\n__proto__: p\r\nX-MULTI: two\r\ncontent-length: 0\r\n\r\n",
    status: 200,
    statusText: "OK",
    headers: { "set-cookie": "a=1, b=2", "x-multi": "one, two", ["__proto__"]: "p", "content-length": "0" },
    body: "",
    reusable: true,
  },
  {
    name: "connection: close",
    raw: "HTTP/1.1 200 OK\r\nconnection: keep-alive, Close\r\ncontent-length: 1\r\n\r\nx",
    status: 200,
    statusText: "OK",
    headers: { connection: "keep-alive, Close", "content-length": "1" },
    body: "x",
    reusable: false,
  },
  {
    name: "content-length beside transfer-encoding: chunked wins, the connection is not reused",
    raw: "HTTP/1.1 200 OK\r\ncontent-length: 100\r\ntransfer-encoding: chunked\r\n\r\n" + chunk("abc") + "0\r\n\r\n",
    status: 200,
    statusText: "OK",
    headers: { "content-length": "100", "transfer-encoding": "chunked" },
    body: "abc",
    reusable: false,
  },
];

describe("Http1ResponseParser on well-formed responses", () => {
  for (const c of CASES) {
    for (const [how, split] of Object.entries(splits)) {
      it(`${c.name}, fed ${how}`, () => {
        const raw = Buffer.from(c.raw, "utf8");
        const expected = { head: { status: c.status, statusText: c.statusText, headers: c.headers }, body: c.body, reusable: c.reusable };
        for (const [k, pieces] of split(raw).entries()) {
          const got = parse(pieces, c.close);
          expect({ split: k, head: got.head, body: got.body, reusable: got.reusable }).toEqual({ split: k, ...expected });
          expect(got.calls).toMatch(c.body === "" ? /^HC$/ : /^HBC$/);
        }
      });
    }
  }

  it("drops bytes after the end and marks the connection not reusable, without throwing", () => {
    const extraSamePush = parse([Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n")]);
    expect(extraSamePush).toMatchObject({ body: "ok", calls: "HBC", reusable: false });
    const extraLaterPush = parse([Buffer.from("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"), Buffer.from("junk")]);
    expect(extraLaterPush).toMatchObject({ body: "ok", calls: "HBC", reusable: false });
  });

  it("does nothing on close() once complete", () => {
    const got = parse([Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")], true);
    expect(got).toMatchObject({ body: "ok", calls: "HBC", reusable: true });
  });
});

interface Bad {
  name: string;
  raw: string;
  error: RegExp;
  close?: boolean;
  maxHeaderBytes?: number;
}

const OK_HEAD = "HTTP/1.1 200 OK\r\n";
const CHUNKED_HEAD = OK_HEAD + "transfer-encoding: chunked\r\n\r\n";
const BAD: Bad[] = [
  { name: "another protocol version", raw: "HTTP/2 200 OK\r\n\r\n", error: /^invalid status line "HTTP\/2 200 OK" \(expected "HTTP\/1.1 <3-digit status> <reason>"\)$/ },
  { name: "HTTP/1.2", raw: "HTTP/1.2 200 OK\r\n\r\n", error: /^invalid status line "HTTP\/1.2 200 OK"/ },
  { name: "not HTTP at all", raw: "ICY 200 OK\r\n\r\n", error: /^invalid status line "ICY 200 OK"/ },
  { name: "a 2-digit status", raw: "HTTP/1.1 20 OK\r\n\r\n", error: /^invalid status line "HTTP\/1.1 20 OK"/ },
  { name: "a 4-digit status", raw: "HTTP/1.1 2000 OK\r\n\r\n", error: /^invalid status line "HTTP\/1.1 2000 OK"/ },
  { name: "an empty line before the status line", raw: "\r\nHTTP/1.1 200 OK\r\n\r\n", error: /^invalid status line ""/ },
  { name: "a header line without a colon", raw: OK_HEAD + "no colon here\r\n\r\n", error: /^header line without a colon: "no colon here"$/ },
  { name: "whitespace before the colon", raw: OK_HEAD + "content-length : 0\r\n\r\n", error: /^whitespace in a header name or before the colon: "content-length : 0"$/ },
  { name: "an invalid header name character", raw: OK_HEAD + "x(y): 1\r\n\r\n", error: /^invalid character in a header name: "x\(y\): 1"$/ },
  { name: "an empty header name", raw: OK_HEAD + ": 1\r\n\r\n", error: /^empty header name/ },
  { name: "obs-fold", raw: OK_HEAD + "x-a: 1\r\n  continued\r\n\r\n", error: /^obs-fold \(a header line starting with whitespace\) is not allowed: "  continued"$/ },
  { name: "a bare CR in a header value", raw: OK_HEAD + "x-a: 1\r2\r\n\r\n", error: /^control character in a header value: "x-a: 1\\r2"$/ },
  { name: "a DEL in a header value", raw: OK_HEAD + "x-a: 1\x7f\r\n\r\n", error: /^control character in a header value/ },
  { name: "headers over maxHeaderBytes", raw: OK_HEAD + `x-big: ${"a".repeat(300)}\r\n\r\n`, error: /^response head larger than 256 bytes$/, maxHeaderBytes: 256 },
  { name: "headers over the 64 KiB default", raw: OK_HEAD + `x-big: ${"a".repeat(70_000)}\r\n\r\n`, error: /^response head larger than 65536 bytes$/ },
  { name: "many small 1xx heads over the limit together", raw: "HTTP/1.1 103 Early Hints\r\n\r\n".repeat(20), error: /^response head larger than 256 bytes$/, maxHeaderBytes: 256 },
  { name: "101 Switching Protocols", raw: "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n", error: /^unexpected 101 Switching Protocols \(we never ask to upgrade\)$/ },
  { name: "conflicting content-lengths", raw: OK_HEAD + "content-length: 5\r\ncontent-length: 6\r\n\r\nhello", error: /^conflicting content-length values "5, 6"$/ },
  { name: "a negative content-length", raw: OK_HEAD + "content-length: -1\r\n\r\n", error: /^invalid content-length "-1"$/ },
  { name: "an empty content-length", raw: OK_HEAD + "content-length:\r\n\r\n", error: /^invalid content-length ""$/ },
  { name: "chunked applied twice", raw: OK_HEAD + "transfer-encoding: chunked, chunked\r\n\r\n", error: /^transfer-encoding "chunked, chunked" applies chunked more than once$/ },
  { name: "a chunk size that is not hex", raw: CHUNKED_HEAD + "zz\r\n", error: /^invalid chunk size line "zz" \(expected hex digits, then optional ";ext"\)$/ },
  { name: "a signed chunk size", raw: CHUNKED_HEAD + "-1\r\n", error: /^invalid chunk size line "-1"/ },
  { name: "an empty chunk size line", raw: CHUNKED_HEAD + "\r\n", error: /^invalid chunk size line ""/ },
  { name: "a huge chunk size", raw: CHUNKED_HEAD + "fffffffffffffffff\r\n", error: /^chunk size too large: "fffffffffffffffff"$/ },
  { name: "a chunk size line over 4 KiB", raw: CHUNKED_HEAD + `1;${"x".repeat(5000)}\r\n`, error: /^chunk-size line longer than 4096 bytes$/ },
  { name: "chunk data longer than its size", raw: CHUNKED_HEAD + "3\r\nabcd\r\n", error: /^expected CRLF after chunk data, got byte 0x64$/ },
  { name: "obs-fold in the trailers", raw: CHUNKED_HEAD + "0\r\nx: 1\r\n 2\r\n\r\n", error: /^obs-fold/ },
  { name: "a close before any byte", raw: "", close: true, error: /^connection closed before the response ended \(before any response byte\)$/ },
  { name: "a close in the head", raw: OK_HEAD + "content-le", close: true, error: /^connection closed before the response ended \(in the response head\)$/ },
  { name: "a close after a 100 Continue", raw: "HTTP/1.1 100 Continue\r\n\r\n", close: true, error: /\(in the response head\)$/ },
  { name: "a close mid-body", raw: OK_HEAD + "content-length: 10\r\n\r\nhello", close: true, error: /^connection closed before the response ended \(with 5 content-length bytes unread\)$/ },
  { name: "a close in the chunked body", raw: CHUNKED_HEAD + "5\r\nhello\r\n", close: true, error: /^connection closed before the response ended \(inside the chunked body\)$/ },
  { name: "a close in the trailers", raw: CHUNKED_HEAD + "0\r\nx: 1\r\n", close: true, error: /\(inside the chunked body\)$/ },
];

describe("Http1ResponseParser on malformed responses", () => {
  for (const c of BAD) {
    for (const how of ["whole", "one byte at a time"] as const) {
      it(`rejects ${c.name}, fed ${how}`, () => {
        const raw = Buffer.from(c.raw, "utf8");
        const pieces = how === "whole" ? [raw] : splits["one byte at a time"](raw)[0];
        const parser = new Http1ResponseParser({ onHead: () => {}, onBody: () => {}, onComplete: () => {} }, { maxHeaderBytes: c.maxHeaderBytes });
        const err = caught(() => {
          for (const piece of pieces) parser.push(piece);
          if (c.close) parser.close();
        });
        expect(err).toBeInstanceOf(Http1ParseError);
        expect((err as Error).message).toMatch(c.error);
        expect(parser.complete).toBe(false);
        expect(() => parser.push(Buffer.from("x"))).toThrow(/^the response parser already failed$/);
      });
    }
  }
});

function caught(fn: () => void): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

it("accepts a head of exactly maxHeaderBytes (line ends included), however split, and rejects one byte more", () => {
  const head = Buffer.from(`HTTP/1.1 200 OK\r\ncontent-length: 0\r\nx-pad: ${"a".repeat(200 - 47)}\r\n\r\n`);
  expect(head.length).toBe(200);
  for (const split of Object.values(splits)) {
    for (const pieces of split(head)) expect(parse(pieces, false, { maxHeaderBytes: 200 }).calls).toBe("HC");
    for (const pieces of split(head)) expect(() => parse(pieces, false, { maxHeaderBytes: 199 })).toThrow(/^response head larger than 199 bytes$/);
  }
});

it("gives the trailers a maxHeaderBytes budget of their own", () => {
  const head = `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nx-pad: ${"a".repeat(100)}\r\n\r\n`;
  const trailers = (n: number) => Buffer.from(`${head}2\r\nok\r\n0\r\nx-t: ${"b".repeat(n)}\r\n\r\n`);
  expect(parse([trailers(150)], false, { maxHeaderBytes: 200 })).toMatchObject({ body: "ok", calls: "HBC" });
  expect(() => parse([trailers(250)], false, { maxHeaderBytes: 200 })).toThrow(/^trailers larger than 200 bytes$/);
});

it("checks the framing before onHead: a response with conflicting lengths is never announced", () => {
  const heads: ResponseHead[] = [];
  const parser = new Http1ResponseParser({ onHead: (h) => heads.push(h), onBody: () => {}, onComplete: () => {} });
  expect(() => parser.push(Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 1, 2\r\n\r\n"))).toThrow(Http1ParseError);
  expect(heads).toEqual([]);
});

describe("Http1ResponseParser on a real node:http server", () => {
  const servers: { server: net.Server; sockets: net.Socket[] }[] = [];
  afterEach(async () => {
    for (const { server, sockets } of servers.splice(0)) {
      for (const s of sockets) s.destroy();
      await new Promise((done) => server.close(done));
    }
  });

  function listen(server: net.Server): Promise<number> {
    const sockets: net.Socket[] = [];
    server.on("connection", (s: net.Socket) => sockets.push(s));
    servers.push({ server, sockets });
    return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
  }

  /** A raw keep-alive connection: each exchange has its own parser and keeps its response's bytes. */
  function rawClient(port: number) {
    const socket = net.connect(port, "127.0.0.1");
    let current: { parser: Http1ResponseParser; raw: Buffer[] } | undefined;
    let progress = () => {};
    socket.on("data", (b: Buffer) => {
      current?.raw.push(b);
      current?.parser.push(b);
      progress();
    });
    return {
      socket,
      send(path: string) {
        const got = { head: undefined as ResponseHead | undefined, body: [] as Buffer[], raw: [] as Buffer[], completes: 0 };
        const parser = new Http1ResponseParser({
          onHead: (h) => (got.head = h),
          onBody: (b) => got.body.push(Buffer.from(b)),
          onComplete: () => got.completes++,
        });
        current = { parser, raw: got.raw };
        socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
        const bodyText = () => Buffer.concat(got.body).toString("utf8");
        /** Resolves once the condition holds (checked after every read). */
        const until = (cond: () => boolean) =>
          new Promise<void>((resolve) => {
            progress = () => cond() && resolve();
            progress();
          });
        return { got, bodyText, until, reusable: () => parser.reusable };
      },
    };
  }

  /** How node:http itself reads the same response bytes (replayed by a plain TCP server). */
  async function nodeReads(raw: Buffer) {
    const port = await listen(net.createServer((s) => s.once("data", () => s.write(raw))));
    return new Promise<{ head: ResponseHead; body: string }>((resolve, reject) => {
      const req = request({ port, host: "127.0.0.1", method: "POST", path: "/", agent: false }, (res: IncomingMessage) => {
        const body: Buffer[] = [];
        res.on("data", (b: Buffer) => body.push(b));
        res.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
          resolve({ head: { status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers }, body: Buffer.concat(body).toString("utf8") });
          req.destroy();
        });
      });
      req.on("error", reject);
      req.end("{}");
    });
  }

  it("reads a streamed chunked response, then a content-length one on the same connection, as node:http sent them", async () => {
    let sse: ServerResponse | undefined;
    let sseArrived = () => {};
    const json = JSON.stringify({ text: "héllo 日本語", n: 1 });
    const port = await listen(
      createHttpServer((req, res) => {
        req.resume();
        if (req.url === "/sse") {
          res.writeHead(200, { "content-type": "text/event-stream", "x-request-id": "req_1" });
          res.flushHeaders();
          sse = res;
          sseArrived();
          return;
        }
        res.setHeader("x-multi", ["a", "b"]);
        res.writeHead(201, "Made It", { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
        res.end(json);
      }),
    );
    const client = rawClient(port);

    const first = client.send("/sse");
    await new Promise<void>((resolve) => (sse ? resolve() : (sseArrived = resolve)));
    await first.until(() => first.got.head !== undefined);
    let sent = "";
    for (const event of SSE) {
      sse!.write(event);
      sent += event;
      await first.until(() => first.bodyText() === sent); // one event at a time: each write is read before the next
    }
    sse!.end();
    await first.until(() => first.got.completes > 0);
    expect(first.got.head).toMatchObject({
      status: 200,
      statusText: "OK",
      headers: { "content-type": "text/event-stream", "x-request-id": "req_1", "transfer-encoding": "chunked", connection: "keep-alive" },
    });
    expect(first.bodyText()).toBe(SSE.join(""));
    expect(first.got.completes).toBe(1);
    expect(first.reusable()).toBe(true);

    const second = client.send("/json");
    await second.until(() => second.got.completes > 0);
    expect(second.got.head).toMatchObject({
      status: 201,
      statusText: "Made It",
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(json)), "x-multi": "a, b" },
    });
    expect(second.bodyText()).toBe(json);
    expect(second.reusable()).toBe(true);
    client.socket.destroy();

    for (const exchange of [first, second]) {
      const node = await nodeReads(Buffer.concat(exchange.got.raw));
      expect({ head: exchange.got.head, body: exchange.bodyText() }).toEqual(node);
    }
  });
});
