/**
 * The OpenAI Chat Completions stream chunk as the adapter reads it, and its
 * check. A chunk that fails it (any choice included, not only the first) is
 * skipped whole.
 */
import { isArrayOf, isNullishNumber, isNullishString, isNumber, isOptionalString, isRecord } from "./json-checks";

export interface CompletionsToolCallDelta {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/**
 * Typed content chunks (Mistral's Magistral): `{type: "text", text}` and
 * `{type: "thinking", thinking: [{type: "text", text}]}`; other types are
 * skipped on their own.
 */
export type CompletionsContentPart = { type: string; text?: string; thinking?: unknown };

export interface CompletionsChoice {
  delta?: {
    content?: string | CompletionsContentPart[] | null;
    refusal?: string | null;
    reasoning_content?: string | null;
    reasoning?: string | null;
    tool_calls?: CompletionsToolCallDelta[] | null;
  } | null;
  finish_reason?: string | null;
}

export interface CompletionsUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek reports cache hits here instead. */
  prompt_cache_hit_tokens?: number | null;
}

export interface CompletionsChunk {
  id?: string;
  choices?: CompletionsChoice[];
  usage?: CompletionsUsage | null;
}

export function isCompletionsChunk(raw: unknown): raw is CompletionsChunk {
  if (!isRecord(raw) || !isOptionalString(raw.id)) return false;
  const { choices, usage } = raw;
  if (choices !== undefined && !isArrayOf(choices, isChoice)) return false;
  return usage === undefined || usage === null || isUsage(usage);
}

function isChoice(raw: unknown): boolean {
  if (!isRecord(raw) || !isNullishString(raw.finish_reason)) return false;
  const delta = raw.delta;
  if (delta === undefined || delta === null) return true;
  return (
    isRecord(delta) &&
    (isNullishString(delta.content) || isArrayOf(delta.content, isContentPart)) &&
    isNullishString(delta.refusal) &&
    isNullishString(delta.reasoning_content) &&
    isNullishString(delta.reasoning) &&
    (delta.tool_calls === undefined || delta.tool_calls === null || isArrayOf(delta.tool_calls, isToolCallDelta))
  );
}

function isContentPart(raw: unknown): boolean {
  return isRecord(raw) && typeof raw.type === "string" && isOptionalString(raw.text);
}

function isToolCallDelta(raw: unknown): boolean {
  if (!isRecord(raw) || (raw.index !== undefined && !isNumber(raw.index)) || !isNullishString(raw.id)) return false;
  const fn = raw.function;
  return fn === undefined || fn === null || (isRecord(fn) && isNullishString(fn.name) && isNullishString(fn.arguments));
}

function isUsage(raw: unknown): boolean {
  if (!isRecord(raw)) return false;
  const details = raw.prompt_tokens_details;
  const completion = raw.completion_tokens_details;
  return (
    isNullishNumber(raw.prompt_tokens) &&
    isNullishNumber(raw.completion_tokens) &&
    isNullishNumber(raw.total_tokens) &&
    isNullishNumber(raw.prompt_cache_hit_tokens) &&
    (details === undefined || details === null || (isRecord(details) && isNullishNumber(details.cached_tokens))) &&
    (completion === undefined || completion === null || (isRecord(completion) && isNullishNumber(completion.reasoning_tokens)))
  );
}
