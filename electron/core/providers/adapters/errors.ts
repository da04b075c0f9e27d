/**
 * Turning whatever a provider call threw into a failure description the agent
 * loop can act on: a readable message with the HTTP status and the provider's
 * error type, secrets redacted, whether a retry makes sense and when, and
 * whether the context window overflowed.
 *
 * API errors are read by shape (status, headers, error body): the two SDKs'
 * `APIError`s alike, and errors a stream reported without a status. A
 * connection failure (`APIConnectionError` and what lies under it) gets one
 * line naming its cause (see network-errors.ts).
 */
import { z } from "zod";
import { describeNetworkError } from "./network-errors";
import { retryHintMs } from "./retry-hints";

export interface ProviderFailure {
  /** "429 rate_limit_error: …", "network error: …"; never contains a secret. */
  message: string;
  status?: number;
  /** Provider error type or code, e.g. `overloaded_error`, `rate_limit_exceeded`. */
  errorType?: string;
  retryable: boolean;
  retryAfterMs?: number;
  contextOverflow: boolean;
}

const ApiErrorShape = z.object({
  status: z.number().int().optional(),
  message: z.string(),
  headers: z.unknown().optional(),
  error: z.unknown().optional(),
});

const ErrorBodyShape = z.object({
  type: z.string().optional(),
  code: z.union([z.string(), z.number()]).nullish(),
  message: z.string().optional(),
  error: z
    .object({
      type: z.string().nullish(),
      code: z.union([z.string(), z.number()]).nullish(),
      message: z.string().nullish(),
    })
    .nullish(),
});

/** Error types that mean "try again later" even without an HTTP status (mid-stream errors). */
const RETRYABLE_TYPES = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "rate_limit_exceeded",
  "server_error",
  "service_unavailable",
  "timeout_error",
]);

/** Error codes that look like a 429 but will not clear by waiting. */
const PERMANENT_CODES = new Set(["insufficient_quota", "billing_hard_limit_reached"]);

/**
 * Describes a thrown API/network error. `secrets` (API keys, header values)
 * are removed from every text that ends up in the message. `host`: the
 * provider's, named in certificate errors. `rawHeaders`: the failed
 * response's headers, for SDK errors that do not carry them (Gemini's).
 */
export function describeFailure(
  err: unknown,
  secrets: readonly string[],
  rawBody?: string,
  host?: string,
  rawHeaders?: unknown,
): ProviderFailure {
  const parsed = ApiErrorShape.safeParse(err);
  const causeText = err instanceof Error && err.cause instanceof Error ? err.cause.message : "";

  if (parsed.success && (parsed.data.status !== undefined || parsed.data.error !== undefined)) {
    const { status, headers } = parsed.data;
    // An error may carry only `body.error` (OpenAI stream errors); compatible servers (Mistral) put the message at the top level.
    const body = ErrorBodyShape.safeParse(hasMessage(parsed.data.error) ? parsed.data.error : (parseJson(rawBody) ?? parsed.data.error));
    const inner = body.success ? body.data.error : undefined;
    const topType = body.success && body.data.type !== "error" ? body.data.type : undefined;
    const errorType = pickString(inner?.type, topType);
    const code = pickString(inner?.code, body.success ? body.data.code : undefined);
    const apiText =
      pickString(inner?.message, body.success ? body.data.message : undefined) ??
      // An error event whose data is not JSON: the SDK keeps the text as the error.
      (typeof parsed.data.error === "string" && parsed.data.error.trim() !== "" ? parsed.data.error.trim().slice(0, 500) : undefined) ??
      (rawBody && parseJson(rawBody) === undefined ? rawBody.trim().slice(0, 500) : undefined) ??
      stripStatusPrefix(parsed.data.message);
    // The SDK's own copy of the headers first; a client that drops them (Gemini's) leaves the response's.
    const retryAfterMs = retryHintMs(headers ?? rawHeaders, parseJson(rawBody) ?? parsed.data.error, apiText);
    const contextOverflow = isContextOverflow(apiText, status) || code === "context_length_exceeded";
    const retryable =
      !contextOverflow &&
      !(code !== undefined && PERMANENT_CODES.has(code)) &&
      (isRetryableStatus(status) ||
        (errorType !== undefined && RETRYABLE_TYPES.has(errorType)) ||
        (code !== undefined && RETRYABLE_TYPES.has(code)));
    const label = code !== undefined && code !== errorType ? `${errorType ?? "error"} (${code})` : errorType;
    const prefix = [status, label].filter((p) => p !== undefined).join(" ");
    return {
      message: redactSecrets(prefix ? `${prefix}: ${apiText}` : apiText, secrets),
      status,
      errorType: errorType ?? code,
      retryable,
      retryAfterMs,
      contextOverflow,
    };
  }

  const network = describeNetworkError(err, host);
  if (network !== undefined) return { message: redactSecrets(network, secrets), retryable: true, contextOverflow: false };
  const text = err instanceof Error ? err.message : String(err);
  const full = causeText && !text.includes(causeText) ? `${text} (${causeText})` : text;
  return { message: redactSecrets(full || "unknown provider error", secrets), retryable: false, contextOverflow: false };
}

export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Milliseconds from the headers alone: `retry-after-ms`, `retry-after` (seconds or HTTP date), used-up rate limits. */
export function parseRetryAfter(headers: unknown, now: number = Date.now()): number | undefined {
  return retryHintMs(headers, undefined, undefined, now);
}

/**
 * Providers' own words for "the conversation no longer fits" (pi's overflow
 * list, plus Mistral and Ollama). Checked on the error text, since statuses
 * differ (400, 413) and some servers send no code.
 */
const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i, // Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"
  /input is too long for requested model/i, // Bedrock
  /exceeds the context window/i, // OpenAI Responses
  /maximum context length is \d+ tokens/i, // OpenAI Chat, OpenRouter
  /reduce the length of the messages/i, // Groq
  /input token count.*exceeds the maximum/i, // Gemini
  /maximum prompt length is \d+/i, // xAI
  /exceeds the limit of \d+/i, // Copilot
  /exceeds the available context size/i, // llama.cpp
  /greater than the context length/i, // LM Studio
  /context window exceeds limit/i, // MiniMax
  /exceeded model token limit/i, // Kimi
  /too large for model with \d+ maximum context length/i, // Mistral
  /prompt too long; exceeded/i, // Ollama
  /context[_ ]length[_ ]exceeded/i,
  /token limit exceeded/i,
];

export function isContextOverflow(text: string, status?: number): boolean {
  if (OVERFLOW_PATTERNS.some((re) => re.test(text))) return true;
  // Cerebras answers an overflow with a bare "400/413 (no body)".
  return (status === 400 || status === 413) && /\(no body\)/i.test(text);
}

/** Common key shapes, redacted even when the caller did not pass the key. */
const KEY_PATTERNS: readonly RegExp[] = [/sk-(?:ant-)?[A-Za-z0-9_-]{8,}/g, /Bearer\s+[A-Za-z0-9._~+/=-]{8,}/g];

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values (e.g. a dummy "x") would shred ordinary words.
    if (secret.length >= 6) out = out.split(secret).join("[REDACTED]");
  }
  for (const re of KEY_PATTERNS) out = out.replace(re, "[REDACTED]");
  return out;
}

function pickString(...values: ReadonlyArray<string | number | null | undefined>): string | undefined {
  for (const v of values) {
    if (typeof v === "string" && v !== "") return v;
    if (typeof v === "number") return String(v);
  }
  return undefined;
}

/** The SDKs prefix their message with "<status> "; we add our own prefix. */
function stripStatusPrefix(message: string): string {
  return message.replace(/^\d{3}\s+/, "");
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A non-JSON error body: the caller words the error from the status and raw text.
    return undefined;
  }
}

/** True when an SDK error object carries a message of its own (directly or under `error`). */
function hasMessage(value: unknown): boolean {
  const parsed = ErrorBodyShape.safeParse(value);
  return parsed.success && (typeof parsed.data.message === "string" || typeof parsed.data.error?.message === "string");
}
