/**
 * One streamed provider call: POST a JSON body (text or chunks), get the
 * status and headers, then read the Server-Sent Events as they arrive. This
 * replaces the SDK clients on the hot path (their request building, undici's
 * Request and web streams cost several times what the call itself does), and
 * runs over our own HTTP/1.1 sockets (`http1-client.ts`: node:http's request
 * and response objects cost more than the rest of the call).
 *
 * Contract:
 * - 2xx: resolves with an async iterator of SSE events. It ends when the
 *   response ends (a missing terminal event is the adapter's to notice), and
 *   throws `HttpNetworkError` if the connection breaks first.
 * - other statuses: the body is read and a `ProviderApiError` thrown.
 * - connection failures: `HttpNetworkError` (retryable).
 * - the signal fires, before or during the stream: the connection is dropped
 *   and `StreamStoppedError` is thrown.
 * - a consumer that stops iterating early drops the connection too; a stream
 *   read to its end leaves the socket in the keep-alive pool.
 * Certificates are verified (Node's defaults) unless the caller passes a pool with its own CA.
 */
import type { IncomingMessage } from "node:http";
import { HttpNetworkError, ProviderApiError, StreamStoppedError } from "./errors";
import { Http1Pool, type Http1Exchange } from "./http1-client";
import type { ResponseHead } from "./http1-response";
import { SseParser, type SseEvent } from "./sse-parser";

/** One keep-alive pool for the whole process: consecutive calls reuse a warm socket. */
const POOL = new Http1Pool();

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
  /** Replaces the shared keep-alive pool (tests: a pool that trusts a test CA). */
  pool?: Http1Pool;
}

export interface SseResponse {
  status: number;
  /** Response headers, names in lower case, repeated values joined with ", ". */
  headers: Readonly<Record<string, string>>;
  events: SseEvents;
}

export interface SseEvents extends AsyncIterableIterator<SseEvent> {
  /**
   * The next event if one is already parsed and waiting, else undefined (then
   * `next()` waits, or reports the end or the failure). Lets a reader handle a
   * burst of events without a promise round per event.
   */
  takeQueued(): SseEvent | undefined;
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
  const body = typeof request.body === "string" ? [request.body] : request.body;
  let contentLength = 0;
  for (const chunk of body) contentLength += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;

  return new Promise<SseResponse>((resolve, reject) => {
    let settled = false;
    let stream: SseEventStream | null = null;
    /** A non-2xx response: its body, read for the error. */
    let errorBody: { status: number; headers: Record<string, string>; parts: Buffer[]; size: number } | null = null;
    let exchange: Http1Exchange | null = null;
    const settle = (err: Error) => {
      if (settled) return;
      settled = true;
      unlink();
      reject(err);
    };
    const onAbort = () => {
      exchange?.destroy();
      if (stream) stream.stop();
      else settle(new StreamStoppedError());
    };
    const unlink = () => signal?.removeEventListener("abort", onAbort);
    try {
      exchange = (request.pool ?? POOL).post(url, request.headers, body, contentLength, {
        onHead: (head: ResponseHead) => {
          if (head.status >= 200 && head.status <= 299) {
            settled = true;
            stream = new SseEventStream(exchange as Http1Exchange, unlink);
            resolve({ status: head.status, headers: head.headers, events: stream });
          } else {
            errorBody = { status: head.status, headers: head.headers, parts: [], size: 0 };
          }
        },
        onBody: (chunk) => {
          if (stream) stream.onData(chunk);
          else if (errorBody) {
            if (errorBody.size < MAX_ERROR_BODY_BYTES) errorBody.parts.push(chunk);
            errorBody.size += chunk.length;
          }
        },
        onComplete: () => {
          if (stream) {
            stream.onEnd();
            return;
          }
          if (errorBody) {
            const text = Buffer.concat(errorBody.parts).toString("utf8").slice(0, MAX_ERROR_BODY_BYTES);
            settle(ProviderApiError.fromResponse(errorBody.status, errorBody.headers, text));
          }
        },
        onError: (err) => {
          if (stream) {
            stream.fail(err);
            return;
          }
          if (errorBody) {
            settle(new HttpNetworkError(`the connection broke while reading an error response: ${err.message}`, err));
            return;
          }
          settle(new HttpNetworkError(`could not reach the provider: ${err.message}`, err));
        },
      });
    } catch (err) {
      // Invalid header names or values: the text names the header, never its value.
      settle(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The events of one response, queued as they are parsed. Queued events are
 * still delivered after a network failure (they arrived); after a stop they
 * are dropped.
 */
class SseEventStream implements SseEvents {
  private readonly parser = new SseParser();
  private queue: SseEvent[] = [];
  private head = 0;
  private ended = false;
  private failure: Error | null = null;
  private waiter: { resolve: (r: IteratorResult<SseEvent>) => void; reject: (e: Error) => void } | null = null;
  private paused = false;

  constructor(
    private readonly exchange: Http1Exchange,
    private readonly unlink: () => void,
  ) {}

  [Symbol.asyncIterator](): AsyncIterableIterator<SseEvent> {
    return this;
  }

  next(): Promise<IteratorResult<SseEvent>> {
    if (this.head < this.queue.length) return Promise.resolve({ value: this.take(), done: false });
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    if (this.paused) {
      this.paused = false;
      this.exchange.resume();
    }
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  takeQueued(): SseEvent | undefined {
    return this.head < this.queue.length ? this.take() : undefined;
  }

  /** The consumer stopped early: drop the connection (an unread stream cannot go back to the pool). */
  return(): Promise<IteratorResult<SseEvent>> {
    if (!this.ended && this.failure === null) this.exchange.destroy();
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

  /** The connection broke. */
  fail(err: Error): void {
    if (this.ended || this.failure !== null) return;
    const detail = `${err.message}${"code" in err && typeof err.code === "string" && !err.message.includes(err.code) ? ` (${err.code})` : ""}`;
    this.settle(new HttpNetworkError(`the connection broke mid-stream: ${detail}`, err));
  }

  onData(chunk: Buffer): void {
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
      this.exchange.pause();
    }
  }

  onEnd(): void {
    if (this.failure !== null) return;
    this.ended = true;
    this.unlink();
    if (this.waiter !== null) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve({ value: undefined, done: true });
    }
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
