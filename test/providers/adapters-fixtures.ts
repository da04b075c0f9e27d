/**
 * Models and providers pointed at a running faux provider, one per wire route,
 * plus helpers to run a stream to its end.
 */
import type { ModelInfo, ProviderConfig } from "../../shared/models";
import type { AssistantMessage, Message, ToolResultMessage } from "../../shared/protocol";
import type { FauxProvider, FauxRoute } from "../../electron/core/faux";
import { streamModel } from "../../electron/core/providers";
import type { LlmContext, StreamEvent, StreamOptions, ToolSpec } from "../../electron/core/providers/types";

export const API_KEY = "sk-faux-test-0123456789abcdefABCDEF";

export interface Target {
  route: FauxRoute;
  label: string;
  model: ModelInfo;
  provider: ProviderConfig;
}

const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

export function targets(faux: Pick<FauxProvider, "baseUrls">): Record<FauxRoute, Target> {
  return {
    anthropic: {
      route: "anthropic",
      label: "Anthropic Messages",
      model: {
        id: "claude-faux-4",
        name: "Claude (faux)",
        provider: "anthropic",
        api: "anthropic-messages",
        contextWindow: 200_000,
        maxOutput: 8_192,
        input: ["text", "image"],
        reasoning: true,
        price,
      },
      provider: { key: "anthropic", label: "Anthropic", api: "anthropic-messages", baseUrl: faux.baseUrls.anthropic },
    },
    "openai-completions": {
      route: "openai-completions",
      label: "OpenAI Chat Completions",
      model: {
        id: "gpt-faux-chat",
        name: "GPT (faux, chat)",
        provider: "openai",
        api: "openai-completions",
        contextWindow: 128_000,
        maxOutput: 16_384,
        input: ["text", "image"],
        reasoning: false,
        price,
        compat: { reasoningField: "reasoning_content" },
      },
      provider: {
        key: "openai",
        label: "OpenAI",
        api: "openai-completions",
        baseUrl: faux.baseUrls.openai,
        compat: { maxTokensField: "max_completion_tokens", streamUsage: true },
      },
    },
    "openai-responses": {
      route: "openai-responses",
      label: "OpenAI Responses",
      model: {
        id: "gpt-faux-responses",
        name: "GPT (faux, responses)",
        provider: "openai",
        api: "openai-responses",
        contextWindow: 400_000,
        maxOutput: 32_000,
        input: ["text", "image"],
        reasoning: true,
        price,
      },
      provider: { key: "openai", label: "OpenAI", api: "openai-responses", baseUrl: faux.baseUrls.openai, compat: { strictTools: true } },
    },
    mistral: {
      route: "mistral",
      label: "Mistral (compatible)",
      model: {
        id: "mistral-faux-large",
        name: "Mistral (faux)",
        provider: "mistral",
        api: "openai-completions",
        contextWindow: 131_072,
        maxOutput: 8_192,
        input: ["text"],
        reasoning: false,
        price: { input: 2, output: 6, cacheRead: 0, cacheWrite: 0 },
      },
      provider: {
        key: "mistral",
        label: "Mistral",
        api: "openai-completions",
        baseUrl: faux.baseUrls.mistral,
        compat: { toolCallIdRule: "mistral9", assistantAfterToolResult: true, maxTokensField: "max_tokens", streamUsage: false },
      },
    },
    gemini: {
      route: "gemini",
      label: "Gemini",
      model: {
        id: "gemini-3-faux-pro",
        name: "Gemini (faux)",
        provider: "google",
        api: "google-generative-ai",
        contextWindow: 1_048_576,
        maxOutput: 65_536,
        input: ["text", "image"],
        reasoning: true,
        price,
        compat: { thoughtSignatures: true },
      },
      provider: { key: "google", label: "Google Gemini", api: "google-generative-ai", baseUrl: faux.baseUrls.gemini },
    },
    bedrock: {
      route: "bedrock",
      label: "Amazon Bedrock",
      model: {
        id: "us.anthropic.claude-faux-v1:0",
        name: "Claude (faux, Bedrock)",
        provider: "bedrock",
        api: "bedrock-converse-stream",
        contextWindow: 200_000,
        maxOutput: 32_000,
        input: ["text", "image"],
        reasoning: true,
        price,
        compat: { bedrockReasoning: "anthropic-thinking" },
      },
      provider: {
        key: "bedrock",
        label: "Amazon Bedrock",
        api: "bedrock-converse-stream",
        baseUrl: faux.baseUrls.bedrock,
        awsCredentials: true,
      },
    },
  };
}

/** The four SSE wires (the transport-level tests run on these). */
export const ROUTES: readonly FauxRoute[] = ["anthropic", "openai-completions", "openai-responses", "mistral"];
/** Every wire API, Gemini and Bedrock included (handoff matrix, demo agent). */
export const ALL_ROUTES: readonly FauxRoute[] = [...ROUTES, "gemini", "bedrock"];

/** The AWS SDK finds credentials in the environment; fake ones for the faux provider (it checks no signature). */
export function fakeAwsCredentials(): void {
  process.env.AWS_ACCESS_KEY_ID ??= "AKIAFAUXFAUXFAUXFAUX";
  process.env.AWS_SECRET_ACCESS_KEY ??= "faux-secret-access-key-for-tests-only";
}

export const TOOLS: ToolSpec[] = [
  {
    name: "read",
    description: "Read a file.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, limit: { type: "integer" } },
      required: ["path"],
      additionalProperties: false,
    },
  },
  {
    name: "bash",
    description: "Run a command.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"], additionalProperties: false },
  },
];

export function user(text: string, timestamp = 1): Message {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

export function toolResult(toolCallId: string, toolName: string, text: string, isError = false): ToolResultMessage {
  return { role: "toolResult", toolCallId, toolName, isError, content: [{ type: "text", text }], timestamp: 2 };
}

export function context(messages: Message[], tools: ToolSpec[] = TOOLS): LlmContext {
  return { systemPrompt: "You are a careful coding agent.", messages, tools };
}

export interface RunResult {
  events: StreamEvent[];
  final: Extract<StreamEvent, { type: "done" | "error" }>;
  message: AssistantMessage;
}

/** Runs one stream to its end; `onEvent` may abort through the controller it receives. */
export async function run(
  target: Target,
  ctx: LlmContext,
  options: Partial<StreamOptions> = {},
  onEvent?: (event: StreamEvent, controller: AbortController) => void,
): Promise<RunResult> {
  const controller = new AbortController();
  const events: StreamEvent[] = [];
  const stream = streamModel(target.model, target.provider, ctx, { apiKey: API_KEY, signal: controller.signal, ...options });
  for await (const event of stream) {
    events.push(event);
    onEvent?.(event, controller);
  }
  const finals = events.filter((e): e is RunResult["final"] => e.type === "done" || e.type === "error");
  if (finals.length !== 1 || events[events.length - 1] !== finals[0]) {
    throw new Error(`stream must end with exactly one done/error event, got ${events.map((e) => e.type).join(",")}`);
  }
  return { events, final: finals[0], message: finals[0].message };
}
