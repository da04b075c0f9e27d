/**
 * Retries of retryable provider errors (429, 5xx, 529, network): when, and
 * whether at all. The provider's own wait (retry-after and the other hints,
 * providers/adapters/retry-hints.ts) is honoured exactly, never shortened;
 * past MAX_RETRY_WAIT_MS the turn does not wait on its own but ends saying
 * how long the provider asked for. Without a hint: exponential backoff with
 * jitter. See docs/networks.md#retries-and-stalled-streams.
 */

export const MAX_RETRIES = 3;
const BASE_DELAY_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;
/** The longest wait the turn sits through on its own; a provider asking for more gets a message instead. */
export const MAX_RETRY_WAIT_MS = 5 * 60_000;

export type RetryPlan =
  /** `hinted`: the wait is the provider's, not our backoff. */
  | { retry: true; delayMs: number; hinted: boolean }
  /** The provider asked for longer than the cap: stop and say so. */
  | { retry: false; waitMs: number };

/** The plan for retry number `attempt` (1-based) after an error that carried `retryAfterMs` (or none). */
export function planRetry(attempt: number, retryAfterMs: number | undefined, random: () => number = Math.random): RetryPlan {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return retryAfterMs <= MAX_RETRY_WAIT_MS
      ? { retry: true, delayMs: retryAfterMs, hinted: true }
      : { retry: false, waitMs: retryAfterMs };
  }
  const exp = BASE_DELAY_MS * 2 ** (attempt - 1);
  return { retry: true, delayMs: Math.min(exp * (0.5 + random() / 2), MAX_BACKOFF_MS), hinted: false };
}

/** "45 s", "5 min", "1 h 30 min": a wait in words. */
export function formatWait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.ceil(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
}

/** Appended to the error of a request not retried because the provider asked for longer than MAX_RETRY_WAIT_MS. */
export function waitTooLongNote(waitMs: number, now: number): string {
  const until = new Date(now + waitMs).toISOString().slice(0, 16).replace("T", " ");
  return `(the provider asks to wait ${formatWait(waitMs)} before the next request (until ${until} UTC), longer than the app waits on its own (${formatWait(MAX_RETRY_WAIT_MS)}): retry after that)`;
}

/** Resolves after `ms`, or rejects with an AbortError as soon as `signal` aborts. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export function abortError(): Error {
  const err = new Error("aborted");
  err.name = "AbortError";
  return err;
}
