/**
 * The transform's output: a history already legal for one target, still
 * provider-neutral in shape. Each request builder maps it 1:1 to its wire JSON.
 */
import type { ImageContent, ModelRef, TextContent } from "../../../../shared/protocol";
import type { RequestRepair } from "../../../../shared/review";
import type { IdRule } from "./ids";

export type WireUserBlock = TextContent | ImageContent;

export type WireAssistantBlock =
  | { type: "text"; text: string }
  /** Only the target model's own thinking; `signature`/redacted data byte-for-byte as stored. */
  | { type: "thinking"; thinking: string; signature?: string; redacted: boolean }
  /** `itemId`: Responses `fc_…` item id, set only when replaying to the model that produced it. */
  | { type: "toolCall"; id: string; itemId?: string; name: string; arguments: Record<string, unknown> };

export interface WireToolResult {
  id: string;
  name: string;
  isError: boolean;
  /** Never empty. May share block objects with the stored history: read-only. */
  content: readonly WireUserBlock[];
}

export type WireMessage =
  | { role: "user"; content: readonly WireUserBlock[] }
  | { role: "assistant"; content: readonly WireAssistantBlock[] }
  /** Results for every call of the assistant message right before, in call order. */
  | { role: "toolResults"; results: WireToolResult[] };

export interface TransformTarget {
  model: ModelRef;
  idRule: IdRule;
  /** False when the request carries no tools: calls and results become plain text. */
  toolsOffered: boolean;
  acceptsImages: boolean;
  /** False for Chat Completions (tool messages are text only): images move to a user message after the results. */
  toolResultImages: boolean;
  /** Mistral: no user message right after a tool message. */
  assistantAfterToolResult: boolean;
  /**
   * What happens to the target model's own thinking. Signed (or redacted) blocks
   * are kept byte-for-byte or dropped; unsigned ones (an aborted stream, a
   * server that signs nothing) are kept, sent as text, or dropped.
   */
  ownThinking: { signed: "keep" | "drop"; unsigned: "keep" | "text" | "drop" };
  /**
   * Other models' thinking: left out ("drop", the default on every target), or
   * sent as plain text ("text": the demotion setting; never for Anthropic, which
   * answers demoted reasoning with `Refusal (reasoning_extraction)`).
   */
  otherThinking: "drop" | "text";
  /** Image media types the target takes; any other image becomes a text note. */
  imageTypes: ReadonlySet<string>;
  /** Maps a stored tool name to its wire name. */
  toolName: (stored: string) => string;
}

export interface TransformResult {
  messages: WireMessage[];
  /** wire tool-call id -> stored id, for this request only. */
  idMap: ReadonlyMap<string, string>;
  /** What was left out or changed, and why ("what the model saw"). */
  repairs: RequestRepair[];
}
