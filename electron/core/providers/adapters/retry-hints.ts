/**
 * When a provider says to try again: read from a failed response's headers
 * and body, whatever fetch made them. The Headers of the `undici` package
 * (web mode, headless runs) are not the runtime's own `Headers` class, nor
 * are Electron's; any object with a `get(name)` is read through it, and a
 * plain record by its keys in any case.
 *
 * Hints, first found wins:
 * 1. `retry-after-ms` (milliseconds; OpenAI's SDKs honour it);
 * 2. `retry-after`: seconds, or an HTTP date;
 * 3. the reset of a rate limit the response says is used up: Anthropic's
 *    `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-reset`
 *    (RFC 3339 times) and OpenAI's `x-ratelimit-reset-{requests,tokens}`
 *    (durations such as `6m0s`, `20ms`), where `…-remaining` is 0;
 * 4. Google's `RetryInfo` in the error body (`"retryDelay": "30s"`);
 * 5. "Please try again in 2s" / "in 1m30s" in the error message (OpenAI).
 */

export function headerGetter(headers: unknown): (name: string) => string | undefined {
  if (typeof headers === "object" && headers !== null && typeof (headers as { get?: unknown }).get === "function") {
    const get = (headers as { get(name: string): unknown }).get.bind(headers);
    return (name) => {
      const value = get(name);
      return typeof value === "string" ? value : undefined;
    };
  }
  if (typeof headers === "object" && headers !== null) {
    const record = headers as Record<string, unknown>;
    return (name) => {
      for (const [key, value] of Object.entries(record)) {
        if (key.toLowerCase() === name && typeof value === "string") return value;
        if (key.toLowerCase() === name && Array.isArray(value) && typeof value[0] === "string") return value[0];
      }
      return undefined;
    };
  }
  return () => undefined;
}

/** Milliseconds in a Go-style duration ("1h2m3.5s", "6m0s", "20ms", "30s"), or undefined. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (!/^(\d+(\.\d+)?(h|ms|m|s))+$/.test(s)) return undefined;
  let total = 0;
  for (const [, value, unit] of s.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)) {
    const n = Number(value);
    total += unit === "h" ? n * 3_600_000 : unit === "m" ? n * 60_000 : unit === "s" ? n * 1000 : n;
  }
  return Math.round(total);
}

function retryAfter(get: (name: string) => string | undefined, now: number): number | undefined {
  const ms = get("retry-after-ms");
  if (ms !== undefined) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = get("retry-after")?.trim();
  if (after === undefined || after === "") return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(after);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

function exhaustedResets(get: (name: string) => string | undefined, now: number): number | undefined {
  const waits: number[] = [];
  for (const kind of ["requests", "tokens", "input-tokens", "output-tokens"]) {
    if (get(`anthropic-ratelimit-${kind}-remaining`)?.trim() === "0") {
      const at = Date.parse(get(`anthropic-ratelimit-${kind}-reset`) ?? "");
      if (Number.isFinite(at)) waits.push(Math.max(0, at - now));
    }
    if (get(`x-ratelimit-remaining-${kind}`)?.trim() === "0") {
      const wait = parseDuration(get(`x-ratelimit-reset-${kind}`) ?? "");
      if (wait !== undefined) waits.push(wait);
    }
  }
  return waits.length > 0 ? Math.max(...waits) : undefined;
}

function bodyRetryDelay(body: unknown): number | undefined {
  const details = (body as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    const delay = (d as { "@type"?: unknown; retryDelay?: unknown } | null)?.retryDelay;
    if (typeof delay === "string" && String((d as { "@type"?: unknown })["@type"]).endsWith("google.rpc.RetryInfo")) {
      const ms = parseDuration(delay);
      if (ms !== undefined) return ms;
    }
  }
  return undefined;
}

function messageRetryDelay(message: string | undefined): number | undefined {
  const m = /try again in (\d+(?:\.\d+)?(?:h|ms|m|s)(?:\d+(?:\.\d+)?(?:h|ms|m|s))*)/i.exec(message ?? "");
  return m ? parseDuration(m[1]) : undefined;
}

/** The provider's wait before the next request, in milliseconds, or undefined when it gave none. */
export function retryHintMs(headers: unknown, body: unknown, message: string | undefined, now: number = Date.now()): number | undefined {
  const get = headerGetter(headers);
  return retryAfter(get, now) ?? exhaustedResets(get, now) ?? bodyRetryDelay(body) ?? messageRetryDelay(message);
}
