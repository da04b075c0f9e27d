/**
 * Injected faults, answered the way each real provider answers them: status,
 * headers (`retry-after`), error body shape and message text.
 */
import type { FauxFault, FauxRoute } from "./types";
import { anthropicError } from "./encode-anthropic";
import { mistralError, openaiError } from "./encode-openai-completions";
import { sse, type SseEvent } from "./encode-common";
import { googleAwsFaultAnswer, googleAwsStreamError } from "./faults-google-aws";

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const ANTHROPIC_RATE_LIMIT =
  "Number of request tokens has exceeded your per-minute rate limit (https://docs.claude.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.";

type HttpFault = Exclude<FauxFault, { type: "streamError" } | { type: "recorded" }>;

export function faultAnswer(route: FauxRoute, fault: HttpFault, ctx: { model: string; apiKey: string }): HttpAnswer {
  const own = googleAwsFaultAnswer(route, fault, ctx);
  if (own !== undefined) return own;
  const openaiLike = route === "openai-completions" || route === "openai-responses";
  switch (fault.type) {
    case "http":
      return { status: fault.status, headers: fault.headers ?? {}, body: fault.body };
    case "rateLimit": {
      const headers: Record<string, string> = {};
      if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
      if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
      if (route === "anthropic") return { status: 429, headers, body: anthropicError("rate_limit_error", ANTHROPIC_RATE_LIMIT) };
      if (route === "mistral") return { status: 429, headers, body: mistralError("Requests rate limit exceeded", "rate_limited", "1300") };
      return {
        status: 429,
        headers,
        body: openaiError(
          `Rate limit reached for ${ctx.model} in organization org-faux on tokens per min (TPM): Limit 30000, Used 29500, Requested 1200. Please try again in 2s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
          "tokens",
          "rate_limit_exceeded",
        ),
      };
    }
    case "serverError":
      if (route === "anthropic") return { status: 500, headers: {}, body: anthropicError("api_error", "Internal server error") };
      if (route === "mistral") return { status: 500, headers: {}, body: mistralError("Internal server error", "internal_server_error") };
      return {
        status: 500,
        headers: {},
        body: openaiError("The server had an error while processing your request. Sorry about that!", "server_error"),
      };
    case "overloaded":
      if (route === "anthropic") return { status: 529, headers: {}, body: anthropicError("overloaded_error", "Overloaded") };
      if (route === "mistral") return { status: 503, headers: {}, body: mistralError("Service unavailable", "service_unavailable") };
      return { status: 503, headers: {}, body: openaiError("The engine is currently overloaded, please try again later.", "server_error") };
    case "contextOverflow":
      if (route === "anthropic") {
        return {
          status: 400,
          headers: {},
          body: anthropicError("invalid_request_error", "prompt is too long: 213462 tokens > 200000 maximum"),
        };
      }
      if (route === "mistral") {
        return {
          status: 400,
          headers: {},
          body: mistralError(
            "Prompt contains 40123 tokens and 0 draft tokens, too large for model with 32768 maximum context length",
            "invalid_request_message_error",
            "3051",
          ),
        };
      }
      if (route === "openai-responses") {
        return {
          status: 400,
          headers: {},
          body: openaiError(
            "Your input exceeds the context window of this model. Please adjust your input and try again.",
            "invalid_request_error",
            "context_length_exceeded",
            "input",
          ),
        };
      }
      return {
        status: 400,
        headers: {},
        body: openaiError(
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 135027 tokens. Please reduce the length of the messages.",
          "invalid_request_error",
          "context_length_exceeded",
          "messages",
        ),
      };
    case "authError":
      // Deliberately echoes the whole key: the adapters must redact it.
      if (route === "anthropic")
        return { status: 401, headers: {}, body: anthropicError("authentication_error", `invalid x-api-key: ${ctx.apiKey}`) };
      if (route === "mistral") return { status: 401, headers: {}, body: mistralError(`Unauthorized: ${ctx.apiKey}`, "invalid_api_key") };
      if (openaiLike) {
        return {
          status: 401,
          headers: {},
          body: openaiError(
            `Incorrect API key provided: ${ctx.apiKey}. You can find your API key at https://platform.openai.com/account/api-keys.`,
            "invalid_request_error",
            "invalid_api_key",
          ),
        };
      }
      return { status: 401, headers: {}, body: { error: "unauthorized" } };
  }
}

/** The error event a provider sends inside an HTTP 200 stream. */
export function streamErrorEvent(route: FauxRoute, kind: "overloaded" | "server", sequence: number): SseEvent {
  const own = googleAwsStreamError(route, kind);
  if (own !== undefined) return own;
  if (route === "anthropic") {
    return kind === "overloaded"
      ? sse(anthropicError("overloaded_error", "Overloaded"), "error")
      : sse(anthropicError("api_error", "Internal server error"), "error");
  }
  if (route === "openai-responses") {
    const message =
      kind === "overloaded" ? "The server is overloaded. Please try again later." : "An error occurred while processing your request.";
    return sse(
      {
        type: "response.failed",
        sequence_number: sequence,
        response: {
          id: "resp_failed",
          object: "response",
          status: "failed",
          error: { code: "server_error", message },
          output: [],
          usage: null,
        },
      },
      "response.failed",
    );
  }
  return sse(
    openaiError(
      kind === "overloaded" ? "The server is overloaded." : "The server had an error while processing your request.",
      "server_error",
    ),
  );
}
