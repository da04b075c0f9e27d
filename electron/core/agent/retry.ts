/** Backoff for retryable provider errors (429, 5xx, 529, network). */

export const MAX_RETRIES = 3;
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;

/**
 * Delay before retry number `attempt` (1-based): the provider's `retry-after`
 * when it sent one, else exponential backoff with jitter.
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return Math.min(retryAfterMs, MAX_DELAY_MS);
  }
  const exp = BASE_DELAY_MS * 2 ** (attempt - 1);
  return Math.min(exp * (0.5 + random() / 2), MAX_DELAY_MS);
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
