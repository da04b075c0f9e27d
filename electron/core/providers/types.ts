/**
 * The contract between the agent loop and the provider adapters.
 *
 * Contract: `ProviderAdapter.stream` never throws and never rejects. Every
 * stream yields zero or more partial events and ends with exactly one `done`
 * or `error` event carrying a well-formed final AssistantMessage
 * (`stopReason: "error" | "aborted"` on failure). Errors carry no API key.
 */
import type { AssistantMessage, Message, ToolCall } from "../../../shared/protocol";
import type { ModelInfo, ProviderConfig } from "../../../shared/models";

/** A tool as offered to the model: name, description and JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 subset), root type "object". */
  parameters: Record<string, unknown>;
}

export type ToolChoice = "auto" | "none" | "required" | { name: string };

export interface LlmContext {
  systemPrompt: string;
  /**
   * Stored, provider-neutral history; never mutated here.
   */
  messages: readonly Message[];
  tools?: readonly ToolSpec[];
  toolChoice?: ToolChoice;
}

export interface StreamOptions {
  apiKey: string;
  /** Overrides the provider's base URL. */
  baseUrl?: string;
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
  /** Reasoning level for models that support it; absent: the model's default (nothing requested). */
  reasoning?: "off" | "low" | "medium" | "high";
  /**
   * Send other models' reasoning as plain text instead of leaving it out.
   * Ignored for Anthropic targets (they refuse it: `Refusal (reasoning_extraction)`).
   */
  demoteOtherReasoning?: boolean;
  /**
   * The session the request belongs to: the prompt-cache key where the API takes
   * one (Responses `prompt_cache_key`), so a session's requests share a cache.
   */
  sessionId?: string;
  /** Extra headers (never logged). */
  headers?: Record<string, string>;
  /** Called with the exact body before sending (for "what the model saw"). */
  onRequestBody?: (body: unknown) => void;
  /** Called with the request body as it went to fetch, byte for byte (recorded as "what the model saw"). */
  onSentBody?: (raw: string) => void;
  /**
   * The fetch the SDK client uses (Electron's `net.fetch` in the desktop app,
   * a proxy- and CA-aware fetch in web mode); the adapter's default otherwise.
   */
  fetch?: typeof globalThis.fetch;
  /** Give up on a stream silent this long (default: the adapter's, DEFAULT_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
}

/** Neutral streaming events. `partial` is the message as it stands so far. */
export type StreamEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "textStart"; index: number; partial: AssistantMessage }
  | { type: "textDelta"; index: number; delta: string; partial: AssistantMessage }
  | { type: "textEnd"; index: number; partial: AssistantMessage }
  | { type: "thinkingStart"; index: number; partial: AssistantMessage }
  | { type: "thinkingDelta"; index: number; delta: string; partial: AssistantMessage }
  | { type: "thinkingEnd"; index: number; partial: AssistantMessage }
  | { type: "toolCallStart"; index: number; id: string; name: string; partial: AssistantMessage }
  /** `delta` is raw argument text; parse it only for display (partial-json). */
  | { type: "toolCallDelta"; index: number; delta: string; partial: AssistantMessage }
  | { type: "toolCallEnd"; index: number; toolCall: ToolCall; partial: AssistantMessage }
  | { type: "done"; message: AssistantMessage }
  | {
      type: "error";
      message: AssistantMessage;
      /** True for 429, 5xx, 529 and network failures. */
      retryable: boolean;
      /** From `retry-after` / `retry-after-ms`, when the provider sent one. */
      retryAfterMs?: number;
      /** HTTP status when there was one. */
      status?: number;
      /** True when the error text says the context window was exceeded. */
      contextOverflow?: boolean;
    };

export interface ProviderAdapter {
  readonly api: ModelInfo["api"];
  stream(model: ModelInfo, provider: ProviderConfig, context: LlmContext, options: StreamOptions): AsyncIterable<StreamEvent>;
  /** The exact request body `stream` would send (the boundary transform applied). Pure. */
  buildRequestBody(model: ModelInfo, provider: ProviderConfig, context: LlmContext, options?: Partial<StreamOptions>): unknown;
}
