/**
 * OpenAI Responses adapter (`openai`'s client, streaming).
 *
 * A function call is stored with the id `<call_id>|<item id>`: the call_id
 * pairs it with its output, the item id lets the same model see its own item
 * again. A reasoning item is stored as a thinking block whose text is the
 * summary and whose `signature` is the whole output item as JSON (id,
 * summary, encrypted_content), so the same model gets it back unchanged.
 */
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { StopReason } from "../../../../shared/protocol";
import type { LlmContext, ProviderAdapter, StreamEvent, StreamOptions } from "../types";
import { defineAdapter, runStream, TruncatedStreamError, type AdapterConfig, type ResponseReader, type RunContext } from "./common";
import { appToolName, buildOpenAIResponsesRequest, encodeResponsesToolCallId, openaiClient } from "./deps";
import type { StreamState, TokenCounts } from "./stream-state";
import { isResponsesEvent, type ResponsesItem, type ResponsesResponse, type ResponsesUsage } from "./openai-responses-events";

/** A failure reported inside the stream (`response.failed`, `error`), shaped like an SDK APIError. */
class StreamReportedError extends Error {
  readonly error: { type?: string; code?: string; message: string };
  constructor(code: string | null | undefined, message: string | null | undefined) {
    const text = message || "the response failed";
    super(text);
    this.name = "StreamReportedError";
    this.error = { message: text, ...(code ? { type: code, code } : {}) };
  }
}

export function mapResponsesStatus(
  status: string | null | undefined,
  incompleteReason: string | null | undefined,
  hasToolCalls: boolean,
): { stopReason: StopReason; errorMessage?: string } {
  if (status === "completed") return { stopReason: hasToolCalls ? "toolUse" : "stop" };
  if (status === "incomplete") {
    if (incompleteReason === "max_output_tokens") return { stopReason: "length" };
    if (incompleteReason === "content_filter") {
      return { stopReason: "error", errorMessage: "content_filter: the provider's content filter stopped the response" };
    }
    return { stopReason: "error", errorMessage: `incomplete response: ${incompleteReason ?? "unknown reason"}` };
  }
  return { stopReason: "error", errorMessage: `unexpected response status: ${String(status)}` };
}

function usageOf(raw: ResponsesUsage | null | undefined): Partial<TokenCounts> {
  if (!raw) return {};
  const cached = raw.input_tokens_details?.cached_tokens ?? 0;
  const counts: Partial<TokenCounts> = {
    input: Math.max(0, (raw.input_tokens ?? 0) - cached),
    cacheRead: cached,
    output: raw.output_tokens ?? 0,
    cacheWrite: 0,
  };
  // Already part of output_tokens.
  const reasoning = raw.output_tokens_details?.reasoning_tokens;
  if (typeof reasoning === "number") counts.reasoningTokens = reasoning;
  return counts;
}

function streamResponses(config: AdapterConfig, model: ModelInfo, provider: ProviderConfig, context: LlmContext, options: StreamOptions) {
  return runStream(config, model, provider, options, async ({ state, signal, shared, fetchOptions }: RunContext) => {
    const { body, toolNames } = buildOpenAIResponsesRequest(model, provider, context, options);
    options.onRequestBody?.(body);
    // The SDK stops at `data: [DONE]` and throws an event carrying `error` as an APIError; `response.failed` and `error` events reach us.
    const events = await shared("openai", openaiClient).responses.create(body, { signal, fetchOptions });
    return new ResponsesReader(state, events, toolNames);
  });
}

class ResponsesReader implements ResponseReader {
  /** output_index → our content index. */
  private readonly indexOf = new Map<number, number>();
  private final: ResponsesResponse | null = null;
  private refusal = "";

  constructor(
    private readonly state: StreamState,
    readonly events: AsyncIterable<unknown>,
    private readonly toolNames: Record<string, string>,
  ) {}

  onEvent(event: unknown, out: StreamEvent[]): void {
    // Checked by hand: a server may send what the SDK's types do not promise.
    if (!isResponsesEvent(event)) return;
    const { state, indexOf } = this;
    switch (event.type) {
      case "response.created":
      case "response.in_progress":
        state.setResponseId(event.response.id);
        break;
      case "response.output_item.added": {
        const started = startItem(state, event.item, this.toolNames);
        if (started) {
          indexOf.set(event.output_index, started.index);
          out.push(started.event);
        }
        break;
      }
      case "response.reasoning_summary_part.added": {
        const index = indexOf.get(event.output_index);
        // Summary parts are separate paragraphs.
        if (index !== undefined && event.summary_index > 0) out.push(state.appendThinking(index, "\n\n"));
        break;
      }
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        const index = indexOf.get(event.output_index);
        if (index !== undefined) out.push(state.appendThinking(index, event.delta));
        break;
      }
      case "response.output_text.delta": {
        const index = indexOf.get(event.output_index);
        if (index !== undefined) out.push(state.appendText(index, event.delta));
        break;
      }
      case "response.refusal.delta":
        this.refusal += event.delta;
        break;
      case "response.function_call_arguments.delta": {
        const index = indexOf.get(event.output_index);
        if (index !== undefined) out.push(state.appendToolArguments(index, event.delta));
        break;
      }
      case "response.function_call_arguments.done": {
        const index = indexOf.get(event.output_index);
        if (index !== undefined) state.setToolArguments(index, event.arguments);
        break;
      }
      case "response.output_item.done": {
        const index = indexOf.get(event.output_index);
        if (index === undefined) break;
        const ended = finishItem(state, index, event.item);
        if (ended) out.push(ended);
        break;
      }
      case "response.completed":
      case "response.incomplete":
        state.setResponseId(event.response.id);
        state.setUsage(usageOf(event.response.usage));
        this.final = event.response;
        break;
      case "response.failed":
        state.setUsage(usageOf(event.response.usage));
        throw new StreamReportedError(event.response.error?.code, event.response.error?.message);
      case "error":
        throw new StreamReportedError(event.code, event.message);
    }
  }

  finish(): StreamEvent[] {
    const { final, state } = this;
    if (final === null) throw new TruncatedStreamError("response.completed");
    if (this.refusal) return state.finish("error", `refusal: ${this.refusal}`);
    const { stopReason, errorMessage } = mapResponsesStatus(final.status, final.incomplete_details?.reason, state.hasToolCalls());
    return state.finish(stopReason, errorMessage);
  }
}

function startItem(
  state: StreamState,
  item: ResponsesItem,
  toolNames: Record<string, string>,
): { index: number; event: StreamEvent } | null {
  switch (item.type) {
    case "reasoning":
      return state.startThinking();
    case "message":
      return state.startText();
    case "function_call":
      return state.startToolCall(encodeResponsesToolCallId(item.call_id ?? "", item.id), appToolName(toolNames, item.name ?? ""));
    default:
      return null; // built-in tools (web search, …) are not ours to store
  }
}

function finishItem(state: StreamState, index: number, item: ResponsesItem): StreamEvent | null {
  if (item.type === "reasoning") {
    // The whole item, as the provider sent it, is the signature: the same model gets it back unchanged.
    state.setThinkingSignature(index, JSON.stringify(item));
  } else if (item.type === "function_call" && item.arguments !== undefined) {
    state.setToolArguments(index, item.arguments);
  }
  return state.endBlock(index);
}

export function createOpenAIResponsesAdapter(config: AdapterConfig = {}): ProviderAdapter {
  return defineAdapter("openai-responses", config, streamResponses, buildOpenAIResponsesRequest);
}

export const openaiResponsesAdapter: ProviderAdapter = createOpenAIResponsesAdapter();
