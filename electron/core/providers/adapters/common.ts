/**
 * What the three adapters share: the abort link, the base URL choice, the
 * secrets to redact, and the run loop that turns "HTTP call + event handler"
 * into a stream that never throws.
 */
import { performance } from "node:perf_hooks";
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import { bodyText, type BodyChunk } from "../requests/json-body";
import { postSse, ProviderApiError, StreamStoppedError, type SseEvent, type SseEvents, type SseResponse } from "../http";
import type { StreamEvent, StreamOptions } from "../types";
import { describeFailure } from "./errors";
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

/** Sends a built body (shown to `onRequestBody` first, as the JSON it is) and opens the response's event stream. */
export function sendBody(url: string, headers: Record<string, string>, body: BodyChunk[], options: StreamOptions, signal: AbortSignal): Promise<SseResponse> {
  if (options.onRequestBody) options.onRequestBody(JSON.parse(bodyText(body)));
  return postSse({ url, headers, body, signal });
}

/** Thrown by adapters when the stream ends without its terminal event. */
export class TruncatedStreamError extends Error {
  constructor(what: string) {
    super(`network error: the stream ended before ${what} (connection closed early)`);
    this.name = "TruncatedStreamError";
  }
}

/** The signal fired (by the transport's stop error, or here): runStream decides what it means (user abort or idle timeout). */
function throwIfStopped(signal: AbortSignal): void {
  if (signal.aborted) throw new StreamStoppedError();
}

export interface AdapterConfig {
  /**
   * Give up on a stream that sends nothing for this long (a stalled connection
   * otherwise hangs forever). It also covers the wait for the response headers.
   * Generous by default, since reasoning models can be silent for minutes.
   */
  idleTimeoutMs?: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

export interface RunContext {
  state: StreamState;
  /** Pass to the transport: aborts the request (user stop, idle timeout, consumer gone). */
  signal: AbortSignal;
}

/**
 * One provider response as an adapter reads it: runStream pulls the events
 * and hands each one over, so no generator of the adapter's own stands
 * between the transport and the consumer (each such layer costs promises and
 * microtask hops per event).
 */
export interface ResponseReader {
  /** The transport's events (pings included: every one is a sign of life). */
  readonly events: SseEvents;
  /** Folds one event into the state, pushing the neutral events it makes onto `out`; throws a failure the provider reported. */
  onEvent(sse: SseEvent, out: StreamEvent[]): void;
  /** The events ended: the final events, or a throw (TruncatedStreamError) when the terminal event never came. */
  finish(): StreamEvent[];
}

/**
 * Gives up on a provider that sends nothing for `ms` while we wait on it; the
 * time the consumer holds the stream does not count. One timer for the whole
 * stream: each wait only notes the time, and the timer, when it fires early,
 * re-arms for what is left (a clearTimeout + setTimeout per event cost more
 * than the event's own work).
 */
class IdleWatch {
  /** The timeout fired (and aborted the controller). */
  fired = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiting = false;
  /** When the current wait began (every event from the provider ends one). */
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

  /** The provider answered: what follows is the consumer's time. */
  pause(): void {
    this.waiting = false;
  }

  stop(): void {
    this.waiting = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Unref'd: while we wait, the request's socket keeps the process alive; once
   * the consumer holds the stream (or drops it without closing it), a pending
   * check must not.
   */
  private static arm(watch: IdleWatch, ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(IdleWatch.check, ms, watch);
    timer.unref();
    return timer;
  }

  private static check(watch: IdleWatch): void {
    watch.timer = null;
    // Not waiting: the next wait arms the timer again.
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

/**
 * Contract: never throws. Opens the response (`open` sends the request and
 * returns its reader), feeds it every event, and turns any failure into the
 * final `error` event, `aborted` when the caller's signal fired. A consumer
 * that stops early releases the connection.
 */
export async function* runStream(
  model: ModelInfo,
  costOf: CostFunction,
  options: StreamOptions,
  config: AdapterConfig,
  open: (ctx: RunContext) => Promise<ResponseReader>,
): AsyncGenerator<StreamEvent, void, void> {
  const state = new StreamState(model, costOf);
  const { controller, unlink } = linkAbort(options.signal);
  const idleMs = config.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const idle = new IdleWatch(idleMs, controller);
  let finished = false;
  try {
    yield state.start();
    let final: StreamEvent[];
    try {
      // Only time spent waiting on the provider counts, not time the consumer takes.
      idle.wait();
      const reader = await open({ state, signal: controller.signal });
      const out: StreamEvent[] = [];
      const { events } = reader;
      // for await: the transport's iterator is closed (the connection dropped) when onEvent throws or the consumer stops.
      for await (const first of events) {
        idle.pause();
        // Events already parsed are taken without a promise round each.
        for (let sse: SseEvent | undefined = first; sse !== undefined; sse = events.takeQueued()) {
          reader.onEvent(sse, out);
          for (let i = 0; i < out.length; i++) yield out[i];
          out.length = 0;
        }
        idle.wait();
      }
      idle.stop();
      throwIfStopped(controller.signal);
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
      } else final = state.fail(failureOf(err, options));
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

function failureOf(err: unknown, options: StreamOptions) {
  if (err instanceof TruncatedStreamError) {
    return { message: err.message, retryable: true, contextOverflow: false };
  }
  // The raw body keeps a compatible server's flat error body (Mistral's `{ object: "error", message, type, code }`).
  return describeFailure(err, secretsOf(options), err instanceof ProviderApiError ? err.rawBody : undefined);
}
