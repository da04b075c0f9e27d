/**
 * Faults as Gemini and Bedrock answer them: Gemini's `{ error: { code,
 * message, status } }` bodies, and Bedrock's `{ message }` with the error type
 * in `x-amzn-errortype` (and inside the event stream, an exception frame).
 */
import type { FauxFault, FauxRoute } from "./types";
import { sse, type SseEvent } from "./encode-common";
import type { HttpAnswer } from "./faults";

type HttpFault = Exclude<FauxFault, { type: "streamError" }>;

function gemini(status: number, statusText: string, message: string, headers: Record<string, string> = {}): HttpAnswer {
  return { status, headers, body: { error: { code: status, message, status: statusText } } };
}

function bedrock(status: number, type: string, message: string, headers: Record<string, string> = {}): HttpAnswer {
  return {
    status,
    headers: { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, ...headers },
    body: { message },
  };
}

/** The body of a refusal for the Gemini and Bedrock routes (undefined for the others). */
export function errorBody(route: FauxRoute, message: string): unknown {
  if (route === "gemini") return gemini(400, "INVALID_ARGUMENT", message).body;
  if (route === "bedrock") return { message, __type: "ValidationException" };
  return undefined;
}

/** The answer to an injected fault on the Gemini or Bedrock route, or undefined for the other routes. */
export function googleAwsFaultAnswer(route: FauxRoute, fault: HttpFault, ctx: { model: string; apiKey: string }): HttpAnswer | undefined {
  if (route !== "gemini" && route !== "bedrock") return undefined;
  const retryHeaders: Record<string, string> = {};
  if (fault.type === "rateLimit" && fault.retryAfterSeconds !== undefined) retryHeaders["retry-after"] = String(fault.retryAfterSeconds);
  if (fault.type === "rateLimit" && fault.retryAfterMs !== undefined) retryHeaders["retry-after-ms"] = String(fault.retryAfterMs);
  if (route === "gemini") {
    switch (fault.type) {
      case "http":
        return { status: fault.status, headers: fault.headers ?? {}, body: fault.body };
      case "rateLimit":
        return gemini(
          429,
          "RESOURCE_EXHAUSTED",
          "You exceeded your current quota, please check your plan and billing details.",
          retryHeaders,
        );
      case "serverError":
        return gemini(
          500,
          "INTERNAL",
          "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
        );
      case "overloaded":
        return gemini(503, "UNAVAILABLE", "The model is overloaded. Please try again later.");
      case "contextOverflow":
        return gemini(400, "INVALID_ARGUMENT", "The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).");
      case "authError":
        // Echoes the key on purpose: the adapters must redact it.
        return gemini(400, "INVALID_ARGUMENT", `API key not valid. Please pass a valid API key. (key: ${ctx.apiKey})`);
    }
  }
  switch (fault.type) {
    case "http":
      return { status: fault.status, headers: fault.headers ?? {}, body: fault.body };
    case "rateLimit":
      return bedrock(429, "ThrottlingException", "Too many requests, please wait before trying again.", retryHeaders);
    case "serverError":
      return bedrock(500, "InternalServerException", "The server encountered an internal error.");
    case "overloaded":
      return bedrock(503, "ServiceUnavailableException", "The service is unavailable. Try again later.");
    case "contextOverflow":
      return bedrock(400, "ValidationException", "Input is too long for requested model.");
    case "authError":
      return bedrock(403, "UnrecognizedClientException", `The security token included in the request is invalid. (${ctx.model})`);
  }
}

/** The error a stream carries after it started (Gemini: an error object as an SSE event; Bedrock: an exception frame). */
export function googleAwsStreamError(route: FauxRoute, kind: "overloaded" | "server"): SseEvent | undefined {
  if (route === "gemini") {
    return sse({
      error: {
        code: kind === "overloaded" ? 503 : 500,
        message: kind === "overloaded" ? "The model is overloaded. Please try again later." : "An internal error has occurred.",
        status: kind === "overloaded" ? "UNAVAILABLE" : "INTERNAL",
      },
    });
  }
  if (route === "bedrock") {
    return kind === "overloaded"
      ? sse(
          { message: "The system encountered an unexpected error during processing. Try your request again." },
          "exception:modelStreamErrorException",
        )
      : sse({ message: "The server encountered an internal error." }, "exception:internalServerException");
  }
  return undefined;
}
