/**
 * A FauxReply as OpenAI Chat Completions (or Mistral) would stream it:
 * `chat.completion.chunk` objects, a finish chunk, the usage chunk when
 * `stream_options.include_usage` asked for it, then `data: [DONE]`.
 * Mistral sends each tool call whole in one chunk and always reports usage.
 */
import type { FauxStopReason } from "./types";
import { newIds } from "./ids";
import {
  argumentText,
  chunks,
  chunkSizeOf,
  nowSeconds,
  stopReasonOf,
  usageOf,
  type EncodeInput,
  type Encoded,
  type SseEvent,
} from "./encode-common";

const FINISH: Record<FauxStopReason, string> = {
  stop: "stop",
  toolUse: "tool_calls",
  length: "length",
  stopSequence: "stop",
  refusal: "content_filter",
  contentFilter: "content_filter",
};

export interface CompletionsEncodeOptions {
  includeUsage: boolean;
  mistral: boolean;
}

export function encodeOpenAICompletions(input: EncodeInput, options: CompletionsEncodeOptions): Encoded {
  const { reply, model } = input;
  const size = chunkSizeOf(reply);
  const usage = usageOf(input);
  const id = reply.responseId ?? newIds.chatCompletion();
  const created = nowSeconds();
  const finish = FINISH[stopReasonOf(reply)];
  const reasoningField = reply.reasoningField ?? "reasoning_content";
  const wireUsage = {
    prompt_tokens: usage.input + usage.cacheRead,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.cacheRead + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
  const sendUsage = !reply.omitUsage && (options.includeUsage || options.mistral);
  const base = { id, object: "chat.completion.chunk", created, model, system_fingerprint: null };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}): SseEvent => ({
    data: JSON.stringify({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(options.includeUsage && !options.mistral ? { usage: null } : {}),
      ...extra,
    }),
  });

  const events: SseEvent[] = [chunk({ role: "assistant", content: "" })];
  let text = "";
  let reasoning = "";
  const toolCalls: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }> = [];

  for (const block of reply.content) {
    if (block.type === "text") {
      text += block.text;
      for (const piece of chunks(block.text, size)) events.push(chunk({ content: piece }));
    } else if (block.type === "thinking") {
      reasoning += block.thinking;
      for (const piece of chunks(block.thinking, size)) events.push(chunk({ [reasoningField]: piece }));
    } else {
      const index = toolCalls.length;
      const callId = block.id ?? (options.mistral ? newIds.mistralToolCall() : newIds.chatToolCall());
      const args = argumentText(block);
      toolCalls.push({ id: callId, type: "function", function: { name: block.name, arguments: args } });
      if (options.mistral) {
        events.push(chunk({ tool_calls: [{ index, id: callId, type: "function", function: { name: block.name, arguments: args } }] }));
        continue;
      }
      events.push(chunk({ tool_calls: [{ index, id: callId, type: "function", function: { name: block.name, arguments: "" } }] }));
      for (const piece of chunks(args, size)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }

  if (options.mistral && sendUsage) {
    events.push(chunk({}, finish, { usage: wireUsage }));
  } else {
    events.push(chunk({}, finish));
    if (sendUsage) events.push({ data: JSON.stringify({ ...base, choices: [], usage: wireUsage }) });
  }
  events.push({ data: "[DONE]" });

  const message: Record<string, unknown> = { role: "assistant", content: text === "" ? null : text, refusal: null };
  if (reasoning !== "") message[reasoningField] = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const json = {
    id,
    object: "chat.completion",
    created,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage: wireUsage,
    system_fingerprint: null,
  };
  return { events, json };
}

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export function openaiError(message: string, type: string, code: string | null = null, param: string | null = null): unknown {
  return { error: { message, type, param, code } };
}

/** Mistral's error body: `{ object: "error", message, type, param, code }`. */
export function mistralError(message: string, type: string, code: string | null = null): unknown {
  return { object: "error", message, type, param: null, code };
}
