/**
 * The faux provider's scripting vocabulary: what a test (or the demo) asks the
 * server to answer, independent of the wire API the request came in on.
 */

/** Which wire API (and rule set) a request came in on. */
export type FauxRoute = "anthropic" | "openai-completions" | "openai-responses" | "mistral" | "gemini" | "bedrock";

export type FauxBlock =
  | { type: "text"; text: string }
  /** The server issues the signature and remembers the request's model as its owner. */
  | { type: "thinking"; thinking: string; redacted?: boolean }
  /**
   * `arguments` as an object is sent as JSON; as a string it is sent verbatim
   * (to inject invalid JSON, lone surrogate escapes, truncation).
   * `id` verbatim; on Responses `call_x|fc_y` is split into call_id and item id.
   */
  | { type: "toolCall"; id?: string; name: string; arguments: Record<string, unknown> | string };

/** Neutral stop reasons, mapped to each wire's own (end_turn, tool_calls, max_output_tokens …). */
export type FauxStopReason = "stop" | "toolUse" | "length" | "stopSequence" | "refusal" | "contentFilter";

export interface FauxUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A successful answer, streamed (SSE) or not, depending on the request's `stream`. */
export interface FauxReply {
  type: "reply";
  content: FauxBlock[];
  /** Default: "toolUse" when there are tool calls, else "stop". */
  stopReason?: FauxStopReason;
  /** Neutral counts; the wire gets them in its own shape (e.g. prompt_tokens = input + cacheRead). */
  usage?: Partial<FauxUsage>;
  /** Characters per text/argument delta. Default 16. */
  chunkSize?: number;
  /** Delay between SSE events, in ms. Default 0. */
  chunkDelayMs?: number;
  /**
   * Send this many SSE events, then hold the connection open until the client
   * goes away (abort tests wait on a signal instead of a timer).
   */
  hangAfterEvents?: number;
  /**
   * Break the stream after this many SSE events: "drop" destroys the socket
   * mid-stream, "truncate" ends the HTTP response cleanly without the final events.
   */
  cut?: { afterEvents: number; how: "drop" | "truncate" };
  /** Chat Completions: the delta field carrying thinking. Default "reasoning_content". */
  reasoningField?: "reasoning_content" | "reasoning";
  /** Chat Completions: omit the usage chunk even when `stream_options.include_usage` asked for it. */
  omitUsage?: boolean;
  responseId?: string;
}

/** Faults, each answered with the real provider's status, headers and error body for the route. */
export type FauxFault =
  | { type: "rateLimit"; retryAfterSeconds?: number; retryAfterMs?: number }
  | { type: "serverError" }
  /** Anthropic 529 `overloaded_error`; OpenAI routes 503. */
  | { type: "overloaded" }
  /** 400 with the provider's real "context too long" text. */
  | { type: "contextOverflow" }
  /** 401 whose message echoes the key the client sent (to prove it is redacted downstream). */
  | { type: "authError" }
  /** An error event inside an HTTP 200 stream, after `afterEvents` events of `reply` (default: a short text). */
  | { type: "streamError"; afterEvents?: number; reply?: FauxReply; errorType?: "overloaded" | "server" }
  /** Any status and body, verbatim. */
  | { type: "http"; status: number; body: unknown; headers?: Record<string, string> }
  /**
   * A recorded answer replayed as it was: `events` in the route's stream framing
   * (SSE, or event-stream frames on Bedrock, `event` naming the frame's event
   * type) for a streaming request, `json` as the body of a non-streaming one.
   */
  | { type: "recorded"; events?: readonly { event?: string; data: string }[]; json?: unknown };

export type FauxStep = FauxReply | FauxFault | FauxResponder;

/** A dynamic answer: look at the conversation, decide what to say. */
export type FauxResponder = (request: FauxRequest) => FauxReply | FauxFault | Promise<FauxReply | FauxFault>;

/** A conversation turn read back from a wire request, for responders. */
export type FauxTurn =
  | { role: "system"; text: string }
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; thinking: string; toolCalls: Array<{ id: string; name: string; arguments: string }> }
  | { role: "toolResult"; toolCallId: string; text: string; isError: boolean };

export interface FauxToolInfo {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** What a responder sees. */
export interface FauxRequest {
  seq: number;
  route: FauxRoute;
  model: string;
  stream: boolean;
  body: unknown;
  headers: Record<string, string>;
  /** The conversation as neutral turns (system prompt first when there is one). */
  turns: FauxTurn[];
  tools: FauxToolInfo[];
  /** The last turn, or null for an empty conversation. */
  lastTurn: FauxTurn | null;
}

/** A provider's rejection of a request: status and the real error body. */
export interface FauxRejection {
  status: number;
  body: unknown;
  message: string;
}

export interface FauxRecordedRequest {
  seq: number;
  route: FauxRoute;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  model: string | undefined;
  stream: boolean;
  /** Tokens in the request as the faux counts them (context-window.ts): what its usage reports and its window limits. */
  tokens: number;
  /** True when the strict validator accepted the request (and it fit its model's context window). */
  accepted: boolean;
  rejection: FauxRejection | null;
  /** What the server did: answered, injected a fault, rejected, or had nothing scripted. */
  outcome: "reply" | "fault" | "rejected" | "unscripted" | "pending";
  /** performance.now() when the server started handling the request. */
  receivedAt: number;
  /** performance.now() when the response was fully written (null until then). */
  respondedAt: number | null;
  /**
   * performance.now() when the server had handed its whole response to Node
   * (`end()` called): the end of its own time. `respondedAt` ("finish") can
   * come later when this process is busy, e.g. collecting garbage.
   */
  endedAt: number | null;
  /** CPU time (ms) this process spent from receiving to `endedAt`, with `recordCpu` (null otherwise). */
  cpuMs: number | null;
}
