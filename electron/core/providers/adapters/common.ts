/**
 * What the three adapters share: the abort link, the base URL choice, the
 * secrets to redact, the fetch handed to the SDK clients, and the run loop
 * that turns "SDK call + event handler" into a stream that never throws.
 */
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, ProviderAdapter, StreamEvent, StreamOptions } from "../types";
import { describeFailure, redactSecrets } from "./errors";
import { computeCost } from "./deps";
import { StreamState } from "./stream-state";
import {
  FetchRecord,
  IdleWatch,
  requestFetchOptions,
  sharedClient,
  watchedFetch,
  type FetchFunction,
  type RequestFetchOptions,
  type SharedClientSettings,
} from "./request-watch";

function baseUrlOf(provider: ProviderConfig, options: Pick<StreamOptions, "baseUrl">): string {
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

export type { FetchFunction } from "./request-watch";

export interface AdapterConfig {
  /**
   * Give up on a stream that sends nothing for this long (a stalled connection
   * otherwise hangs until the HTTP library's own timeout, 300 s in undici,
   * reported as a broken connection). It also covers the wait for the
   * headers. Default DEFAULT_IDLE_TIMEOUT_MS; a call's own
   * `StreamOptions.idleTimeoutMs` wins.
   */
  idleTimeoutMs?: number;
  /**
   * The fetch the SDK clients use when the call brings none (`StreamOptions.fetch`):
   * the runtime's global fetch by default.
   */
  fetch?: FetchFunction;
}

/**
 * Two minutes without a byte (pings count): providers that think for long
 * send pings or events meanwhile. Below every transport's own timeout
 * (network/node-fetch.ts), so ours ends the stall and says so
 * (docs/networks.md#retries-and-stalled-streams).
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 120 * 1000;

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

/** What a client built for one request gets (Gemini, Bedrock): its fetch is this request's, watched. */
export interface ClientSettings {
  baseURL: string;
  apiKey: string;
  fetch: FetchFunction;
  maxRetries: 0;
  defaultHeaders: Record<string, string> | undefined;
  /** The SDKs' own timeout ends at the response headers; ours (idleTimeoutMs) covers the whole stream. */
  timeout: number;
}

export interface RunContext {
  state: StreamState;
  /** Pass to the SDK call: aborts the request (user stop, idle timeout, consumer gone). */
  signal: AbortSignal;
  /** The settings to build a per-request SDK client with. */
  client: ClientSettings;
  /**
   * The reused client of `kind` for this request's settings (request-watch.ts);
   * the call must pass `fetchOptions` along with `signal`.
   */
  shared: <T>(kind: string, make: (settings: SharedClientSettings) => T) => T;
  /** This request's own parts, for a call on a shared client. */
  fetchOptions: RequestFetchOptions;
}

/**
 * One provider response as an adapter reads it: runStream pulls the SDK
 * stream's events and hands each one over.
 */
export interface ResponseReader {
  /** The SDK's stream of parsed events (or, for a non-streaming call, its answer as events). */
  readonly events: AsyncIterable<unknown> | Iterable<unknown>;
  /** Folds one event into the state, pushing the neutral events it makes onto `out`; throws a failure the provider reported. */
  onEvent(event: unknown, out: StreamEvent[]): void;
  /** The events ended: the final events, or a throw (TruncatedStreamError) when the terminal event never came. */
  finish(): StreamEvent[];
}

/**
 * Contract: never throws. Opens the response (`open` builds the SDK client
 * from `ctx.client`, sends the request and returns its reader), feeds it
 * every event, and turns any failure into the final `error` event, `aborted`
 * when the caller's signal fired. A consumer that stops early releases the
 * connection.
 */
export async function* runStream(
  config: AdapterConfig,
  model: ModelInfo,
  provider: ProviderConfig,
  options: StreamOptions,
  open: (ctx: RunContext) => Promise<ResponseReader>,
): AsyncGenerator<StreamEvent, void, void> {
  const baseURL = baseUrlOf(provider, options);
  const state = new StreamState(model, computeCost);
  const { controller, unlink } = linkAbort(options.signal);
  const idleMs = options.idleTimeoutMs ?? config.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const idle = new IdleWatch(idleMs, controller);
  const record = new FetchRecord(options.onSentBody);
  const base = options.fetch ?? config.fetch ?? globalThis.fetch;
  // Local servers need no key, but the SDKs insist on one.
  const apiKey = options.apiKey || "no-key";
  const client: ClientSettings = {
    baseURL,
    apiKey,
    fetch: watchedFetch(base, idle, record),
    maxRetries: 0,
    defaultHeaders: options.headers,
    timeout: idleMs,
  };
  const shared = <T>(kind: string, make: (settings: SharedClientSettings) => T): T =>
    sharedClient(kind, { baseURL, apiKey, defaultHeaders: options.headers, timeout: idleMs }, base, make);
  const fetchOptions = requestFetchOptions(idle, record);
  let finished = false;
  try {
    yield state.start();
    let final: StreamEvent[];
    try {
      // Only time spent waiting on the provider counts, not time the consumer takes.
      idle.wait();
      const reader = await open({ state, signal: controller.signal, client, shared, fetchOptions });
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
          message: `stalled stream: no data from the provider for ${formatIdle(idleMs)}; the app stopped waiting`,
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

/** "120 s", "1.5 s": the idle timeout as the error message says it. */
function formatIdle(ms: number): string {
  return `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;
}

function failureOf(err: unknown, options: StreamOptions, record: FetchRecord, baseURL: string) {
  if (err instanceof TruncatedStreamError) {
    return { message: err.message, retryable: true, contextOverflow: false };
  }
  if (err instanceof SyntaxError) {
    // The SDKs parse each event's data with JSON.parse and throw what it throws.
    const data = record.malformedData();
    const snippet = data === undefined ? err.message : data.length > 120 ? `${data.slice(0, 120)}…` : data;
    const message = redactSecrets(`malformed stream event from the provider (data is not JSON): ${snippet}`, secretsOf(options));
    return { message, retryable: false, contextOverflow: false };
  }
  const httpError = typeof err === "object" && err !== null && "status" in err && typeof err.status === "number";
  return describeFailure(
    err,
    secretsOf(options),
    httpError ? record.errorBody : undefined,
    hostOf(baseURL),
    httpError ? record.errorHeaders : undefined,
  );
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    // Only used to name the host in an error message.
    return undefined;
  }
}
