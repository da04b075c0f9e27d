/**
 * The OpenAI Responses SSE payloads the adapter reads, and their check. An
 * event that fails it is skipped whole, as are event types we do not use
 * (and future ones).
 */
import { isArrayOf, isNullishNumber, isNullishString, isNumber, isOptionalString, isRecord } from "./json-checks";

export interface ResponsesItem {
  type: string;
  id?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  summary?: { text: string }[];
  content?: { type: string; text?: string }[] | null;
}

export interface ResponsesUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

export interface ResponsesResponse {
  id?: string;
  status?: string | null;
  usage?: ResponsesUsage | null;
  incomplete_details?: { reason?: string | null } | null;
  error?: { code?: string | null; message?: string | null } | null;
}

export type ResponsesEvent =
  | { type: "response.created" | "response.in_progress"; response: ResponsesResponse }
  | { type: "response.output_item.added" | "response.output_item.done"; output_index: number; item: ResponsesItem }
  | { type: "response.reasoning_summary_part.added"; output_index: number; summary_index: number }
  | {
      type:
        | "response.reasoning_summary_text.delta"
        | "response.reasoning_text.delta"
        | "response.output_text.delta"
        | "response.refusal.delta"
        | "response.function_call_arguments.delta";
      output_index: number;
      delta: string;
    }
  | { type: "response.function_call_arguments.done"; output_index: number; arguments: string }
  | { type: "response.completed" | "response.incomplete" | "response.failed"; response: ResponsesResponse }
  | { type: "error"; code?: string | null; message?: string | null };

export function isResponsesEvent(raw: unknown): raw is ResponsesEvent {
  if (!isRecord(raw)) return false;
  switch (raw.type) {
    case "response.created":
    case "response.in_progress":
    case "response.completed":
    case "response.incomplete":
    case "response.failed":
      return isResponse(raw.response);
    case "response.output_item.added":
    case "response.output_item.done":
      return isNumber(raw.output_index) && isItem(raw.item);
    case "response.reasoning_summary_part.added":
      return isNumber(raw.output_index) && isNumber(raw.summary_index);
    case "response.reasoning_summary_text.delta":
    case "response.reasoning_text.delta":
    case "response.output_text.delta":
    case "response.refusal.delta":
    case "response.function_call_arguments.delta":
      return isNumber(raw.output_index) && typeof raw.delta === "string";
    case "response.function_call_arguments.done":
      return isNumber(raw.output_index) && typeof raw.arguments === "string";
    case "error":
      return isNullishString(raw.code) && isNullishString(raw.message);
    default:
      return false;
  }
}

function isItem(raw: unknown): boolean {
  return (
    isRecord(raw) &&
    typeof raw.type === "string" &&
    isOptionalString(raw.id) &&
    isOptionalString(raw.call_id) &&
    isOptionalString(raw.name) &&
    isOptionalString(raw.arguments) &&
    (raw.summary === undefined || isArrayOf(raw.summary, isSummaryPart)) &&
    (raw.content === undefined || raw.content === null || isArrayOf(raw.content, isContentPart))
  );
}

function isSummaryPart(raw: unknown): boolean {
  return isRecord(raw) && typeof raw.text === "string";
}

function isContentPart(raw: unknown): boolean {
  return isRecord(raw) && typeof raw.type === "string" && isOptionalString(raw.text);
}

function isResponse(raw: unknown): boolean {
  if (!isRecord(raw) || !isOptionalString(raw.id) || !isNullishString(raw.status)) return false;
  const { usage, incomplete_details: incomplete, error } = raw;
  return (
    (usage === undefined || usage === null || isUsage(usage)) &&
    (incomplete === undefined || incomplete === null || (isRecord(incomplete) && isNullishString(incomplete.reason))) &&
    (error === undefined || error === null || (isRecord(error) && isNullishString(error.code) && isNullishString(error.message)))
  );
}

function isUsage(raw: unknown): boolean {
  if (!isRecord(raw)) return false;
  const details = raw.input_tokens_details;
  const out = raw.output_tokens_details;
  return (
    isNullishNumber(raw.input_tokens) &&
    isNullishNumber(raw.output_tokens) &&
    (details === undefined || details === null || (isRecord(details) && isNullishNumber(details.cached_tokens))) &&
    (out === undefined || out === null || (isRecord(out) && isNullishNumber(out.reasoning_tokens)))
  );
}
