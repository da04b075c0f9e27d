/**
 * What the SDK clients did around the HTTP call, kept exactly where it
 * matters: the URL, the headers, and which SSE events become data, are
 * skipped, or are errors. (Read from @anthropic-ai/sdk 1.14 and openai 6.49:
 * `client.mjs` `buildURL`/`buildHeaders`, `core/streaming.mjs`.)
 */
import type { ProviderConfig } from "../../../../shared/models";
import { parseEventData, parseJsonOrUndefined, ProviderApiError, type SseEvent } from "../http";
import type { StreamOptions } from "../types";
import { baseUrlOf } from "./common";

/** The API version @anthropic-ai/sdk 1.14 sends. */
export const ANTHROPIC_VERSION = "2026-10-21";

const USER_AGENT = `AgentWorkbench (Node.js ${process.versions.node})`;

/** Base headers, then the auth header, then the caller's headers (which win, names compared case-insensitively). */
function requestHeaders(auth: Record<string, string>, options: Pick<StreamOptions, "headers">): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    ...auth,
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

export function anthropicUrl(provider: ProviderConfig, options: Pick<StreamOptions, "baseUrl">): string {
  return `${baseUrlOf(provider, options)}/v1/messages`;
}

/** As the SDK sends them: the key as a Bearer token, and its API version. */
export function anthropicHeaders(options: Pick<StreamOptions, "apiKey" | "headers">): Record<string, string> {
  const auth: Record<string, string> = { "anthropic-version": ANTHROPIC_VERSION };
  if (options.apiKey) auth.authorization = `Bearer ${options.apiKey}`;
  return requestHeaders(auth, options);
}

export function openaiUrl(provider: ProviderConfig, options: Pick<StreamOptions, "baseUrl">, path: "/chat/completions" | "/responses"): string {
  return `${baseUrlOf(provider, options)}${path}`;
}

export function openaiHeaders(options: Pick<StreamOptions, "apiKey" | "headers">): Record<string, string> {
  // Local servers need no key, but the SDK always sent one.
  return requestHeaders({ authorization: `Bearer ${options.apiKey || "no-key"}` }, options);
}

/**
 * One Anthropic SSE event as the SDK's `Stream` treats it: the parsed JSON,
 * or undefined for events it skips (`ping`, unnamed events, no data). An
 * `error` event throws its body as a ProviderApiError.
 */
export function anthropicEventData(sse: SseEvent, headers: Readonly<Record<string, string>>): unknown {
  if (sse.event === null || sse.event === "ping") return undefined;
  if (sse.event === "error") {
    const body = parseJsonOrUndefined(sse.data);
    throw new ProviderApiError({ headers, error: body ?? sse.data, rawBody: sse.data });
  }
  if (!sse.data) return undefined;
  return parseEventData(sse);
}

/**
 * OpenAI SSE events as the SDK's `Stream` treats them (Chat Completions and
 * Responses alike): `data: [DONE]` ends the data (the rest of the stream is
 * still read, so the socket can be reused); a payload with an `error` field
 * throws it as a ProviderApiError. Responses' own `error` and
 * `response.failed` events pass through to the adapter.
 */
export class OpenAIEventReader {
  private done = false;
  constructor(private readonly headers: Readonly<Record<string, string>>) {}

  /** The event's JSON, or undefined to skip it. */
  data(sse: SseEvent): unknown {
    if (this.done) return undefined;
    if (sse.data.startsWith("[DONE]")) {
      this.done = true;
      return undefined;
    }
    const data = parseEventData(sse);
    if (typeof data === "object" && data !== null && "error" in data && data.error) {
      throw new ProviderApiError({ headers: this.headers, error: data.error });
    }
    return data;
  }
}
