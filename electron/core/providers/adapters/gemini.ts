/**
 * Gemini adapter: streaming `generateContent` through the official
 * `@google/genai` SDK (`models.generateContentStream`), with the SDK's own
 * retries off and our fetch (proxies, extra CAs, Electron's net.fetch).
 *
 * Each streamed chunk carries new parts: `thought: true` text is thinking,
 * other text is text, a `functionCall` arrives whole. A `thoughtSignature`
 * is stored as a signed thinking block right before the part it came on, so
 * the request builder can put it back on that part (requests/gemini.ts). A
 * call without an id (Gemini's ids are optional) gets one of ours, so every
 * call has a stored id its result can echo. Safety and other blocked
 * finishes end the turn with an error that says why.
 */
import { randomBytes } from "node:crypto";
import { GoogleGenAI, type GenerateContentResponse, type Part } from "@google/genai";
import type { StopReason } from "../../../../shared/protocol";
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, ProviderAdapter, StreamEvent, StreamOptions } from "../types";
import { defineAdapter, runStream, TruncatedStreamError, type AdapterConfig, type ResponseReader, type RunContext } from "./common";
import { appToolName, buildGeminiRequest } from "./deps";
import type { StreamState } from "./stream-state";
import { SchemaNotExpressible } from "../requests/gemini-schema";

/** Gemini's finish reasons, mapped; the blocked ones are errors the user must see. */
export function mapGeminiFinishReason(
  reason: string | undefined,
  hasToolCalls: boolean,
): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case "STOP":
    case undefined:
      return { stopReason: hasToolCalls ? "toolUse" : "stop" };
    case "MAX_TOKENS":
      return { stopReason: "length" };
    case "SAFETY":
    case "PROHIBITED_CONTENT":
    case "BLOCKLIST":
    case "SPII":
    case "IMAGE_SAFETY":
      return {
        stopReason: "error",
        errorMessage: `blocked by Gemini's safety filters (finishReason: ${reason}); rephrase the request or switch models`,
      };
    case "RECITATION":
      return { stopReason: "error", errorMessage: "blocked: the answer would recite copyrighted material (finishReason: RECITATION)" };
    case "MALFORMED_FUNCTION_CALL":
    case "UNEXPECTED_TOOL_CALL":
      return { stopReason: "error", errorMessage: `the model produced an invalid function call (finishReason: ${reason}); retry` };
    default:
      return { stopReason: "error", errorMessage: `unexpected finishReason: ${reason}` };
  }
}

/** A call id of ours for a call Gemini sent without one (stored verbatim from then on). */
function newCallId(): string {
  return `gemini_call_${randomBytes(9).toString("base64url")}`;
}

/** The SDK throws `ApiError { status, message }` with the body in the message: read back into the shape describeFailure reads. */
function normalizeError(err: unknown): unknown {
  const status: unknown = err instanceof Error ? Reflect.get(err, "status") : undefined;
  if (!(err instanceof Error) || typeof status !== "number") return err;
  const json = /\{[\s\S]*\}\s*$/.exec(err.message)?.[0];
  let body: unknown;
  try {
    body = json === undefined ? undefined : JSON.parse(json);
  } catch {
    // No JSON body in the SDK's message: the error is classified from its status alone.
    body = undefined;
  }
  const inner =
    typeof body === "object" && body !== null
      ? (body as { error?: { message?: unknown; status?: unknown; details?: unknown } }).error
      : undefined;
  const message = typeof inner?.message === "string" ? inner.message : err.message;
  const type = typeof inner?.status === "string" ? inner.status : undefined;
  const delayMs = retryDelayMs(inner?.details);
  // Gemini says when to retry in the body, not in a header: handed on as the header describeFailure reads.
  const headers = delayMs === undefined ? undefined : { "retry-after-ms": String(delayMs) };
  return Object.assign(new Error(message), { status, error: { type, message }, ...(headers ? { headers } : {}) });
}

/** `google.rpc.RetryInfo.retryDelay` ("34.4s", a protobuf Duration as JSON) in an error's details, in ms. */
export function retryDelayMs(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    if (typeof detail !== "object" || detail === null) continue;
    const record = detail as Record<string, unknown>;
    if (record["@type"] !== "type.googleapis.com/google.rpc.RetryInfo" || typeof record.retryDelay !== "string") continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(record.retryDelay.trim());
    if (match) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}

async function* normalized(stream: AsyncIterable<GenerateContentResponse>): AsyncGenerator<GenerateContentResponse> {
  try {
    yield* stream;
  } catch (err) {
    throw normalizeError(err);
  }
}

function streamGemini(config: AdapterConfig, model: ModelInfo, provider: ProviderConfig, context: LlmContext, options: StreamOptions) {
  return runStream(config, model, provider, options, async ({ state, signal, client }: RunContext) => {
    let built;
    try {
      built = buildGeminiRequest(model, provider, context, options);
    } catch (err) {
      // A tool schema Gemini cannot express: a clear, permanent error, not a crash.
      if (err instanceof SchemaNotExpressible)
        throw Object.assign(new Error(err.message), { status: 400, error: { type: "INVALID_ARGUMENT", message: err.message } });
      throw err;
    }
    const { body, toolNames } = built;
    options.onRequestBody?.(body);
    const ai = new GoogleGenAI({
      apiKey: client.apiKey,
      httpOptions: { baseUrl: client.baseURL, headers: client.defaultHeaders, fetch: client.fetch, retryOptions: { attempts: 1 } },
    });
    const { model: modelId, contents, systemInstruction, tools, toolConfig, generationConfig } = body;
    const stream = await ai.models
      .generateContentStream({
        model: modelId,
        contents,
        config: { systemInstruction, tools, toolConfig, ...generationConfig, abortSignal: signal },
      })
      .catch((err: unknown) => {
        throw normalizeError(err);
      });
    return new GeminiReader(state, normalized(stream), toolNames);
  });
}

class GeminiReader implements ResponseReader {
  /** The open text or thinking block, continued by the next part of its kind. */
  private open: { kind: "text" | "thinking"; index: number } | null = null;
  private finishReason: string | undefined;
  private sawChunk = false;
  private blockReason: string | undefined;

  constructor(
    private readonly state: StreamState,
    readonly events: AsyncIterable<GenerateContentResponse>,
    private readonly toolNames: Record<string, string>,
  ) {}

  onEvent(raw: unknown, out: StreamEvent[]): void {
    const chunk = raw as GenerateContentResponse;
    this.sawChunk = true;
    const { state } = this;
    if (chunk.responseId) state.setResponseId(chunk.responseId);
    const usage = chunk.usageMetadata;
    if (usage) {
      const cached = usage.cachedContentTokenCount ?? 0;
      // Implicit caching: cachedContentTokenCount is the cached part of promptTokenCount, read at the cache price.
      state.setUsage({
        input: Math.max(0, (usage.promptTokenCount ?? 0) - cached),
        output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
        cacheRead: cached,
        cacheWrite: 0,
        ...(usage.thoughtsTokenCount !== undefined ? { reasoningTokens: usage.thoughtsTokenCount } : {}),
      });
    }
    if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    if (!candidate) return;
    for (const part of candidate.content?.parts ?? []) this.onPart(part, out);
    if (candidate.finishReason) this.finishReason = candidate.finishReason;
  }

  private close(out: StreamEvent[]): void {
    if (this.open === null) return;
    const ended = this.state.endBlock(this.open.index);
    if (ended) out.push(ended);
    this.open = null;
  }

  private onPart(part: Part, out: StreamEvent[]): void {
    const { state } = this;
    const signature = part.thoughtSignature;
    if (part.thought === true && typeof part.text === "string") {
      if (this.open?.kind !== "thinking") {
        this.close(out);
        const { index, event } = state.startThinking(signature ? { signature } : {});
        out.push(event);
        this.open = { kind: "thinking", index };
      } else if (signature) state.setThinkingSignature(this.open.index, signature);
      if (part.text) out.push(state.appendThinking(this.open.index, part.text));
      return;
    }
    if (signature) {
      // The signature belongs to this part: kept on a thinking block right before it.
      if (this.open?.kind === "thinking") state.setThinkingSignature(this.open.index, signature);
      else {
        this.close(out);
        const { index, event } = state.startThinking({ signature });
        out.push(event);
        const ended = state.endBlock(index);
        if (ended) out.push(ended);
      }
    }
    if (part.functionCall) {
      this.close(out);
      const call = part.functionCall;
      const { index, event } = state.startToolCall(call.id || newCallId(), appToolName(this.toolNames, call.name ?? ""));
      out.push(event);
      out.push(state.appendToolArguments(index, JSON.stringify(call.args ?? {})));
      const ended = state.endBlock(index);
      if (ended) out.push(ended);
      return;
    }
    // Gemini ends every answer with an empty text part (often carrying the signature, kept above): no block of its own.
    if (typeof part.text === "string" && part.text !== "") {
      if (this.open?.kind !== "text") {
        this.close(out);
        const { index, event } = state.startText();
        out.push(event);
        this.open = { kind: "text", index };
      }
      out.push(state.appendText(this.open.index, part.text));
    }
  }

  finish(): StreamEvent[] {
    if (this.blockReason !== undefined && this.finishReason === undefined) {
      return this.state.finish(
        "error",
        `the prompt was blocked by Gemini (blockReason: ${this.blockReason}); rephrase it or switch models`,
      );
    }
    if (!this.sawChunk || this.finishReason === undefined) throw new TruncatedStreamError("its finishReason");
    const { stopReason, errorMessage } = mapGeminiFinishReason(this.finishReason, this.state.hasToolCalls());
    return this.state.finish(stopReason, errorMessage);
  }
}

export function createGeminiAdapter(config: AdapterConfig = {}): ProviderAdapter {
  return defineAdapter("google-generative-ai", config, streamGemini, buildGeminiRequest);
}

export const geminiAdapter: ProviderAdapter = createGeminiAdapter();
