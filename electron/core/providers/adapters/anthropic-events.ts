/**
 * The Anthropic Messages SSE payloads the adapter reads, and their checks.
 * An event that fails its check is skipped whole, as are event types we do
 * not use (and future ones); a content block or delta of a kind we do not
 * store is skipped on its own.
 */
import { isNullishNumber, isNullishString, isNumber, isOptionalString, isRecord, isTyped } from "./json-checks";

export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** A refusal's details (`stop_details`); each field is optional and anything else in it is ignored. */
export interface AnthropicStopDetails {
  type?: string;
  category?: string | null;
  explanation?: string | null;
}

export type AnthropicEvent =
  | { type: "message_start"; message: { id?: string; usage?: AnthropicUsage } }
  | { type: "content_block_start"; index: number; content_block: { type: string } }
  | { type: "content_block_delta"; index: number; delta: { type: string } }
  | { type: "content_block_stop"; index: number }
  | {
      type: "message_delta";
      delta: { stop_reason?: string | null; stop_details?: AnthropicStopDetails | null };
      usage?: AnthropicUsage | null;
    }
  | { type: "message_stop" }
  | { type: "ping" };

export type AnthropicBlock =
  | { type: "text"; text?: string }
  | { type: "thinking"; thinking?: string; signature?: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; input?: unknown };

export type AnthropicDelta =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; thinking: string }
  | { type: "signature_delta"; signature: string }
  | { type: "input_json_delta"; partial_json: string };

export function isAnthropicEvent(raw: unknown): raw is AnthropicEvent {
  if (!isRecord(raw)) return false;
  switch (raw.type) {
    case "message_start": {
      const message = raw.message;
      return isRecord(message) && isOptionalString(message.id) && (message.usage === undefined || isUsage(message.usage));
    }
    case "content_block_start":
      return isNumber(raw.index) && isTyped(raw.content_block);
    case "content_block_delta":
      return isNumber(raw.index) && isTyped(raw.delta);
    case "content_block_stop":
      return isNumber(raw.index);
    case "message_delta": {
      const delta = raw.delta;
      return (
        isRecord(delta) &&
        isNullishString(delta.stop_reason) &&
        (delta.stop_details === undefined || delta.stop_details === null || isStopDetails(delta.stop_details)) &&
        (raw.usage === undefined || raw.usage === null || isUsage(raw.usage))
      );
    }
    case "message_stop":
    case "ping":
      return true;
    default:
      return false;
  }
}

/** Server tool blocks and the like are not ours to store. */
export function isAnthropicBlock(raw: unknown): raw is AnthropicBlock {
  if (!isRecord(raw)) return false;
  switch (raw.type) {
    case "text":
      return isOptionalString(raw.text);
    case "thinking":
      return isOptionalString(raw.thinking) && isOptionalString(raw.signature);
    case "redacted_thinking":
      return typeof raw.data === "string";
    case "tool_use":
      return typeof raw.id === "string" && typeof raw.name === "string";
    default:
      return false;
  }
}

export function isAnthropicDelta(raw: unknown): raw is AnthropicDelta {
  if (!isRecord(raw)) return false;
  switch (raw.type) {
    case "text_delta":
      return typeof raw.text === "string";
    case "thinking_delta":
      return typeof raw.thinking === "string";
    case "signature_delta":
      return typeof raw.signature === "string";
    case "input_json_delta":
      return typeof raw.partial_json === "string";
    default:
      return false;
  }
}

function isStopDetails(raw: unknown): raw is AnthropicStopDetails {
  return isRecord(raw) && isOptionalString(raw.type) && isNullishString(raw.category) && isNullishString(raw.explanation);
}

function isUsage(raw: unknown): raw is AnthropicUsage {
  return (
    isRecord(raw) &&
    isNullishNumber(raw.input_tokens) &&
    isNullishNumber(raw.output_tokens) &&
    isNullishNumber(raw.cache_read_input_tokens) &&
    isNullishNumber(raw.cache_creation_input_tokens)
  );
}
