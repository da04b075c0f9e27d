/**
 * A FauxReply as the Gemini API streams it (`streamGenerateContent?alt=sse`):
 * data-only SSE events, each a GenerateContentResponse with the next parts.
 * Thoughts are `thought: true` text parts; a function call arrives whole in
 * one part, the first of a turn carrying the thought signature (as Gemini 2.5
 * and 3 do); the last event has `finishReason` and `usageMetadata`.
 */
import type { FauxStopReason } from "./types";
import { base62 } from "./ids";
import {
  argumentObject,
  chunks,
  chunkSizeOf,
  sse,
  stopReasonOf,
  usageOf,
  type EncodeInput,
  type Encoded,
  type SseEvent,
} from "./encode-common";

const FINISH: Record<FauxStopReason, string> = {
  stop: "STOP",
  // Gemini ends a function-calling turn with STOP too.
  toolUse: "STOP",
  length: "MAX_TOKENS",
  stopSequence: "STOP",
  refusal: "SAFETY",
  contentFilter: "PROHIBITED_CONTENT",
};

export function encodeGemini(input: EncodeInput): Encoded {
  const { reply, model, signatures } = input;
  const size = chunkSizeOf(reply);
  const usage = usageOf(input);
  const responseId = reply.responseId ?? base62(22);
  const thoughts = reply.content.filter((b) => b.type === "thinking");
  const usageMetadata = {
    promptTokenCount: usage.input + usage.cacheRead,
    candidatesTokenCount: usage.output,
    totalTokenCount: usage.input + usage.cacheRead + usage.output,
    ...(usage.cacheRead > 0 ? { cachedContentTokenCount: usage.cacheRead } : {}),
    ...(thoughts.length > 0
      ? {
          thoughtsTokenCount: Math.max(1, Math.ceil(thoughts.reduce((n, b) => n + (b.type === "thinking" ? b.thinking.length : 0), 0) / 4)),
        }
      : {}),
  };
  const finishReason = FINISH[stopReasonOf(reply)];
  const chunk = (parts: unknown[], last = false) =>
    sse({
      candidates: [{ content: { role: "model", parts }, index: 0, ...(last ? { finishReason } : {}) }],
      usageMetadata,
      modelVersion: model,
      responseId,
    });

  const partsPerEvent: unknown[][] = [];
  const all: unknown[] = [];
  // The signature of the turn's thinking rides on the first function call (or, without calls, the last text part).
  const signature =
    thoughts.length > 0 ? signatures.issue(model, thoughts.map((b) => (b.type === "thinking" ? b.thinking : "")).join("\n")) : undefined;
  const firstCall = reply.content.findIndex((b) => b.type === "toolCall");
  const lastText = reply.content.map((b) => b.type).lastIndexOf("text");
  const signedIndex = firstCall >= 0 ? firstCall : lastText;
  reply.content.forEach((block, index) => {
    const signed = index === signedIndex && signature !== undefined ? { thoughtSignature: signature } : {};
    if (block.type === "thinking") {
      for (const piece of chunks(block.thinking, size)) partsPerEvent.push([{ text: piece, thought: true }]);
      all.push({ text: block.thinking, thought: true });
    } else if (block.type === "text") {
      const pieces = chunks(block.text, size);
      pieces.forEach((piece, i) => partsPerEvent.push([{ text: piece, ...(i === pieces.length - 1 ? signed : {}) }]));
      all.push({ text: block.text, ...signed });
    } else {
      const part = {
        functionCall: { ...(block.id !== undefined ? { id: block.id } : {}), name: block.name, args: argumentObject(block) },
        ...signed,
      };
      partsPerEvent.push([part]);
      all.push(part);
    }
  });
  // The last event carries the finish reason, as Gemini sends it with the last parts.
  if (partsPerEvent.length === 0) partsPerEvent.push([{ text: "" }]);
  const events: SseEvent[] = partsPerEvent.map((parts, i) => chunk(parts, i === partsPerEvent.length - 1));
  const json = {
    candidates: [{ content: { role: "model", parts: all }, finishReason, index: 0 }],
    usageMetadata,
    modelVersion: model,
    responseId,
  };
  return { events, json };
}
