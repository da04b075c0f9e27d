/**
 * What the three adapters share: the abort link, the base URL choice, the
 * secrets to redact, and the run loop that turns "SDK call + event handler"
 * into a stream that never throws.
 */
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
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

/** Thrown by adapters when the stream ends without its terminal event. */
export class TruncatedStreamError extends Error {
  constructor(what: string) {
    super(`network error: the stream ended before ${what} (connection closed early)`);
    this.name = "TruncatedStreamError";
  }
}

/** Thrown by adapters when their signal fired; runStream decides what it means (user abort or idle timeout). */
export class StreamStoppedError extends Error {
  constructor() {
    super("stream stopped");
    this.name = "StreamStoppedError";
  }
}

export function throwIfStopped(signal: AbortSignal): void {
  if (signal.aborted) throw new StreamStoppedError();
}

export interface AdapterConfig {
  /**
   * Give up on a stream that sends nothing for this long (a stalled connection
   * otherwise hangs forever: the SDK timeouts stop at the response headers).
   * Generous by default, since reasoning models can be silent for minutes.
   */
  idleTimeoutMs?: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

export interface RunContext {
  state: StreamState;
  signal: AbortSignal;
  /** Pass to the SDK client: records the body of a failed response for the error message. */
  fetch: typeof fetch;
  /** Call on every event from the provider (pings included): the connection is alive. */
  alive: () => void;
}

/** A timer that runs only while we wait on the provider, restarted by every sign of life. */
function idleWatch(ms: number, onIdle: () => void) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(onIdle, ms);
  };
  return {
    arm,
    alive: () => {
      if (timer !== null) arm();
    },
    disarm: () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * A fetch that remembers the last error response's body text. The OpenAI SDK
 * keeps only `body.error`, so a compatible server's flat error body (Mistral's
 * `{ object: "error", message, type, code }`) would otherwise be lost.
 */
function recordingFetch(): { fetch: typeof fetch; lastErrorBody: () => string | undefined } {
  let last: string | undefined;
  const wrapped: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!response.ok) {
      last = await response
        .clone()
        .text()
        .catch(() => undefined);
    }
    return response;
  };
  return { fetch: wrapped, lastErrorBody: () => last };
}

/**
 * Contract: never throws. Runs `body` (which yields the stream's events and
 * returns the final ones), and turns any failure into the final `error` event,
 * `aborted` when the caller's signal fired.
 */
export async function* runStream(
  model: ModelInfo,
  costOf: CostFunction,
  options: StreamOptions,
  config: AdapterConfig,
  body: (ctx: RunContext) => AsyncGenerator<StreamEvent, StreamEvent[], void>,
): AsyncGenerator<StreamEvent, void, void> {
  const state = new StreamState(model, costOf);
  const { controller, unlink } = linkAbort(options.signal);
  const recording = recordingFetch();
  const idleMs = config.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  let idleFired = false;
  const idle = idleWatch(idleMs, () => {
    idleFired = true;
    controller.abort();
  });
  let finished = false;
  try {
    yield state.start();
    const generator = body({ state, signal: controller.signal, fetch: recording.fetch, alive: idle.alive });
    let final: StreamEvent[];
    try {
      while (true) {
        // Only time spent waiting on the provider counts, not time the consumer takes.
        idle.arm();
        const step = await generator.next();
        idle.disarm();
        if (step.done) {
          final = step.value;
          break;
        }
        yield step.value;
      }
    } catch (err) {
      idle.disarm();
      if (options.signal?.aborted) final = state.fail("aborted");
      else if (idleFired) {
        final = state.fail({
          message: `network error: no data from the provider for ${Math.round(idleMs / 1000)} s (stalled stream)`,
          retryable: true,
          contextOverflow: false,
        });
      } else final = state.fail(failureOf(err, options, recording.lastErrorBody()));
    }
    // The SDKs end iteration quietly on abort, so check the signal explicitly.
    if (options.signal?.aborted && !final.some((e) => e.type === "error" && e.message.stopReason === "aborted")) {
      final = state.fail("aborted");
    }
    finished = true;
    for (const event of final) yield event;
  } finally {
    idle.disarm();
    unlink();
    // The consumer stopped early (break/return): release the connection.
    if (!finished) controller.abort();
  }
}

function failureOf(err: unknown, options: StreamOptions, rawBody: string | undefined) {
  if (err instanceof TruncatedStreamError) {
    return { message: err.message, retryable: true, contextOverflow: false };
  }
  return describeFailure(err, secretsOf(options), rawBody);
}
