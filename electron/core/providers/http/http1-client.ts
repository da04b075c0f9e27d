/**
 * POST over HTTP/1.1 on our own keep-alive sockets (`node:net` / `node:tls`).
 *
 * Why not `node:http`: on the agent loop's hot path a ClientRequest and its
 * IncomingMessage stream cost ~0.3 ms per call on our build VM, more than the
 * rest of the transport together (`npm run bench:loop`). A provider call needs
 * one thing of HTTP: send one request with a known length, read one response.
 * So a request is one corked write (head + body chunks: one writev), and the
 * response is parsed by `Http1ResponseParser` straight from the socket's bytes.
 *
 * Scope, on purpose: no pipelining (one exchange per socket at a time), no
 * request retries (a POST is not idempotent; the loop's retry decides), no
 * proxies (neither had the node:http transport). Certificates are verified
 * by Node's defaults; `ca` adds trusted roots (tests use a test CA).
 */
import diagnostics from "node:diagnostics_channel";
import { validateHeaderName, validateHeaderValue } from "node:http";
import net from "node:net";
import { performance } from "node:perf_hooks";
import tls from "node:tls";
import { Http1ResponseParser, type ResponseHead } from "./http1-response";

/** Published after a request's bytes were handed to the socket (bench:loop stamps it, as node's `http.client.request.start`). */
export const requestSentChannel = diagnostics.channel("agent-workbench:http1.request.sent");
/** What `requestSentChannel` carries: the body's chunks as written (never the head: it holds the key). */
export interface RequestSent {
  origin: string;
  body: readonly (string | Uint8Array)[];
}
/** Published when a response was read to its end. */
export const responseEndChannel = diagnostics.channel("agent-workbench:http1.response.end");

export interface Http1Handlers {
  onHead(head: ResponseHead): void;
  onBody(chunk: Buffer): void;
  onComplete(): void;
  /** The connection failed or broke, or the response was malformed; nothing more is delivered. */
  onError(err: Error): void;
}

/** One request in flight. */
export interface Http1Exchange {
  /** Stop reading (backpressure); `resume` reads on. */
  pause(): void;
  resume(): void;
  /** Drop the connection (abort, or a consumer gone): no handler is called after this. */
  destroy(): void;
}

export interface Http1PoolOptions {
  /** Extra trusted certificate authorities (PEM). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** An idle socket older than this is not reused (servers and middleboxes drop theirs; 30 s by default). */
  idleTimeoutMs?: number;
  /** Idle sockets kept per origin. */
  maxIdlePerOrigin?: number;
  /** Clock for idle ages, in ms (tests; `performance.now` by default). */
  now?: () => number;
}


/**
 * The request head. Throws a TypeError naming the header (never its value:
 * values hold keys) when a name or value could not be sent as is.
 */
export function requestHead(url: URL, headers: Readonly<Record<string, string>>, contentLength: number): string {
  let head = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower === "host" || lower === "content-length" || lower === "connection" || lower === "transfer-encoding") continue;
    const value = headers[name];
    // node:http's own checks (a token name; no CR, LF or NUL in the value: header injection), with our wording.
    try {
      validateHeaderName(name);
    } catch {
      throw new TypeError(`invalid HTTP header name "${name}"`);
    }
    try {
      validateHeaderValue(name, value);
    } catch {
      throw new TypeError(`invalid character in the value of HTTP header "${name}"`);
    }
    head += `${name}: ${value}\r\n`;
  }
  return `${head}content-length: ${contentLength}\r\nconnection: keep-alive\r\n\r\n`;
}

/**
 * One socket and its listeners, attached once for the socket's life: what
 * they do depends on whether an exchange holds the connection or it sits idle
 * in the pool (re-attaching listeners per request costs more than the rest of
 * handing a socket over).
 */
class Connection {
  exchange: Exchange | null = null;
  /** When it went back to the pool (the pool's clock). */
  idleSince = 0;
  /** The peer ended, closed or failed it: never hand it out again. */
  dead = false;

  constructor(
    readonly socket: net.Socket,
    private readonly onIdleEnd: (connection: Connection) => void,
  ) {
    socket.on("data", (chunk: Buffer) => {
      if (this.exchange !== null) this.exchange.data(chunk);
      else this.end(); // bytes nobody asked for: the connection cannot be trusted
    });
    const ended = () => {
      this.dead = true;
      if (this.exchange !== null) this.exchange.closed();
      else this.end();
    };
    socket.on("end", ended).on("close", ended);
    socket.on("error", (err: Error) => {
      this.dead = true;
      if (this.exchange !== null) this.exchange.broken(err);
      else this.end();
    });
  }

  private end(): void {
    this.dead = true;
    this.socket.destroy();
    this.onIdleEnd(this);
  }
}

export class Http1Pool {
  private readonly idle = new Map<string, Connection[]>();
  private readonly idleTimeoutMs: number;
  private readonly maxIdle: number;
  private readonly now: () => number;
  private readonly forget = (connection: Connection) => {
    for (const list of this.idle.values()) {
      const i = list.indexOf(connection);
      if (i >= 0) list.splice(i, 1);
    }
  };

  constructor(private readonly options: Http1PoolOptions = {}) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
    this.maxIdle = options.maxIdlePerOrigin ?? 8;
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Sends `POST url` with the head from `requestHead` and the body chunks
   * (their total byte length is `contentLength`), on an idle socket of the
   * origin or a new one. Throws (synchronously) only for invalid headers.
   */
  post(url: URL, headers: Readonly<Record<string, string>>, body: readonly (string | Uint8Array)[], contentLength: number, handlers: Http1Handlers): Http1Exchange {
    return new Exchange(this, url, requestHead(url, headers, contentLength), body, handlers);
  }

  /** Closes the idle sockets (tests; the process exits without it, idle sockets are unref'd). */
  close(): void {
    for (const list of this.idle.values()) for (const { socket } of list) socket.destroy();
    this.idle.clear();
  }

  /**
   * An idle connection of the origin, taken out of the pool. One idle longer
   * than the idle timeout is dropped instead: a server or a middlebox may have
   * forgotten it without a word, and a request written to it would hang.
   */
  take(origin: string): Connection | undefined {
    const list = this.idle.get(origin);
    const now = this.now();
    while (list !== undefined && list.length > 0) {
      const connection = list.pop() as Connection;
      const { socket } = connection;
      if (connection.dead || socket.destroyed || !socket.writable || now - connection.idleSince > this.idleTimeoutMs) {
        connection.dead = true;
        socket.destroy();
        continue;
      }
      socket.ref();
      return connection;
    }
    return undefined;
  }

  connect(url: URL): Connection {
    const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
    // URL keeps IPv6 literals in brackets; sockets want them bare.
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const socket =
      url.protocol === "https:"
        ? tls.connect({ host, port, servername: net.isIP(host) === 0 ? host : undefined, ALPNProtocols: ["http/1.1"], ca: this.options.ca })
        : net.connect({ host, port });
    socket.setNoDelay(true);
    return new Connection(socket, this.forget);
  }

  /** A connection whose exchange ended cleanly goes back to the pool (or is closed when the pool is full). */
  release(origin: string, connection: Connection): void {
    connection.exchange = null;
    let list = this.idle.get(origin);
    if (list === undefined) {
      list = [];
      this.idle.set(origin, list);
    }
    if (connection.dead || list.length >= this.maxIdle) {
      connection.dead = true;
      connection.socket.destroy();
      return;
    }
    connection.idleSince = this.now();
    connection.socket.unref();
    list.push(connection);
  }
}

class Exchange implements Http1Exchange {
  private readonly parser: Http1ResponseParser;
  private connection: Connection;
  /** The connection came from the pool: the server may have closed it just as we wrote. */
  private reused: boolean;
  /** A response byte arrived on this connection. */
  private answered = false;
  private done = false;
  /** The parser saw the response end (handled once the chunk that ended it was parsed). */
  private completed = false;

  constructor(
    private readonly pool: Http1Pool,
    private readonly url: URL,
    private readonly head: string,
    private readonly body: readonly (string | Uint8Array)[],
    private readonly handlers: Http1Handlers,
  ) {
    this.parser = new Http1ResponseParser({
      onHead: (h) => handlers.onHead(h),
      onBody: (b) => handlers.onBody(b),
      onComplete: () => {
        this.completed = true;
      },
    });
    const idle = pool.take(url.origin);
    this.reused = idle !== undefined;
    this.connection = idle ?? pool.connect(url);
    this.send();
  }

  pause(): void {
    if (!this.done) this.connection.socket.pause();
  }

  resume(): void {
    if (!this.done) this.connection.socket.resume();
  }

  destroy(): void {
    if (this.done) return;
    this.done = true;
    this.drop();
  }

  private send(): void {
    this.connection.exchange = this;
    const { socket } = this.connection;
    // One writev for head and body: written before connecting, it waits in the socket's buffer.
    socket.cork();
    socket.write(this.head);
    for (const chunk of this.body) socket.write(chunk);
    socket.uncork();
    if (requestSentChannel.hasSubscribers) requestSentChannel.publish({ origin: this.url.origin, body: this.body } satisfies RequestSent);
  }

  /** Lets go of the connection for good. */
  private drop(): void {
    this.connection.exchange = null;
    this.connection.dead = true;
    this.connection.socket.destroy();
  }

  /**
   * A kept-alive connection that ends before any response byte was most
   * likely closed by the server while idle (its keep-alive timeout), racing
   * our write: the request was not read, so it goes out once more on a new
   * connection. Anything else is the caller's failure to see.
   */
  private retryStale(): boolean {
    if (!this.reused || this.answered || this.done) return false;
    this.reused = false;
    this.drop();
    this.connection = this.pool.connect(this.url);
    this.send();
    return true;
  }

  data(chunk: Buffer): void {
    if (this.done) return;
    this.answered = true;
    try {
      this.parser.push(chunk);
    } catch (err) {
      // A malformed response (bytes after the end only make the connection not reusable): it cannot be trusted again.
      this.fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (this.completed) this.complete();
  }

  closed(): void {
    if (this.done || this.retryStale()) return;
    try {
      // Completes a body delimited by the close; throws when the response was cut short.
      this.parser.close();
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (this.completed) this.complete();
    else this.fail(new Error("the connection closed before the response ended"));
  }

  broken(err: Error): void {
    if (this.done || this.retryStale()) return;
    this.fail(err);
  }

  private complete(): void {
    if (this.done) return;
    this.done = true;
    const { socket } = this.connection;
    if (this.parser.reusable && !this.connection.dead && !socket.destroyed && socket.writable) {
      socket.resume();
      this.pool.release(this.url.origin, this.connection);
    } else {
      this.drop();
    }
    if (responseEndChannel.hasSubscribers) responseEndChannel.publish({ origin: this.url.origin });
    this.handlers.onComplete();
  }

  private fail(err: Error): void {
    if (this.done) return;
    this.done = true;
    this.drop();
    this.handlers.onError(err);
  }
}
