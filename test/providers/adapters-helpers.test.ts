import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { finalizeToolArguments, isWellFormed, previewToolArguments } from "../../electron/core/providers/adapters/tool-args";
import { describeFailure, isContextOverflow, parseRetryAfter, redactSecrets } from "../../electron/core/providers/adapters/errors";

describe("final parse of streamed tool arguments", () => {
  it("accepts a complete JSON object", () => {
    expect(finalizeToolArguments('{"path":"a.ts","limit":3}')).toEqual({ arguments: { path: "a.ts", limit: 3 } });
  });

  it("treats empty argument text as no arguments", () => {
    expect(finalizeToolArguments("")).toEqual({ arguments: {} });
  });

  it("rejects invalid JSON and keeps the raw text", () => {
    const result = finalizeToolArguments('{"path": "a",,}');
    expect(result.arguments).toEqual({});
    expect(result.rawArguments).toBe('{"path": "a",,}');
    expect(result.argumentsError).toMatch(/^invalid JSON/);
  });

  it("rejects invalid escapes", () => {
    expect(finalizeToolArguments('{"path": "a\\x41"}').argumentsError).toMatch(/^invalid JSON/);
  });

  it("rejects a lone surrogate escape in a value or a key", () => {
    expect(finalizeToolArguments('{"path": "\\ud800.txt"}').argumentsError).toMatch(/lone surrogate/);
    expect(finalizeToolArguments('{"\\udc00": 1}').argumentsError).toMatch(/lone surrogate/);
    expect(finalizeToolArguments('{"list": ["ok", {"deep": "\\udbff"}]}').argumentsError).toContain("$.list[1].deep");
  });

  it("accepts a proper surrogate pair", () => {
    expect(finalizeToolArguments('{"emoji": "\\ud83d\\ude00"}')).toEqual({ arguments: { emoji: "😀" } });
  });

  it("rejects JSON that is not an object", () => {
    expect(finalizeToolArguments("[1,2]").argumentsError).toMatch(/must be a JSON object, got an array/);
    expect(finalizeToolArguments("null").argumentsError).toMatch(/got null/);
    expect(finalizeToolArguments('"text"').argumentsError).toMatch(/got a string/);
  });

  it("says the arguments were truncated when the stream stopped early", () => {
    const result = finalizeToolArguments('{"path": "src/lo', { incomplete: "length" });
    expect(result.argumentsError).toMatch(/^truncated: the output hit the max-tokens limit/);
    expect(result.rawArguments).toBe('{"path": "src/lo');
  });

  it("a call stopped mid-arguments says so, without the JSON parser's complaint", () => {
    const result = finalizeToolArguments('{"path": "src/lo', { incomplete: "aborted" });
    expect(result.argumentsError).toBe("truncated: stopped before its arguments were complete");
  });

  it("never returns usable arguments together with an error (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (raw) => {
        const result = finalizeToolArguments(raw);
        if (result.argumentsError !== undefined) {
          expect(result.arguments).toEqual({});
          expect(result.rawArguments).toBeDefined();
        } else {
          expect(allStringsWellFormed(result.arguments)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("previews incomplete arguments for display only", () => {
    expect(previewToolArguments('{"path": "src/a')).toEqual({ path: "src/a" });
    expect(previewToolArguments("nonsense")).toEqual({});
  });
});

describe("provider failure description", () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it("reads status, error type and retry-after from an Anthropic-shaped error", () => {
    const err = Object.assign(new Error("429 rate limited"), {
      status: 429,
      headers: headers({ "retry-after": "7" }),
      error: {
        type: "error",
        error: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit" },
      },
    });
    const failure = describeFailure(err, []);
    expect(failure.message).toBe("429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit");
    expect(failure.retryable).toBe(true);
    expect(failure.retryAfterMs).toBe(7000);
    expect(failure.contextOverflow).toBe(false);
  });

  it("reads an OpenAI-shaped error with its code", () => {
    const err = Object.assign(new Error("400 ..."), {
      status: 400,
      headers: headers({}),
      error: {
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 135027 tokens.",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
    });
    const failure = describeFailure(err, []);
    expect(failure.message).toMatch(/^400 invalid_request_error \(context_length_exceeded\): This model's maximum context length/);
    expect(failure.contextOverflow).toBe(true);
    expect(failure.retryable).toBe(false);
  });

  it("treats 529 overloaded and a mid-stream overloaded_error as retryable", () => {
    const overloaded = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    expect(describeFailure(Object.assign(new Error("x"), { status: 529, error: overloaded }), []).retryable).toBe(true);
    expect(describeFailure(Object.assign(new Error("x"), { status: undefined, error: overloaded }), []).retryable).toBe(true);
  });

  it("does not retry a 429 for an exhausted quota", () => {
    const err = Object.assign(new Error("x"), {
      status: 429,
      error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota" },
    });
    expect(describeFailure(err, []).retryable).toBe(false);
  });

  it("treats a dropped connection as a retryable network error", () => {
    const err = new TypeError("terminated", { cause: new Error("other side closed") });
    const failure = describeFailure(err, []);
    expect(failure.retryable).toBe(true);
    expect(failure.message).toBe("network error: the connection broke mid-stream: other side closed");
  });

  it("redacts the API key and key-shaped strings from every message", () => {
    const key = "sk-faux-0123456789abcdef";
    const err = Object.assign(new Error(`401 Incorrect API key provided: ${key}`), {
      status: 401,
      error: { message: `Incorrect API key provided: ${key}.`, type: "invalid_request_error", code: "invalid_api_key" },
    });
    const failure = describeFailure(err, [key]);
    expect(failure.message).not.toContain(key);
    expect(failure.message).toContain("[REDACTED]");
    expect(redactSecrets("auth Bearer abcdefghijklmnop failed", [])).toBe("auth [REDACTED] failed");
  });

  it("parses retry-after in seconds, as an HTTP date, and retry-after-ms first", () => {
    expect(parseRetryAfter(headers({ "retry-after": "2.5" }))).toBe(2500);
    expect(parseRetryAfter(headers({ "retry-after": "3", "retry-after-ms": "150" }))).toBe(150);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }), now)).toBe(10_000);
    expect(parseRetryAfter(headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it("recognises the providers' context-overflow texts", () => {
    expect(isContextOverflow("prompt is too long: 213462 tokens > 200000 maximum")).toBe(true);
    expect(isContextOverflow("Your input exceeds the context window of this model.")).toBe(true);
    expect(
      isContextOverflow("Prompt contains 40123 tokens and 0 draft tokens, too large for model with 32768 maximum context length"),
    ).toBe(true);
    expect(isContextOverflow("400 status code (no body)", 400)).toBe(true);
    expect(isContextOverflow("Invalid value for 'temperature'")).toBe(false);
  });
});

function allStringsWellFormed(value: unknown): boolean {
  if (typeof value === "string") return isWellFormed(value);
  if (Array.isArray(value)) return value.every(allStringsWellFormed);
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).every(([k, v]) => isWellFormed(k) && allStringsWellFormed(v));
  }
  return true;
}
