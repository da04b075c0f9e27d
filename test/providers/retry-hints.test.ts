/**
 * The provider's wait before the next request, read from whatever fetch made
 * the response: the `undici` package's Headers (web mode, headless runs) are
 * not the runtime's `Headers` class, and were never read (a 429 with
 * retry-after: 3600 was retried after 676 ms).
 */
import { Headers as UndiciHeaders } from "undici";
import { describe, expect, it } from "vitest";
import { MAX_RETRY_WAIT_MS, formatWait, planRetry } from "../../electron/core/agent/retry";
import { describeFailure } from "../../electron/core/providers/adapters/errors";
import { parseDuration, retryHintMs } from "../../electron/core/providers/adapters/retry-hints";

const NOW = Date.parse("2026-03-01T12:00:00Z");

/** An SDK APIError as the SDKs throw it over undici's fetch: its headers are the response's (undici) Headers. */
function apiError(
  status: number,
  headers: Record<string, string>,
  body: unknown = { error: { type: "rate_limit_error", message: "slow down" } },
) {
  return Object.assign(new Error(`${status} slow down`), { status, headers: new UndiciHeaders(headers), error: body });
}

describe("retry hints through undici's Headers", () => {
  it("a 429 with retry-after: 3600 from undici's fetch asks for an hour", () => {
    const headers = new UndiciHeaders({ "retry-after": "3600" });
    expect(headers instanceof globalThis.Headers).toBe(false);
    const failure = describeFailure(apiError(429, { "retry-after": "3600" }), []);
    expect(failure.retryable).toBe(true);
    expect(failure.retryAfterMs).toBe(3_600_000);
  });

  it("retry-after-ms first, then retry-after in seconds or as an HTTP date", () => {
    expect(retryHintMs(new UndiciHeaders({ "retry-after-ms": "150", "retry-after": "3" }), undefined, undefined, NOW)).toBe(150);
    expect(retryHintMs(new UndiciHeaders({ "retry-after": "2.5" }), undefined, undefined, NOW)).toBe(2500);
    expect(retryHintMs(new UndiciHeaders({ "retry-after": "Sun, 01 Mar 2026 12:00:42 GMT" }), undefined, undefined, NOW)).toBe(42_000);
    expect(retryHintMs(new UndiciHeaders({ "retry-after": "soon" }), undefined, undefined, NOW)).toBeUndefined();
  });

  it("Anthropic's and OpenAI's rate-limit resets count for a limit that is used up, not for one that is not", () => {
    const anthropic = new UndiciHeaders({
      "anthropic-ratelimit-requests-remaining": "10",
      "anthropic-ratelimit-requests-reset": "2026-03-01T12:00:05Z",
      "anthropic-ratelimit-tokens-remaining": "0",
      "anthropic-ratelimit-tokens-reset": "2026-03-01T12:00:20Z",
    });
    expect(retryHintMs(anthropic, undefined, undefined, NOW)).toBe(20_000);
    const openai = new UndiciHeaders({
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "1m30s",
      "x-ratelimit-remaining-tokens": "5000",
      "x-ratelimit-reset-tokens": "6m0s",
    });
    expect(retryHintMs(openai, undefined, undefined, NOW)).toBe(90_000);
    expect(parseDuration("20ms")).toBe(20);
    expect(parseDuration("1h2m3.5s")).toBe(3_723_500);
    expect(parseDuration("soon")).toBeUndefined();
  });

  it("Google's RetryInfo in the body, and 'try again in 2s' in the message, when no header says it", () => {
    const gemini = {
      error: {
        code: 429,
        status: "RESOURCE_EXHAUSTED",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "37s" }],
      },
    };
    expect(retryHintMs(new UndiciHeaders({}), gemini, undefined, NOW)).toBe(37_000);
    expect(retryHintMs(undefined, undefined, "Rate limit reached for gpt-4.1 … Please try again in 2s. Visit …", NOW)).toBe(2000);
  });

  it("a client that drops the headers (Gemini's) still gets the response's", () => {
    const err = Object.assign(new Error("429 quota"), { status: 429, error: { type: "RESOURCE_EXHAUSTED", message: "quota" } });
    const failure = describeFailure(err, [], undefined, undefined, new UndiciHeaders({ "retry-after": "12" }));
    expect(failure.retryAfterMs).toBe(12_000);
  });
});

describe("the retry plan", () => {
  it("waits exactly what the provider asked, up to the cap; past it, it does not retry on its own", () => {
    expect(planRetry(1, 3000)).toEqual({ retry: true, delayMs: 3000, hinted: true });
    expect(planRetry(1, MAX_RETRY_WAIT_MS)).toEqual({ retry: true, delayMs: MAX_RETRY_WAIT_MS, hinted: true });
    expect(planRetry(1, 3_600_000)).toEqual({ retry: false, waitMs: 3_600_000 });
    const backoff = planRetry(2, undefined, () => 0.5);
    expect(backoff).toEqual({ retry: true, delayMs: 1500, hinted: false });
    expect(formatWait(3_600_000)).toBe("1 h");
    expect(formatWait(90_000)).toBe("2 min");
    expect(formatWait(2500)).toBe("3 s");
  });
});
