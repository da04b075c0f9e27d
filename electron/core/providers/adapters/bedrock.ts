/**
 * Amazon Bedrock adapter: `ConverseStream` through the official
 * `@aws-sdk/client-bedrock-runtime` client. Credentials come from the SDK's
 * standard chain (environment, shared profile, SSO, instance role): the app
 * never sees or stores them. The region is read from the provider's base URL
 * (`https://bedrock-runtime.<region>.amazonaws.com`, editable in Settings) or
 * AWS_REGION. SDK retries are off (maxAttempts 1): the agent loop owns retries.
 *
 * Stream events: contentBlockStart opens a tool call; contentBlockDelta adds
 * text, tool input JSON or reasoning (text, then its signature); messageStop
 * gives the stop reason and metadata the usage. Exceptions inside the stream
 * (throttling, model stream errors) end the turn as retryable errors.
 */
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type ContentBlock,
  type ConverseCommandOutput,
  type ConverseStreamCommandInput,
  type ConverseStreamOutput,
} from "@aws-sdk/client-bedrock-runtime";
import { FetchHttpHandler } from "@smithy/fetch-http-handler";
import type { StopReason } from "../../../../shared/protocol";
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { BedrockRequestBody } from "../requests/bedrock";
import type { LlmContext, ProviderAdapter, StreamEvent, StreamOptions } from "../types";
import { defineAdapter, runStream, TruncatedStreamError, type AdapterConfig, type ResponseReader, type RunContext } from "./common";
import { appToolName, buildBedrockRequest } from "./deps";
import type { StreamState } from "./stream-state";

export function mapBedrockStopReason(reason: string | undefined): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return { stopReason: "stop" };
    case "tool_use":
      return { stopReason: "toolUse" };
    case "max_tokens":
    case "model_context_window_exceeded":
      return { stopReason: "length" };
    case "guardrail_intervened":
      return { stopReason: "error", errorMessage: "blocked by a Bedrock guardrail (stopReason: guardrail_intervened)" };
    case "content_filtered":
      return { stopReason: "error", errorMessage: "blocked by the model's content filter (stopReason: content_filtered)" };
    default:
      return { stopReason: "error", errorMessage: `unexpected stopReason: ${String(reason)}` };
  }
}

/** The region in `https://bedrock-runtime.<region>.amazonaws.com`, else AWS_REGION / AWS_DEFAULT_REGION, else us-east-1. */
export function regionOf(baseUrl: string): string {
  const match = /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(baseUrl);
  return match?.[1] ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1";
}

/** HTTP status of the exceptions a stream (or a call) can end with, for describeFailure's retry rules. */
const EXCEPTION_STATUS: Record<string, number> = {
  ThrottlingException: 429,
  ServiceUnavailableException: 503,
  InternalServerException: 500,
  ModelStreamErrorException: 500,
  ModelNotReadyException: 503,
  ModelTimeoutException: 408,
  ValidationException: 400,
  AccessDeniedException: 403,
  ResourceNotFoundException: 404,
  UnrecognizedClientException: 403,
  ExpiredTokenException: 403,
};

/** AWS SDK errors, read back into the shape describeFailure reads (status, error type, message). */
function normalizeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const meta = (err as { $metadata?: { httpStatusCode?: number } }).$metadata;
  const status = meta?.httpStatusCode ?? EXCEPTION_STATUS[err.name];
  if (status === undefined) return err;
  const response = (err as { $response?: { headers?: Record<string, string> } }).$response;
  return Object.assign(new Error(err.message), { status, headers: response?.headers, error: { type: err.name, message: err.message } });
}

function bytes(base64: string): Uint8Array {
  return new Uint8Array(Buffer.from(base64, "base64"));
}

/** The JSON body (images and redacted reasoning as base64 text) as the SDK's input (those as bytes). */
function toInput(body: BedrockRequestBody): ConverseStreamCommandInput {
  const convert = (block: Record<string, unknown>): Record<string, unknown> => {
    const image = block.image as { format: string; source: { bytes: string } } | undefined;
    if (image) return { image: { format: image.format, source: { bytes: bytes(image.source.bytes) } } };
    const result = block.toolResult as { content: Record<string, unknown>[] } | undefined;
    if (result) return { toolResult: { ...result, content: result.content.map(convert) } };
    const reasoning = block.reasoningContent as { redactedContent?: string } | undefined;
    if (reasoning?.redactedContent !== undefined) return { reasoningContent: { redactedContent: bytes(reasoning.redactedContent) } };
    return block;
  };
  const messages = body.messages.map((m) => ({ role: m.role, content: (m.content as Record<string, unknown>[]).map(convert) }));
  return { ...body, messages } as unknown as ConverseStreamCommandInput;
}

async function* events(stream: AsyncIterable<ConverseStreamOutput>): AsyncGenerator<ConverseStreamOutput> {
  try {
    yield* stream;
  } catch (err) {
    throw normalizeError(err);
  }
}

function streamBedrock(config: AdapterConfig, model: ModelInfo, provider: ProviderConfig, context: LlmContext, options: StreamOptions) {
  return runStream(config, model, provider, options, async ({ state, signal, client: settings }: RunContext) => {
    const { body, toolNames, compat } = buildBedrockRequest(model, provider, context, options);
    options.onRequestBody?.(body);
    // The SDK's fetch handler on our fetch, as the other adapters: the same proxy, CA files and
    // Electron net.fetch (see docs/networks.md), and the idle watch on every byte. ConverseStream
    // needs no HTTP/2 (the Node default handler's), which corporate proxies often break.
    const client = new BedrockRuntimeClient({
      region: regionOf(settings.baseURL),
      endpoint: settings.baseURL,
      maxAttempts: 1,
      requestHandler: new FetchHttpHandler({ customFetch: settings.fetch }),
    });
    try {
      // "This model doesn't support tool use in streaming mode": such a model's tool requests go through Converse.
      if (!compat.bedrockStreamingTools && body.toolConfig !== undefined) {
        const response = await client.send(new ConverseCommand(toInput(body)), { abortSignal: signal });
        return new BedrockReader(state, asStreamEvents(response), toolNames);
      }
      const response = await client.send(new ConverseStreamCommand(toInput(body)), { abortSignal: signal });
      if (response.stream === undefined) throw new TruncatedStreamError("its first event");
      return new BedrockReader(state, events(response.stream), toolNames);
    } catch (err) {
      throw normalizeError(err);
    }
  });
}

/**
 * A whole Converse answer as the events ConverseStream would have sent for it,
 * so one reader handles both (each block whole in one delta).
 */
function* asStreamEvents(response: ConverseCommandOutput): Generator<ConverseStreamOutput> {
  const content: ContentBlock[] = response.output?.message?.content ?? [];
  yield { messageStart: { role: "assistant" } };
  for (let contentBlockIndex = 0; contentBlockIndex < content.length; contentBlockIndex++) {
    const block = content[contentBlockIndex];
    if (block.toolUse !== undefined) {
      const { toolUseId, name, input } = block.toolUse;
      yield { contentBlockStart: { contentBlockIndex, start: { toolUse: { toolUseId, name } } } };
      yield { contentBlockDelta: { contentBlockIndex, delta: { toolUse: { input: JSON.stringify(input ?? {}) } } } };
    } else if (block.text !== undefined) {
      yield { contentBlockDelta: { contentBlockIndex, delta: { text: block.text } } };
    } else if (block.reasoningContent?.reasoningText !== undefined) {
      const { text, signature } = block.reasoningContent.reasoningText;
      yield { contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { text: text ?? "" } } } };
      if (signature !== undefined) yield { contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { signature } } } };
    } else if (block.reasoningContent?.redactedContent !== undefined) {
      const redactedContent = block.reasoningContent.redactedContent;
      yield { contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { redactedContent } } } };
    } else continue;
    yield { contentBlockStop: { contentBlockIndex } };
  }
  yield { messageStop: { stopReason: response.stopReason } };
  if (response.usage !== undefined) yield { metadata: { usage: response.usage, metrics: { latencyMs: response.metrics?.latencyMs ?? 0 } } };
}

class BedrockReader implements ResponseReader {
  /** Wire block index → our content index. */
  private readonly indexOf = new Map<number, number>();
  private stop: ReturnType<typeof mapBedrockStopReason> | null = null;

  constructor(
    private readonly state: StreamState,
    readonly events: AsyncIterable<ConverseStreamOutput> | Iterable<ConverseStreamOutput>,
    private readonly toolNames: Record<string, string>,
  ) {}

  onEvent(raw: unknown, out: StreamEvent[]): void {
    const event = raw as ConverseStreamOutput;
    const { state } = this;
    if (event.contentBlockStart) {
      const { contentBlockIndex, start } = event.contentBlockStart;
      if (contentBlockIndex !== undefined && start?.toolUse) {
        const { index, event: started } = state.startToolCall(
          start.toolUse.toolUseId ?? "",
          appToolName(this.toolNames, start.toolUse.name ?? ""),
        );
        out.push(started);
        this.indexOf.set(contentBlockIndex, index);
      }
      return;
    }
    if (event.contentBlockDelta) {
      const { contentBlockIndex, delta } = event.contentBlockDelta;
      if (contentBlockIndex === undefined || delta === undefined) return;
      let index = this.indexOf.get(contentBlockIndex);
      if (delta.text !== undefined) {
        if (index === undefined) {
          const started = state.startText();
          out.push(started.event);
          index = started.index;
          this.indexOf.set(contentBlockIndex, index);
        }
        out.push(state.appendText(index, delta.text));
      } else if (delta.toolUse !== undefined && index !== undefined) {
        out.push(state.appendToolArguments(index, delta.toolUse.input ?? ""));
      } else if (delta.reasoningContent !== undefined) {
        const reasoning = delta.reasoningContent;
        if (index === undefined) {
          const redacted = reasoning.redactedContent !== undefined;
          const started = state.startThinking(
            redacted ? { redacted: true, signature: Buffer.from(reasoning.redactedContent ?? []).toString("base64") } : {},
          );
          out.push(started.event);
          index = started.index;
          this.indexOf.set(contentBlockIndex, index);
        }
        if (reasoning.text !== undefined) out.push(state.appendThinking(index, reasoning.text));
        if (reasoning.signature !== undefined) state.setThinkingSignature(index, reasoning.signature, "append");
      }
      return;
    }
    if (event.contentBlockStop) {
      const index =
        event.contentBlockStop.contentBlockIndex === undefined ? undefined : this.indexOf.get(event.contentBlockStop.contentBlockIndex);
      const ended = index === undefined ? null : state.endBlock(index);
      if (ended) out.push(ended);
      return;
    }
    if (event.messageStop) {
      this.stop = mapBedrockStopReason(event.messageStop.stopReason);
      return;
    }
    if (event.metadata?.usage) {
      const u = event.metadata.usage;
      state.setUsage({
        input: u.inputTokens ?? 0,
        output: u.outputTokens ?? 0,
        cacheRead: u.cacheReadInputTokens ?? 0,
        cacheWrite: u.cacheWriteInputTokens ?? 0,
      });
      return;
    }
    const exception =
      event.throttlingException ??
      event.modelStreamErrorException ??
      event.internalServerException ??
      event.serviceUnavailableException ??
      event.validationException;
    if (exception) {
      const name = Object.keys(event).find((k) => k.endsWith("Exception")) ?? "internalServerException";
      const type = name[0].toUpperCase() + name.slice(1);
      throw Object.assign(new Error(exception.message ?? type), {
        status: EXCEPTION_STATUS[type] ?? 500,
        error: { type, message: exception.message ?? type },
      });
    }
  }

  finish(): StreamEvent[] {
    if (this.stop === null) throw new TruncatedStreamError("messageStop");
    return this.state.finish(this.stop.stopReason, this.stop.errorMessage);
  }
}

export function createBedrockAdapter(config: AdapterConfig = {}): ProviderAdapter {
  return defineAdapter("bedrock-converse-stream", config, streamBedrock, buildBedrockRequest);
}

export const bedrockAdapter: ProviderAdapter = createBedrockAdapter();
