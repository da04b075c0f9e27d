/**
 * Anthropic Messages adapter (streaming, over our own transport; the
 * `@anthropic-ai/sdk` package supplies the wire types).
 *
 * Thinking blocks keep their `signature` byte for byte (from `signature_delta`);
 * `redacted_thinking` becomes a thinking block with `redacted: true` and the
 * opaque data as its signature. Usage from `message_start` is kept, so an
 * aborted stream still reports its input tokens.
 */
import type { StopReason } from "../../../../shared/protocol";
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, ProviderAdapter, StreamEvent, StreamOptions } from "../types";
import { postSse } from "../http";
import { bodyText } from "../requests/json-body";
import { runStream, throwIfStopped, TruncatedStreamError, type AdapterConfig, type RunContext } from "./common";
import { appToolName, buildAnthropicRequest, buildAnthropicRequestJson, computeCost } from "./deps";
import type { StreamState, TokenCounts } from "./stream-state";
import { isAnthropicBlock, isAnthropicDelta, isAnthropicEvent, type AnthropicUsage } from "./anthropic-events";
import { anthropicEventData, anthropicHeaders, anthropicUrl } from "./wire";

/** Anthropic stop reasons, mapped faithfully; refusal is an error the user must see. */
export function mapAnthropicStopReason(reason: string | null | undefined): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
      return { stopReason: "stop" };
    case "tool_use":
      return { stopReason: "toolUse" };
    case "max_tokens":
    case "model_context_window_exceeded":
      return { stopReason: "length" };
    case "refusal":
      return { stopReason: "error", errorMessage: "refusal: the model declined to continue (stop_reason: refusal)" };
    default:
      return { stopReason: "error", errorMessage: `unexpected stop_reason: ${String(reason)}` };
  }
}

function usageOf(raw: AnthropicUsage | null | undefined): Partial<TokenCounts> {
  if (!raw) return {};
  const out: Partial<TokenCounts> = {};
  if (typeof raw.input_tokens === "number") out.input = raw.input_tokens;
  if (typeof raw.output_tokens === "number") out.output = raw.output_tokens;
  if (typeof raw.cache_read_input_tokens === "number") out.cacheRead = raw.cache_read_input_tokens;
  if (typeof raw.cache_creation_input_tokens === "number") out.cacheWrite = raw.cache_creation_input_tokens;
  return out;
}

function streamAnthropic(config: AdapterConfig, model: ModelInfo, provider: ProviderConfig, context: LlmContext, options: StreamOptions) {
  return runStream(model, computeCost, options, config, async function* ({ state, signal, alive }: RunContext) {
    // The body as chunks, built from the previous request of this history (see requests/json-body.ts).
    const { chunks: body, toolNames } = buildAnthropicRequestJson(model, provider, context, options);
    if (options.onRequestBody) options.onRequestBody(JSON.parse(bodyText(body)));
    const response = await postSse({ url: anthropicUrl(provider, options), headers: anthropicHeaders(options), body, signal });

    /** Wire block index → our content index (server-side blocks we skip are absent). */
    const indexOf = new Map<number, number>();
    let stop: ReturnType<typeof mapAnthropicStopReason> | null = null;
    let sawStop = false;

    for await (const sse of response.events) {
      alive();
      const raw = anthropicEventData(sse, response.headers);
      if (raw === undefined) continue; // ping and the like
      if (!isAnthropicEvent(raw)) continue; // event types we do not use (and future ones)
      const event = raw;
      switch (event.type) {
        case "message_start":
          state.setResponseId(event.message.id);
          state.setUsage(usageOf(event.message.usage));
          break;
        case "content_block_start": {
          const started = startBlock(state, event.content_block, toolNames);
          if (started) {
            indexOf.set(event.index, started.index);
            for (const e of started.events) yield e;
          }
          break;
        }
        case "content_block_delta": {
          const index = indexOf.get(event.index);
          const d = event.delta;
          if (index === undefined || !isAnthropicDelta(d)) break;
          if (d.type === "text_delta") yield state.appendText(index, d.text);
          else if (d.type === "thinking_delta") yield state.appendThinking(index, d.thinking);
          else if (d.type === "signature_delta") state.setThinkingSignature(index, d.signature, "append");
          else yield state.appendToolArguments(index, d.partial_json);
          break;
        }
        case "content_block_stop": {
          const index = indexOf.get(event.index);
          const ended = index === undefined ? null : state.endBlock(index);
          if (ended) yield ended;
          break;
        }
        case "message_delta":
          state.setUsage(usageOf(event.usage));
          if (event.delta.stop_reason) stop = mapAnthropicStopReason(event.delta.stop_reason);
          break;
        case "message_stop":
          sawStop = true;
          break;
        case "ping":
          break;
      }
    }
    throwIfStopped(signal);
    if (!sawStop || stop === null) throw new TruncatedStreamError("message_stop");
    return state.finish(stop.stopReason, stop.errorMessage);
  });
}

function startBlock(state: StreamState, rawBlock: unknown, toolNames: Record<string, string>): { index: number; events: StreamEvent[] } | null {
  if (!isAnthropicBlock(rawBlock)) return null; // server tool blocks and the like: not ours to store
  const block = rawBlock;
  switch (block.type) {
    case "text": {
      const { index, event } = state.startText();
      const events = [event];
      if (block.text) events.push(state.appendText(index, block.text));
      return { index, events };
    }
    case "thinking": {
      const { index, event } = state.startThinking(block.signature ? { signature: block.signature } : {});
      const events = [event];
      if (block.thinking) events.push(state.appendThinking(index, block.thinking));
      return { index, events };
    }
    case "redacted_thinking": {
      const { index, event } = state.startThinking({ redacted: true, signature: block.data });
      return { index, events: [event] };
    }
    case "tool_use": {
      const { index, event } = state.startToolCall(block.id, appToolName(toolNames, block.name));
      const events = [event];
      // Streams start tool_use with `input: {}` and send the JSON as deltas.
      if (isNonEmptyObject(block.input)) events.push(state.appendToolArguments(index, JSON.stringify(block.input)));
      return { index, events };
    }
  }
}

function isNonEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}

export function createAnthropicAdapter(config: AdapterConfig = {}): ProviderAdapter {
  return {
    api: "anthropic-messages",
    stream: (model, provider, context, options) => streamAnthropic(config, model, provider, context, options),
    buildRequestBody(model, provider, context, options = {}) {
      return buildAnthropicRequest(model, provider, context, options).body;
    },
  };
}

export const anthropicAdapter: ProviderAdapter = createAnthropicAdapter();
