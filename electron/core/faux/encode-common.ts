/** Helpers shared by the three wire encoders. */
import type { FauxBlock, FauxReply, FauxStopReason, FauxUsage } from "./types";
import type { SignatureRegistry } from "./ids";

/** One Server-Sent Event. `event` is omitted for Chat Completions (data-only stream). */
export interface SseEvent {
  event?: string;
  data: string;
}

export interface EncodeInput {
  reply: FauxReply;
  /** The `model` of the request: the owner of any signature issued here. */
  model: string;
  signatures: SignatureRegistry;
  /** The request's token count (context-window.ts), the default input-token count. */
  requestTokens: number;
}

export interface Encoded {
  /** The SSE events of a streamed answer, in order. */
  events: SseEvent[];
  /** The JSON body of the same answer, non-streamed. */
  json: unknown;
}

export function sse(data: unknown, event?: string): SseEvent {
  return event === undefined ? { data: JSON.stringify(data) } : { event, data: JSON.stringify(data) };
}

export function serializeSse(e: SseEvent): string {
  return `${e.event !== undefined ? `event: ${e.event}\n` : ""}data: ${e.data}\n\n`;
}

/** Splits text into deltas of `size` code points (never inside a surrogate pair). */
export function chunks(text: string, size: number): string[] {
  if (text === "") return [];
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""));
  return out;
}

export function chunkSizeOf(reply: FauxReply): number {
  return Math.max(1, reply.chunkSize ?? 16);
}

export function argumentText(block: Extract<FauxBlock, { type: "toolCall" }>): string {
  return typeof block.arguments === "string" ? block.arguments : JSON.stringify(block.arguments);
}

/** Arguments as an object for non-streamed answers (raw strings that are not objects become {}). */
export function argumentObject(block: Extract<FauxBlock, { type: "toolCall" }>): Record<string, unknown> {
  if (typeof block.arguments !== "string") return block.arguments;
  try {
    const value: unknown = JSON.parse(block.arguments);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // The faux provider's own test data: bad arguments are sent as an empty object.
    return {};
  }
}

export function stopReasonOf(reply: FauxReply): FauxStopReason {
  if (reply.stopReason) return reply.stopReason;
  return reply.content.some((b) => b.type === "toolCall") ? "toolUse" : "stop";
}

export function usageOf(input: EncodeInput): FauxUsage {
  const outputChars = input.reply.content.reduce((n, b) => {
    if (b.type === "text") return n + b.text.length;
    if (b.type === "thinking") return n + b.thinking.length;
    return n + argumentText(b).length + b.name.length;
  }, 0);
  return {
    input: input.reply.usage?.input ?? input.requestTokens,
    output: input.reply.usage?.output ?? Math.max(1, Math.ceil(outputChars / 4)),
    cacheRead: input.reply.usage?.cacheRead ?? 0,
    cacheWrite: input.reply.usage?.cacheWrite ?? 0,
  };
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
