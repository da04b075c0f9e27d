/**
 * What one provider request carries besides its body: the idle watch (a
 * stalled stream is given up on), the record of what the SDK client saw (an
 * error body, a malformed event), and the fetch that feeds both. The
 * Anthropic and OpenAI clients are reused across requests (building one
 * costs more than the rest of a request's client-side work), so these
 * per-request parts reach the shared client's fetch through the request's
 * `fetchOptions` (which both SDKs hand to their fetch as given).
 */
import { performance } from "node:perf_hooks";

export type FetchFunction = typeof globalThis.fetch;

/**
 * Gives up on a provider that sends nothing for `ms` while we wait on it; the
 * time the consumer holds the stream does not count. Every byte of the
 * response is a sign of life (pings included, which the SDKs skip). One
 * timer for the whole stream, re-armed for what is left when it fires early.
 */
export class IdleWatch {
  /** The timeout fired (and aborted the controller). */
  fired = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiting = false;
  /** When the current wait began, or the last byte arrived. */
  private since = 0;

  constructor(
    private readonly ms: number,
    private readonly controller: AbortController,
  ) {}

  /** We start waiting on the provider. */
  wait(): void {
    this.waiting = true;
    this.since = performance.now();
    if (this.timer === null) this.timer = IdleWatch.arm(this, this.ms);
  }

  /** Bytes arrived. */
  touch(): void {
    this.since = performance.now();
  }

  /** The provider answered: what follows is the consumer's time. */
  pause(): void {
    this.waiting = false;
  }

  stop(): void {
    this.waiting = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Unref'd: a pending check must not keep the process alive once the consumer holds (or dropped) the stream. */
  private static arm(watch: IdleWatch, ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout((w: IdleWatch) => IdleWatch.check(w), ms, watch);
    timer.unref();
    return timer;
  }

  private static check(watch: IdleWatch): void {
    watch.timer = null;
    if (!watch.waiting) return;
    const left = watch.since + watch.ms - performance.now();
    if (left > 0) {
      watch.timer = IdleWatch.arm(watch, left);
      return;
    }
    watch.fired = true;
    watch.controller.abort();
  }
}

/** Bytes of the response's end kept to find a malformed event's data (events are far smaller). */
const TAIL_BYTES = 64 * 1024;

/** What the SDK client saw: an error response's body text and headers, and the last bytes of a streamed body. */
export class FetchRecord {
  errorBody: string | undefined = undefined;
  /** `onSent`: the request body as it went out, once per request (the recorded "what the model saw"). */
  constructor(readonly onSent?: (raw: string) => void) {}
  /** An error response's headers: the retry hints, for SDKs whose errors do not keep them. */
  errorHeaders: Headers | undefined = undefined;
  private readonly tail: Uint8Array[] = [];
  private tailBytes = 0;
  /** Chunks were dropped from the front: the first kept one may start inside an event. */
  private cut = false;

  keep(chunk: Uint8Array): void {
    this.tail.push(chunk);
    this.tailBytes += chunk.byteLength;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].byteLength >= TAIL_BYTES) {
      this.tailBytes -= this.tail[0].byteLength;
      this.tail.shift();
      this.cut = true;
    }
  }

  /**
   * The data of the first complete event in the kept bytes that is not JSON:
   * the SDKs throw JSON.parse's error on it, which does not show it.
   */
  malformedData(): string | undefined {
    if (this.tail.length === 0) return undefined;
    const text = Buffer.concat(this.tail).toString("utf8").replace(/\r\n?/g, "\n");
    const events = text.split("\n\n");
    events.pop(); // not ended by a blank line: never dispatched
    for (let i = this.cut ? 1 : 0; i < events.length; i++) {
      const data = events[i]
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
        .join("\n");
      if (data === "" || data.startsWith("[DONE]")) continue;
      try {
        JSON.parse(data);
      } catch {
        return data;
      }
    }
    return undefined;
  }
}

/** Where a request's own parts travel inside its `fetchOptions`. */
const REQUEST_PARTS = Symbol("workbench.requestParts");

interface RequestParts {
  idle: IdleWatch;
  record: FetchRecord;
}

type InitWithParts = RequestInit & { [REQUEST_PARTS]?: RequestParts };

/** Extra fetch options for one SDK call (what the SDKs take: no body, method, signal or headers). */
export type RequestFetchOptions = Omit<RequestInit, "body" | "method" | "signal" | "headers">;

/** The `fetchOptions` of one request: pass them with the SDK call so the shared client's fetch finds its parts. */
export function requestFetchOptions(idle: IdleWatch, record: FetchRecord): RequestFetchOptions {
  const init: InitWithParts = { [REQUEST_PARTS]: { idle, record } };
  return init;
}

/**
 * The SDK's fetch, wrapped: every chunk of a streamed body touches the idle
 * watch (and is kept in the record's tail), and an error response's body text
 * is kept — the OpenAI SDK keeps only `body.error`, so a compatible server's
 * flat error body (Mistral's `{ object: "error", message, type, code }`) would
 * otherwise be lost.
 */
export function watchedFetch(base: FetchFunction, idle: IdleWatch, record: FetchRecord): FetchFunction {
  return async (input, init) => {
    if (record.onSent !== undefined) {
      const sent = await sentBody(input, init);
      if (sent !== undefined) record.onSent(sent);
    }
    const response = await base(input, init);
    idle.touch();
    if (!response.ok) {
      record.errorHeaders = response.headers;
      // The body only enriches the error; the status alone still reports it.
      record.errorBody = await response
        .clone()
        .text()
        .catch(() => undefined);
      return response;
    }
    if (response.body === null) return response;
    return new Response(watchedBody(response.body, idle, record), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * The request body as text, exactly as handed to fetch: a string (the
 * Anthropic, OpenAI and Gemini SDKs), bytes, or a Request (the AWS SDK).
 * A streamed body is not read (no SDK we use sends one).
 */
async function sentBody(input: Parameters<FetchFunction>[0], init: RequestInit | undefined): Promise<string | undefined> {
  const body = init?.body;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body));
  if (body === undefined && input instanceof Request && input.body !== null) return input.clone().text();
  return undefined;
}

/**
 * The response body, each chunk touching the idle watch and kept in the
 * record's tail as the SDK reads it. A pull source reading the original body
 * one chunk per read, not `pipeThrough` a TransformStream: a pipe costs a
 * writer and several promises per chunk (docs/performance.md#what-the-hot-path-does).
 * Errors (an abort, a reset connection) reach the reader as the body's own;
 * cancelling it (the SDK stops early) cancels the body.
 */
function watchedBody(body: ReadableStream<Uint8Array>, idle: IdleWatch, record: FetchRecord): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        idle.touch();
        record.keep(value);
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    // Read from the body only when the SDK reads: chunks wait in the body's own queue, not in a second one.
    { highWaterMark: 0 },
  );
}

/** A fetch for a shared client: each call is watched with the parts its request put in `fetchOptions`. */
function routingFetch(base: FetchFunction): FetchFunction {
  return (input, init) => {
    const { [REQUEST_PARTS]: parts, ...rest }: InitWithParts = init ?? {};
    if (parts === undefined) return base(input, init);
    return watchedFetch(base, parts.idle, parts.record)(input, rest);
  };
}

/** What a shared SDK client is built with (no per-request parts). */
export interface SharedClientSettings {
  baseURL: string;
  apiKey: string;
  fetch: FetchFunction;
  maxRetries: 0;
  defaultHeaders: Record<string, string> | undefined;
  /** The SDKs log nothing we keep: a malformed event's data is read from the record's tail instead. */
  logLevel: "off";
  /** The SDKs' own timeout ends at the response headers; the idle watch covers the whole stream. */
  timeout: number;
}

/** Distinct settings kept per base fetch; a few at most in practice (one per provider and key). */
const CLIENTS_PER_FETCH = 16;
const clientsByFetch = new WeakMap<FetchFunction, Map<string, unknown>>();

/**
 * The client of `kind` for these settings, built once and reused: SDK clients
 * are made for many concurrent requests. Keyed by the base fetch (network
 * settings change it) and everything else the client is built with.
 */
export function sharedClient<T>(
  kind: string,
  settings: Omit<SharedClientSettings, "fetch" | "maxRetries" | "logLevel">,
  base: FetchFunction,
  make: (settings: SharedClientSettings) => T,
): T {
  let clients = clientsByFetch.get(base);
  if (clients === undefined) clientsByFetch.set(base, (clients = new Map<string, unknown>()));
  const headers = settings.defaultHeaders === undefined ? "" : JSON.stringify(settings.defaultHeaders);
  const key = [kind, settings.baseURL, settings.apiKey, settings.timeout, headers].join("\u0000");
  let client = clients.get(key) as T | undefined;
  if (client === undefined) {
    client = make({ ...settings, fetch: routingFetch(base), maxRetries: 0, logLevel: "off" });
    if (clients.size >= CLIENTS_PER_FETCH) clients.delete(clients.keys().next().value as string);
    clients.set(key, client);
  }
  return client;
}
