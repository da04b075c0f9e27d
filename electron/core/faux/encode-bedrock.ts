/**
 * A FauxReply as Amazon Bedrock's ConverseStream sends it: an AWS event
 * stream (binary frames, `application/vnd.amazon.eventstream`) of
 * messageStart, contentBlockStart / contentBlockDelta / contentBlockStop per
 * block, messageStop and metadata. Reasoning (Claude on Bedrock) arrives as
 * `reasoningContent` deltas with the signature last. Frames are encoded with
 * the AWS SDK's own event-stream codec, so the client parses real frames.
 */
import { EventStreamCodec } from "@smithy/core/event-streams";
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
  refusal: "content_filtered",
  contentFilter: "guardrail_intervened",
};

const codec = new EventStreamCodec(
  (bytes: Uint8Array) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** One event as its binary frame; `event` is the event type (or, for an exception frame, `exception:<type>`). */
export function bedrockFrame(event: SseEvent): Uint8Array {
  const name = event.event ?? "unknown";
  const exception = name.startsWith("exception:");
  const str = (value: string) => ({ type: "string" as const, value });
  const headers: Record<string, ReturnType<typeof str>> = exception
    ? {
        ":exception-type": str(name.slice("exception:".length)),
        ":content-type": str("application/json"),
        ":message-type": str("exception"),
      }
    : { ":event-type": str(name), ":content-type": str("application/json"), ":message-type": str("event") };
  return codec.encode({ headers, body: new TextEncoder().encode(event.data) });
}

export function encodeBedrock(input: EncodeInput): Encoded {
  const { reply, model, signatures } = input;
  const size = chunkSizeOf(reply);
  const usage = usageOf(input);
  const events: SseEvent[] = [sse({ role: "assistant" }, "messageStart")];
  const content: unknown[] = [];
  reply.content.forEach((block, contentBlockIndex) => {
    const delta = (d: unknown) => events.push(sse({ contentBlockIndex, delta: d }, "contentBlockDelta"));
    if (block.type === "text") {
      for (const piece of chunks(block.text, size)) delta({ text: piece });
      content.push({ text: block.text });
    } else if (block.type === "thinking") {
      if (block.redacted) {
        const data = signatures.issue(model, "redacted");
        delta({ reasoningContent: { redactedContent: data } });
        content.push({ reasoningContent: { redactedContent: data } });
      } else {
        const signature = signatures.issue(model, block.thinking);
        for (const piece of chunks(block.thinking, size)) delta({ reasoningContent: { text: piece } });
        delta({ reasoningContent: { signature } });
        content.push({ reasoningContent: { reasoningText: { text: block.thinking, signature } } });
      }
    } else {
      const toolUseId = block.id ?? `tooluse_${newIds.mistralToolCall()}${newIds.mistralToolCall()}`;
      events.push(sse({ contentBlockIndex, start: { toolUse: { toolUseId, name: block.name } } }, "contentBlockStart"));
      for (const piece of chunks(argumentText(block), size)) delta({ toolUse: { input: piece } });
      content.push({ toolUse: { toolUseId, name: block.name, input: argumentObject(block) } });
    }
    events.push(sse({ contentBlockIndex }, "contentBlockStop"));
  });
  const stopReason = STOP[stopReasonOf(reply)];
  events.push(sse({ stopReason }, "messageStop"));
  const wireUsage = {
    inputTokens: usage.input,
    outputTokens: usage.output,
    totalTokens: usage.input + usage.output + usage.cacheRead + usage.cacheWrite,
    ...(usage.cacheRead > 0 ? { cacheReadInputTokens: usage.cacheRead } : {}),
    ...(usage.cacheWrite > 0 ? { cacheWriteInputTokens: usage.cacheWrite } : {}),
  };
  events.push(sse({ usage: wireUsage, metrics: { latencyMs: 42 } }, "metadata"));
  const json = { output: { message: { role: "assistant", content } }, stopReason, usage: wireUsage, metrics: { latencyMs: 42 } };
  return { events, json };
}
