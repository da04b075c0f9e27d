/** Builders and temp-dir helpers for the store tests. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  AssistantContent,
  AssistantMessage,
  ModelRef,
  SessionEntry,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "../../shared/protocol";

export const SONNET: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" };
export const GPT: ModelRef = { provider: "openai", api: "openai-responses", id: "gpt-5" };
export const MISTRAL: ModelRef = { provider: "mistral", api: "openai-completions", id: "mistral-large-latest" };

export function usage(input: number, output: number, cost: number, cacheRead = 0, cacheWrite = 0): Usage {
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost },
  };
}

export function user(text: string, timestamp = 1_700_000_000_000): SessionEntry {
  const message: UserMessage = { role: "user", content: [{ type: "text", text }], timestamp };
  return { type: "message", message };
}

export function assistant(
  content: AssistantContent[],
  opts: { model?: ModelRef; usage?: Usage; stopReason?: AssistantMessage["stopReason"]; timestamp?: number } = {},
): SessionEntry {
  const message: AssistantMessage = {
    role: "assistant",
    content,
    stopReason: opts.stopReason ?? (content.some((c) => c.type === "toolCall") ? "toolUse" : "stop"),
    model: opts.model ?? SONNET,
    usage: opts.usage ?? usage(100, 20, 0.001),
    timestamp: opts.timestamp ?? 1_700_000_000_100,
  };
  return { type: "message", message };
}

export function toolCall(id: string, name = "read", args: Record<string, unknown> = { path: "a.txt" }): AssistantContent {
  return { type: "toolCall", id, name, arguments: args };
}

export function toolResult(toolCallId: string, text: string, toolName = "read", timestamp = 1_700_000_000_200): SessionEntry {
  const message: ToolResultMessage = {
    role: "toolResult",
    toolCallId,
    toolName,
    isError: false,
    content: [{ type: "text", text }],
    timestamp,
  };
  return { type: "message", message };
}

export interface TempDir {
  path: string;
  file(name: string): string;
  remove(): void;
}

export function tempDir(prefix = "store-test-"): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, file: (name) => join(path, name), remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A clock the test moves by hand, so ordering never depends on wall time. */
export function manualClock(start = 1_700_000_000_000): { now: () => number; tick(ms?: number): number } {
  let t = start;
  return {
    now: () => t,
    tick(ms = 1) {
      t += ms;
      return t;
    },
  };
}
