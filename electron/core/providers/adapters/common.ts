/**
 * What the three adapters share: the abort link, the base URL choice, the
 * secrets to redact, the fetch handed to the SDK clients, and the run loop
 * that turns "SDK call + event handler" into a stream that never throws.
 */
import { performance } from "node:perf_hooks";
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, ProviderAdapter, StreamEvent, StreamOptions } from "../types";
import { describeFailure, redactSecrets } from "./errors";
import { StreamState, type CostFunction } from "./stream-state";

export function baseUrlOf(provider: ProviderConfig, options: Pick<StreamOptions, "baseUrl">): string {
  return (options.baseUrl ?? provider.baseUrl).replace(/\/+$/, "");
}

const SECRET_HEADER = /key|token|secret|auth|cookie|password/i;

/** The key plus secret-looking header values: any of them may be echoed back in an error text. */
export function secretsOf(options: Pick<StreamOptions, "apiKey" | "headers">): string[] {
  const headerSecrets = Object.entries(options.headers ?? {})
    .filter(([name]) => SECRET_HEADER.test(name))
    .map(([, value]) => value.replace(/^(Bearer|Basic)\s+/i, ""));
  return [options.apiKey, ...headerSecrets].filter((v): v is string => typeof v === "string" && v.length > 0);
}

/** A controller aborted when the caller's signal aborts or the consumer stops iterating. */
export function linkAbort(signal: AbortSignal | undefined): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  if (!signal) return { controller, unlink: () => {} };
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return { controller, unlink: () => signal.removeEventListener("abort", onAbort) };
}

/** Thrown by adapters when the stream ends without its terminal event. */
export class TruncatedStreamError extends Error {
  constructor(what: string) {
    super(`network error: the stream ended before ${what} (connection closed early)`);
    this.name = "TruncatedStreamError";
  }
}

/** The signal fired: runStream decides what it means (user abort or idle timeout). */
class StreamStoppedError extends Error {
  constructor() {
    super("stream stopped");
    this.name = "StreamStoppedError";
  }
}

export type FetchFunction = typeof globalThis.fetch;

export interface AdapterConfig {
  /**
   * Give up on a stream that sends nothing for this long (a stalled connection
   * otherwise hangs forever: the SDKs' timeouts stop at the response headers).
   * It also covers the wait for the headers. Generous by default, since
   * reasoning models can be silent for minutes.
   */
  idleTimeoutMs?: number;
  /**
   * The fetch the SDK clients use when the call brings none (`StreamOptions.fetch`):
   * the runtime's global fetch by default.
   */
  fetch?: FetchFunction;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

/** An adapter from its wire's stream function and request builder (the body `stream` would send). */
export function defineAdapter(
  api: ProviderAdapter["api"],
  config: AdapterConfig,
  stream: (
    config: AdapterConfig,
    model: ModelInfo,
    provider: ProviderConfig,
    context: LlmContext,
    options: StreamOptions,
  ) => AsyncIterable<StreamEvent>,
  build: (model: ModelInfo, provider: ProviderConfig, context: LlmContext, options: Partial<StreamOptions>) => { body: unknown },
): ProviderAdapter {
  return {
    api,
    stream: (model, provider, context, options) => stream(config, model, provider, context, options),
    buildRequestBody: (model, provider, context, options = {}) => build(model, provider, context, options).body,
  };
}

/** What every SDK client gets: no retries of its own (the agent loop owns retries and retry-after), no logging. */
export interface ClientSettings {
  baseURL: string;
  apiKey: string;
  fetch: FetchFunction;
  maxRetries: 0;
  defaultHeaders: Record<string, string> | undefined;
  /** Errors only, to a logger that keeps the one thing worth keeping (see `sdkLogger`). */
  logLevel: "error";
  logger: SdkLogger;
  /** The SDKs' own timeout ends at the response headers; ours (idleTimeoutMs) covers the whole stream. */
  timeout: number;
}

export interface RunContext {
  state: StreamState;
  /** Pass to the SDK call: aborts the request (user stop, idle timeout, consumer gone). */
  signal: AbortSignal;
  /** The settings to build the SDK client with. */
  client: ClientSettings;
}

/**
 * One provider response as an adapter reads it: runStream pulls the SDK
 * stream's events and hands each one over.
 */
export interface ResponseReader {
  /** The SDK's stream of parsed events. */
  readonly events: AsyncIterable<unknown>;
  /** Folds one event into the state, pushing the neutral events it makes onto `out`; throws a failure the provider reported. */
  onEvent(event: unknown, out: StreamEvent[]): void;
  /** The events ended: the final events, or a throw (TruncatedStreamError) when the terminal event never came. */
  finish(): StreamEvent[];
}

/**
 * Gives up on a provider that sends nothing for `ms` while we wait on it; the
 * time the consumer holds the stream does not count. Every byte of the
 * response is a sign of life (pings included, which the SDKs skip). One
 * timer for the whole stream, re-armed for what is left when it fires early.
 */
class IdleWatch {
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

/** What the SDK client saw: an error response's body text and the data of a malformed event, for the error message. */
interface FetchRecord {
  errorBody: string | undefined;
  malformed: string | undefined;
}

type LogFunction = (message: string, ...rest: unknown[]) => void;
interface SdkLogger {
  error: LogFunction;
  warn: LogFunction;
  info: LogFunction;
  debug: LogFunction;
}

const ignore: LogFunction = () => {};

/**
 * The SDKs log nothing else we want, but they log the data of an event that
 * is not JSON (and then throw JSON.parse's error, which does not show it):
 * kept for the error message. Nothing reaches the console.
 */
function sdkLogger(record: FetchRecord): SdkLogger {
  return {
    error: (message, data) => {
      if (message.startsWith("Could not parse message into JSON") && typeof data === "string") record.malformed ??= data;
    },
    warn: ignore,
    info: ignore,
    debug: ignore,
  };
}

/**
 * The SDK's fetch, wrapped: every chunk of a streamed body touches the idle
 * watch, and an error response's body text is kept — the OpenAI SDK keeps only
 * `body.error`, so a compatible server's flat error body (Mistral's
 * `{ object: "error", message, type, code }`) would otherwise be lost.
 */
function watchedFetch(base: FetchFunction, idle: IdleWatch, record: FetchRecord): FetchFunction {
  return async (input, init) => {
    const response = await base(input, init);
    idle.touch();
    if (!response.ok) {
      // The body only enriches the error; the status alone still reports it.
      record.errorBody = await response
        .clone()
        .text()
        .catch(() => undefined);
      return response;
    }
    if (response.body === null) return response;
    const touched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          idle.touch();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(touched, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * Contract: never throws. Opens the response (`open` builds the SDK client
 * from `ctx.client`, sends the request and returns its reader), feeds it
 * every event, and turns any failure into the final `error` event, `aborted`
 * when the caller's signal fired. A consumer that stops early releases the
 * connection.
 */
export async function* runStream(
  model: ModelInfo,
  costOf: CostFunction,
  options: StreamOptions,
  config: AdapterConfig,
  baseURL: string,
  open: (ctx: RunContext) => Promise<ResponseReader>,
): AsyncGenerator<StreamEvent, void, void> {
  const state = new StreamState(model, costOf);
  const { controller, unlink } = linkAbort(options.signal);
  const idleMs = config.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const idle = new IdleWatch(idleMs, controller);
  const record: FetchRecord = { errorBody: undefined, malformed: undefined };
  const client: ClientSettings = {
    baseURL,
    // Local servers need no key, but the SDKs insist on one.
    apiKey: options.apiKey || "no-key",
    fetch: watchedFetch(options.fetch ?? config.fetch ?? globalThis.fetch, idle, record),
    maxRetries: 0,
    defaultHeaders: options.headers,
    logLevel: "error",
    logger: sdkLogger(record),
    timeout: idleMs,
  };
  let finished = false;
  try {
    yield state.start();
    let final: StreamEvent[];
    try {
      // Only time spent waiting on the provider counts, not time the consumer takes.
      idle.wait();
      const reader = await open({ state, signal: controller.signal, client });
      const out: StreamEvent[] = [];
      // for await: the SDK's iterator is closed (the request aborted) when onEvent throws or the consumer stops.
      for await (const event of reader.events) {
        idle.pause();
        reader.onEvent(event, out);
        for (let i = 0; i < out.length; i++) yield out[i];
        out.length = 0;
        idle.wait();
      }
      idle.stop();
      // The SDKs end a stream quietly when its signal fires.
      if (controller.signal.aborted) throw new StreamStoppedError();
      final = reader.finish();
    } catch (err) {
      idle.stop();
      if (options.signal?.aborted) final = state.fail("aborted");
      else if (idle.fired) {
        final = state.fail({
          message: `network error: no data from the provider for ${Math.round(idleMs / 1000)} s (stalled stream)`,
          retryable: true,
          contextOverflow: false,
        });
      } else final = state.fail(failureOf(err, options, record, baseURL));
    }
    // An adapter may end quietly after an abort, so check the signal explicitly.
    if (options.signal?.aborted && !final.some((e) => e.type === "error" && e.message.stopReason === "aborted")) {
      final = state.fail("aborted");
    }
    finished = true;
    for (const event of final) yield event;
  } finally {
    idle.stop();
    unlink();
    // The consumer stopped early (break/return): release the connection.
    if (!finished) controller.abort();
  }
}

function failureOf(err: unknown, options: StreamOptions, record: FetchRecord, baseURL: string) {
  if (err instanceof TruncatedStreamError) {
    return { message: err.message, retryable: true, contextOverflow: false };
  }
  if (err instanceof SyntaxError) {
    // The SDKs parse each event's data with JSON.parse and throw what it throws.
    const data = record.malformed;
    const snippet = data === undefined ? err.message : data.length > 120 ? `${data.slice(0, 120)}…` : data;
    const message = redactSecrets(`malformed stream event from the provider (data is not JSON): ${snippet}`, secretsOf(options));
    return { message, retryable: false, contextOverflow: false };
  }
  const httpError = typeof err === "object" && err !== null && "status" in err && typeof err.status === "number";
  return describeFailure(err, secretsOf(options), httpError ? record.errorBody : undefined, hostOf(baseURL));
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    // Only used to name the host in an error message.
    return undefined;
  }
}
