/**
 * Anthropic Messages adapter: `@anthropic-ai/sdk`'s client, streaming; the
 * pure request builder's body is what is sent.
 *
 * Thinking blocks keep their `signature` byte for byte (from `signature_delta`);
 * `redacted_thinking` becomes a thinking block with `redacted: true` and the
 * opaque data as its signature. Usage from `message_start` is kept, so an
 * aborted stream still reports its input tokens.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { StopDetails, StopReason } from "../../../../shared/protocol";
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, ProviderAdapter, StreamEvent, StreamOptions } from "../types";
import { defineAdapter, runStream, TruncatedStreamError, type AdapterConfig, type ResponseReader, type RunContext } from "./common";
import { appToolName, buildAnthropicRequest } from "./deps";
import type { StreamState, TokenCounts } from "./stream-state";
import { isAnthropicBlock, isAnthropicDelta, isAnthropicEvent, type AnthropicStopDetails, type AnthropicUsage } from "./anthropic-events";

const REFUSAL_TEXT = "refusal: the model declined to continue (stop_reason: refusal)";

/** The refusal's own words when the provider gave them (`stop_details`), kept on the message and in its error text. */
function stopDetailsOf(raw: AnthropicStopDetails): StopDetails | undefined {
  const details: StopDetails = {};
  if (raw.type !== undefined) details.type = raw.type;
  if (typeof raw.category === "string") details.category = raw.category;
  if (typeof raw.explanation === "string") details.explanation = raw.explanation;
  return Object.keys(details).length > 0 ? details : undefined;
}

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
      return { stopReason: "error", errorMessage: REFUSAL_TEXT };
    default:
      return { stopReason: "error", errorMessage: `unexpected stop_reason: ${String(reason)}` };
  }
}

/** Anthropic reports cumulative counts; a count it leaves out (or sends as null) keeps its value. */
function setUsage(state: StreamState, raw: AnthropicUsage | null | undefined): void {
  if (!raw) return;
  const counts: Partial<TokenCounts> = {};
  if (typeof raw.input_tokens === "number") counts.input = raw.input_tokens;
  if (typeof raw.output_tokens === "number") counts.output = raw.output_tokens;
  if (typeof raw.cache_read_input_tokens === "number") counts.cacheRead = raw.cache_read_input_tokens;
  if (typeof raw.cache_creation_input_tokens === "number") counts.cacheWrite = raw.cache_creation_input_tokens;
  state.setUsage(counts);
}

function streamAnthropic(config: AdapterConfig, model: ModelInfo, provider: ProviderConfig, context: LlmContext, options: StreamOptions) {
  return runStream(config, model, provider, options, async ({ state, signal, shared, fetchOptions }: RunContext) => {
    const { body, toolNames } = buildAnthropicRequest(model, provider, context, options);
    options.onRequestBody?.(body);
    // `authToken: null`: the key given is the only credential (the SDK would otherwise read ANTHROPIC_AUTH_TOKEN).
    const sdk = shared("anthropic", (settings) => new Anthropic({ ...settings, authToken: null }));
    // The SDK skips pings and unnamed events and throws an `error` event as an APIError.
    const events = await sdk.messages.create(body, { signal, fetchOptions });
    return new AnthropicReader(state, events, toolNames);
  });
}

/** A second `message_start` with another message while the first was open: the turn failed mid-stream, a retry may succeed. */
export class RestartedStreamError extends Error {
  /** Read by describeFailure: an `api_error` is retryable. */
  readonly error: { type: string; message: string };
  constructor(first: string | undefined, second: string | undefined) {
    const message = `the provider restarted the answer mid-stream (message ${second ?? "?"} began while ${first ?? "?"} was open); the partial answer was not kept as complete`;
    super(message);
    this.name = "RestartedStreamError";
    this.error = { type: "api_error", message };
  }
}

class AnthropicReader implements ResponseReader {
  /** Wire block index → our content index (server-side blocks we skip are absent). */
  private readonly indexOf = new Map<number, number>();
  private stop: ReturnType<typeof mapAnthropicStopReason> | null = null;
  private sawStop = false;
  private messageId: string | undefined;
  private started = false;

  constructor(
    private readonly state: StreamState,
    readonly events: AsyncIterable<unknown>,
    private readonly toolNames: Record<string, string>,
  ) {}

  onEvent(raw: unknown, out: StreamEvent[]): void {
    // Checked by hand: a server may send what the SDK's types do not promise.
    if (!isAnthropicEvent(raw)) return; // event types we do not use (and future ones)
    const { state } = this;
    switch (raw.type) {
      case "message_start":
        if (this.started) {
          // The same message announced twice before anything of it arrived: a duplicate, harmless.
          if (raw.message.id === this.messageId && !state.hasContent()) break;
          // A new message while the first is open (an intermediary retried mid-stream): splicing the two
          // would join one call's arguments to another's. The first ends here, failed and retryable.
          throw new RestartedStreamError(this.messageId, raw.message.id);
        }
        this.started = true;
        this.messageId = raw.message.id;
        state.setResponseId(raw.message.id);
        setUsage(state, raw.message.usage);
        break;
      case "content_block_start": {
        const index = startBlock(state, raw.content_block, this.toolNames, out);
        if (index !== null) this.indexOf.set(raw.index, index);
        break;
      }
      case "content_block_delta": {
        const index = this.indexOf.get(raw.index);
        const d = raw.delta;
        if (index === undefined || !isAnthropicDelta(d)) break;
        if (d.type === "text_delta") out.push(state.appendText(index, d.text));
        else if (d.type === "thinking_delta") out.push(state.appendThinking(index, d.thinking));
        else if (d.type === "signature_delta") state.setThinkingSignature(index, d.signature, "append");
        else out.push(state.appendToolArguments(index, d.partial_json));
        break;
      }
      case "content_block_stop": {
        const index = this.indexOf.get(raw.index);
        const ended = index === undefined ? null : state.endBlock(index);
        if (ended) out.push(ended);
        break;
      }
      case "message_delta":
        setUsage(state, raw.usage);
        if (raw.delta.stop_reason) this.stop = mapAnthropicStopReason(raw.delta.stop_reason);
        if (raw.delta.stop_details) {
          const details = stopDetailsOf(raw.delta.stop_details);
          state.setStopDetails(details);
          if (details?.explanation !== undefined && this.stop?.errorMessage === REFUSAL_TEXT) {
            const category = details.category === undefined ? "" : ` (${details.category})`;
            this.stop = { stopReason: "error", errorMessage: `refusal${category}: ${details.explanation}` };
          }
        }
        break;
      case "message_stop":
        this.sawStop = true;
        break;
      case "ping":
        break;
    }
  }

  finish(): StreamEvent[] {
    if (!this.sawStop || this.stop === null) throw new TruncatedStreamError("message_stop");
    return this.state.finish(this.stop.stopReason, this.stop.errorMessage);
  }
}

/** Starts our block for a content block we store; returns its index, or null for blocks we skip. */
function startBlock(state: StreamState, block: unknown, toolNames: Record<string, string>, out: StreamEvent[]): number | null {
  if (!isAnthropicBlock(block)) return null; // server tool blocks and the like: not ours to store
  switch (block.type) {
    case "text": {
      const { index, event } = state.startText();
      out.push(event);
      if (block.text) out.push(state.appendText(index, block.text));
      return index;
    }
    case "thinking": {
      const { index, event } = state.startThinking(block.signature ? { signature: block.signature } : {});
      out.push(event);
      if (block.thinking) out.push(state.appendThinking(index, block.thinking));
      return index;
    }
    case "redacted_thinking": {
      const { index, event } = state.startThinking({ redacted: true, signature: block.data });
      out.push(event);
      return index;
    }
    case "tool_use": {
      const { index, event } = state.startToolCall(block.id, appToolName(toolNames, block.name));
      out.push(event);
      // Streams start tool_use with `input: {}` and send the JSON as deltas.
      if (isNonEmptyObject(block.input)) out.push(state.appendToolArguments(index, JSON.stringify(block.input)));
      return index;
    }
  }
}

function isNonEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}

export function createAnthropicAdapter(config: AdapterConfig = {}): ProviderAdapter {
  return defineAdapter("anthropic-messages", config, streamAnthropic, buildAnthropicRequest);
}

export const anthropicAdapter: ProviderAdapter = createAnthropicAdapter();
