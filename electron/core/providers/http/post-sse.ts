/**
 * One streamed provider call over `node:http` / `node:https`: POST a JSON
 * body that is already a string, get the status and headers, then read the
 * Server-Sent Events as they arrive. This replaces the SDK clients on the hot
 * path (their request building, undici's Request and web streams cost several
 * times what the call itself does).
 *
 * Contract:
 * - 2xx: resolves with an async iterator of SSE events. It ends when the
 *   response ends (a missing terminal event is the adapter's to notice), and
 *   throws `HttpNetworkError` if the connection breaks first.
 * - other statuses: the body is read and a `ProviderApiError` thrown.
 * - connection failures: `HttpNetworkError` (retryable).
 * - the signal fires, before or during the stream: the request and its socket
 *   are destroyed and `StreamStoppedError` is thrown.
 * - a consumer that stops iterating early destroys the request too; a stream
 *   read to its end leaves the socket in the keep-alive pool.
 * Certificates are verified (Node's defaults) unless the caller passes its own agent.
 */
import http, { type ClientRequest, type IncomingMessage } from "node:http";
import https from "node:https";
import { HttpNetworkError, ProviderApiError, StreamStoppedError } from "./errors";
import { SseParser, type SseEvent } from "./sse-parser";

/** One keep-alive pool per protocol for the whole process: consecutive calls reuse a warm socket. */
const HTTP_AGENT = new http.Agent({ keepAlive: true });
const HTTPS_AGENT = new https.Agent({ keepAlive: true });

/** Error bodies beyond this are cut (the message only needs the start). */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;
/** Events waiting for the consumer before the socket is paused. */
const HIGH_WATER_EVENTS = 512;

export interface SseRequest {
  url: string;
  /** Sent as given (lower-case names); `content-length` is added. */
  headers: Readonly<Record<string, string>>;
  /** The request body, already JSON: text, or chunks sent back to back (text or UTF-8 bytes). */
  body: string | readonly (string | Uint8Array)[];
  signal?: AbortSignal;
  /** Replaces the shared keep-alive agent (tests: an agent that trusts a test CA). */
  agent?: http.Agent;
}

export interface SseResponse {
  status: number;
  /** Response headers, names in lower case, repeated values joined with ", ". */
  headers: Readonly<Record<string, string>>;
  events: AsyncIterableIterator<SseEvent>;
}

export function postSse(request: SseRequest): Promise<SseResponse> {
  const { signal } = request;
  if (signal?.aborted) return Promise.reject(new StreamStoppedError());
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.reject(new TypeError("invalid provider URL: check the provider's base URL"));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Promise.reject(new TypeError(`unsupported provider URL scheme "${url.protocol}" (expected http: or https:)`));
  }
  const secure = url.protocol === "https:";
  const payload = typeof request.body === "string" ? [Buffer.from(request.body, "utf8")] : request.body.map(toBytes);
  let contentLength = 0;
  for (const chunk of payload) contentLength += chunk.byteLength;

  return new Promise<SseResponse>((resolve, reject) => {
    let settled = false;
    let stream: SseEventStream | null = null;
    let req: ClientRequest;
    const onAbort = () => {
      if (stream) stream.stop();
      else if (!settled) {
        settled = true;
        reject(new StreamStoppedError());
      }
      req.destroy();
    };
    const unlink = () => signal?.removeEventListener("abort", onAbort);
    try {
      req = (secure ? https : http).request(url, {
        method: "POST",
        headers: { ...request.headers, "content-length": String(contentLength) },
        agent: request.agent ?? (secure ? HTTPS_AGENT : HTTP_AGENT),
      });
    } catch (err) {
      // Invalid header names or values throw here; Node's text names the header, never its value.
      reject(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });

    req.on("error", (err) => {
      if (stream) {
        stream.fail(err);
        return;
      }
      if (settled) return;
      settled = true;
      unlink();
      reject(signal?.aborted ? new StreamStoppedError() : new HttpNetworkError(`could not reach the provider: ${err.message}`, err));
    });
    req.on("response", (res) => {
      if (settled) {
        res.resume();
        return;
      }
      const status = res.statusCode ?? 0;
      const headers = headerRecord(res);
      if (status >= 200 && status <= 299) {
        settled = true;
        stream = new SseEventStream(req, res, unlink);
        resolve({ status, headers, events: stream });
        return;
      }
      readErrorBody(res).then(
        (text) => {
          if (settled) return;
          settled = true;
          unlink();
          reject(ProviderApiError.fromResponse(status, headers, text));
        },
        (err: unknown) => {
          if (settled) return;
          settled = true;
          unlink();
          reject(signal?.aborted ? new StreamStoppedError() : new HttpNetworkError(`the connection broke while reading an error response: ${messageOf(err)}`, err));
        },
      );
    });
    // Written before the socket is assigned, the chunks go out together (one writev).
    for (const chunk of payload) req.write(chunk);
    req.end();
  });
}

/**
 * The events of one response, queued as they are parsed. Queued events are
 * still delivered after a network failure (they arrived); after a stop they
 * are dropped.
 */
function toBytes(chunk: string | Uint8Array): Uint8Array {
  return typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
}

class SseEventStream implements AsyncIterableIterator<SseEvent> {
  private readonly parser = new SseParser();
  private queue: SseEvent[] = [];
  private head = 0;
  private ended = false;
  private failure: Error | null = null;
  private waiter: { resolve: (r: IteratorResult<SseEvent>) => void; reject: (e: Error) => void } | null = null;
  private paused = false;

  constructor(
    private readonly req: ClientRequest,
    private readonly res: IncomingMessage,
    private readonly unlink: () => void,
  ) {
    res.on("data", (chunk: Buffer) => this.onData(chunk));
    res.on("end", () => this.onEnd());
    res.on("error", (err) => this.fail(err));
    res.on("close", () => {
      if (!this.ended && this.failure === null) this.fail(null);
    });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<SseEvent> {
    return this;
  }

  next(): Promise<IteratorResult<SseEvent>> {
    if (this.head < this.queue.length) return Promise.resolve({ value: this.take(), done: false });
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    if (this.paused) {
      this.paused = false;
      this.res.resume();
    }
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  /** The consumer stopped early: drop the connection (an unread stream cannot go back to the pool). */
  return(): Promise<IteratorResult<SseEvent>> {
    if (!this.ended && this.failure === null) this.req.destroy();
    this.ended = true;
    this.failure = null;
    this.queue = [];
    this.head = 0;
    this.unlink();
    return Promise.resolve({ value: undefined, done: true });
  }

  /** The caller's signal fired. */
  stop(): void {
    if (this.ended || this.failure instanceof StreamStoppedError) return;
    this.queue = [];
    this.head = 0;
    this.settle(new StreamStoppedError());
  }

  /** The connection broke (err null: closed without an error of its own). */
  fail(err: Error | null): void {
    if (this.ended || this.failure !== null) return;
    const detail = err ? `${err.message}${"code" in err && typeof err.code === "string" && !err.message.includes(err.code) ? ` (${err.code})` : ""}` : "closed";
    this.settle(new HttpNetworkError(`the connection broke mid-stream: ${detail}`, err ?? undefined));
  }

  private settle(failure: Error): void {
    this.failure = failure;
    this.unlink();
    if (this.waiter !== null && this.head >= this.queue.length) {
      const { reject } = this.waiter;
      this.waiter = null;
      reject(failure);
    }
  }

  private take(): SseEvent {
    const value = this.queue[this.head++];
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    }
    return value;
  }

  private onData(chunk: Buffer): void {
    if (this.ended || this.failure !== null) return;
    const events = this.parser.push(chunk);
    if (events.length === 0) return;
    for (const event of events) this.queue.push(event);
    if (this.waiter !== null) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve({ value: this.take(), done: false });
    }
    if (!this.paused && this.queue.length - this.head > HIGH_WATER_EVENTS) {
      this.paused = true;
      this.res.pause();
    }
  }

  private onEnd(): void {
    if (this.failure !== null) return;
    this.ended = true;
    this.unlink();
    if (this.waiter !== null) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve({ value: undefined, done: true });
    }
  }
}

/** A message's headers as one string each (names are lower case in Node; repeated values joined with ", "). */
export function headerRecord(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (typeof value === "string") out[name] = value;
    else if (Array.isArray(value)) out[name] = value.join(", ");
  }
  return out;
}

function readErrorBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    res.on("data", (chunk: Buffer) => {
      if (size < MAX_ERROR_BODY_BYTES) parts.push(chunk);
      size += chunk.length;
    });
    res.on("end", () => resolve(Buffer.concat(parts).toString("utf8").slice(0, MAX_ERROR_BODY_BYTES)));
    res.on("error", reject);
    res.on("close", () => {
      if (!res.complete) reject(new Error("closed before the body ended"));
    });
  });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
