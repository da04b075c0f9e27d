/** Small builders for stored messages and the four targets, shared by the transform/request tests. */
import type {
  AssistantContent,
  AssistantMessage,
  Message,
  ModelRef,
  ToolResultMessage,
  UserContent,
  UserMessage,
} from "../../shared/protocol";
import { emptyUsage } from "../../shared/protocol";
import type { ModelInfo, ProviderConfig } from "../../shared/models";
import { findModel, findProvider } from "../../electron/core/providers/registry";
import type { ToolSpec } from "../../electron/core/providers/types";

export const CLAUDE: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" };
export const OPUS: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-opus-4-5" };
export const GPT5: ModelRef = { provider: "openai", api: "openai-responses", id: "gpt-5" };
export const GPT41_CHAT: ModelRef = { provider: "openai", api: "openai-completions", id: "gpt-4.1" };
export const MISTRAL: ModelRef = { provider: "mistral", api: "openai-completions", id: "mistral-large-latest" };
export const KIMI: ModelRef = { provider: "groq", api: "openai-completions", id: "moonshotai/kimi-k2-instruct-0905" };

let clock = 0;

export function user(...parts: (string | UserContent)[]): UserMessage {
  return { role: "user", content: parts.map((p) => (typeof p === "string" ? { type: "text", text: p } : p)), timestamp: ++clock };
}

export function assistant(
  model: ModelRef,
  content: AssistantContent[],
  stopReason: AssistantMessage["stopReason"] = "toolUse",
): AssistantMessage {
  return { role: "assistant", content, stopReason, model, usage: emptyUsage(), timestamp: ++clock };
}

export function text(value: string): AssistantContent {
  return { type: "text", text: value };
}

export function call(id: string, name = "read", args: Record<string, unknown> = { path: "a.txt" }): AssistantContent {
  return { type: "toolCall", id, name, arguments: args };
}

export function result(toolCallId: string, output: string | UserContent[], toolName = "read", isError = false): ToolResultMessage {
  const content: UserContent[] = typeof output === "string" ? [{ type: "text", text: output }] : output;
  return { role: "toolResult", toolCallId, toolName, isError, content, timestamp: ++clock };
}

export const PNG: UserContent = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };

export const TOOLS: ToolSpec[] = [
  {
    name: "read",
    description: "Read a file.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  {
    name: "bash",
    description: "Run a command.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  },
];

export interface Target {
  model: ModelInfo;
  provider: ProviderConfig;
}

export function target(ref: string, api?: ModelInfo["api"]): Target {
  const model = findModel(ref, api);
  const provider = model && findProvider(model.provider);
  if (!model || !provider) throw new Error(`registry lacks ${ref}`);
  return { model, provider };
}

export function freeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) freeze(child);
  }
  return value;
}

export type History = Message[];
