/**
 * A FauxReply as Anthropic Messages would send it: message_start, ping,
 * content_block_start / _delta / _stop per block (thinking with a
 * `signature_delta` just before its stop), message_delta, message_stop.
 */
import type { FauxStopReason } from "./types";
import { newIds } from "./ids";
import {
  argumentObject,
  argumentText,
  chunks,
  chunkSizeOf,
  sse,
  stopReasonOf,
  usageOf,
  type EncodeInput,
  type Encoded,
  type SseEvent,
} from "./encode-common";

const STOP: Record<FauxStopReason, string> = {
  stop: "end_turn",
  toolUse: "tool_use",
  length: "max_tokens",
  stopSequence: "stop_sequence",
  refusal: "refusal",
  contentFilter: "refusal",
};

export function encodeAnthropic(input: EncodeInput): Encoded {
  const { reply, model, signatures } = input;
  const size = chunkSizeOf(reply);
  const usage = usageOf(input);
  const id = reply.responseId ?? newIds.anthropicMessage();
  const stopReason = STOP[stopReasonOf(reply)];
  const wireUsage = {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    output_tokens: usage.output,
    service_tier: "standard",
  };

  const events: SseEvent[] = [];
  const content: unknown[] = [];
  events.push(
    sse(
      {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...wireUsage, output_tokens: 1 },
        },
      },
      "message_start",
    ),
  );
  events.push(sse({ type: "ping" }, "ping"));

  reply.content.forEach((block, index) => {
    const start = (content_block: unknown) =>
      events.push(sse({ type: "content_block_start", index, content_block }, "content_block_start"));
    const delta = (d: unknown) => events.push(sse({ type: "content_block_delta", index, delta: d }, "content_block_delta"));
    const stop = () => events.push(sse({ type: "content_block_stop", index }, "content_block_stop"));
    switch (block.type) {
      case "text":
        start({ type: "text", text: "" });
        for (const piece of chunks(block.text, size)) delta({ type: "text_delta", text: piece });
        stop();
        content.push({ type: "text", text: block.text });
        break;
      case "thinking":
        if (block.redacted) {
          const data = signatures.issue(model, "redacted");
          start({ type: "redacted_thinking", data });
          stop();
          content.push({ type: "redacted_thinking", data });
          break;
        }
        {
          const signature = signatures.issue(model, block.thinking);
          start({ type: "thinking", thinking: "", signature: "" });
          for (const piece of chunks(block.thinking, size)) delta({ type: "thinking_delta", thinking: piece });
          delta({ type: "signature_delta", signature });
          stop();
          content.push({ type: "thinking", thinking: block.thinking, signature });
        }
        break;
      case "toolCall": {
        const toolId = block.id ?? newIds.anthropicToolUse();
        start({ type: "tool_use", id: toolId, name: block.name, input: {} });
        for (const piece of chunks(argumentText(block), size)) delta({ type: "input_json_delta", partial_json: piece });
        stop();
        content.push({ type: "tool_use", id: toolId, name: block.name, input: argumentObject(block) });
        break;
      }
    }
  });

  events.push(
    sse({ type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { ...wireUsage } }, "message_delta"),
  );
  events.push(sse({ type: "message_stop" }, "message_stop"));

  const json = {
    id,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: wireUsage,
  };
  return { events, json };
}

/** The real error body shape: `{ type: "error", error: { type, message } }`. */
export function anthropicError(type: string, message: string): unknown {
  return { type: "error", error: { type, message } };
}
