/** Small builders for stored entries used by the renderer tests. */
import type { AssistantMessage, StoredEntry, ToolCall, ToolResultMessage } from "../../shared/protocol";
import { emptyUsage } from "../../shared/protocol";

export const anthropic = { provider: "anthropic", api: "anthropic-messages" as const, id: "claude-x" };
export const openai = { provider: "openai", api: "openai-responses" as const, id: "gpt-x" };

export function user(seq: number, text: string): StoredEntry {
  return { seq, entry: { type: "message", message: { role: "user", content: [{ type: "text", text }], timestamp: seq } } };
}

export function assistant(
  seq: number,
  parts: { text?: string; calls?: ToolCall[]; tokens?: number; cost?: number; stop?: AssistantMessage["stopReason"] },
): StoredEntry {
  const usage = emptyUsage();
  usage.totalTokens = parts.tokens ?? 0;
  usage.cost.total = parts.cost ?? 0;
  return {
    seq,
    entry: {
      type: "message",
      message: {
        role: "assistant",
        content: [...(parts.text ? [{ type: "text" as const, text: parts.text }] : []), ...(parts.calls ?? [])],
        stopReason: parts.stop ?? (parts.calls?.length ? "toolUse" : "stop"),
        model: anthropic,
        usage,
        timestamp: seq,
      },
    },
  };
}

export function call(id: string, name: string, args: Record<string, unknown>): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

export function result(seq: number, toolCallId: string, opts: Partial<ToolResultMessage> = {}): StoredEntry {
  return {
    seq,
    entry: {
      type: "message",
      message: {
        role: "toolResult",
        toolCallId,
        toolName: opts.toolName ?? "read",
        isError: opts.isError ?? false,
        content: opts.content ?? [{ type: "text", text: "ok" }],
        details: opts.details,
        timestamp: seq,
      },
    },
  };
}
