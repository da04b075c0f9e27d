/**
 * Amazon Bedrock Converse (`ConverseStream`) request body, as the JSON the
 * service receives (images as base64 text; adapters/bedrock.ts turns them
 * into the bytes the `@aws-sdk/client-bedrock-runtime` input wants). Pure.
 *
 * Choices:
 * - Strict alternation, starting with a user turn ("A conversation must
 *   alternate between user and assistant roles"); tool results are
 *   `toolResult` blocks of the next user turn, and a user message that follows
 *   them joins it.
 * - `toolUseId` follows `[a-zA-Z0-9_-]+`, 1 to 64 characters (the transform's
 *   "bedrock" id rule).
 * - `toolConfig` is sent whenever tools are offered ("The toolConfig field
 *   must be defined when using toolUse and toolResult content blocks"); with
 *   none offered the transform turns old calls into text.
 * - Reasoning goes back only signed and only to the model that wrote it;
 *   requested through `additionalModelRequestFields` as the model family
 *   expects (compat `bedrockReasoning`). Claude's thinking keeps the Anthropic
 *   API's rules on Bedrock: not with a forced tool, and not when the tool loop
 *   in progress was started without it (another model, or reasoning switched
 *   on mid-turn).
 * - Prompt caching (compat `bedrockCachePoint`): a `cachePoint` after the
 *   system prompt and at the end of the last message, as Anthropic's
 *   breakpoints sit.
 */
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, StreamOptions, ToolChoice } from "../types";
import type { WireMessage, WireUserBlock } from "../transform/wire-types";
import { maxTokensFor, objectSchema, prepareRequest, type BuiltRequest } from "./common";

type ImageFormat = "png" | "jpeg" | "gif" | "webp";
export type BedrockImage = { image: { format: ImageFormat; source: { bytes: string } } };
export type BedrockCachePoint = { cachePoint: { type: "default" } };
export type BedrockUserBlock =
  | BedrockCachePoint
  | { text: string }
  | BedrockImage
  | { toolResult: { toolUseId: string; content: Array<{ text: string } | BedrockImage>; status: "success" | "error" } };
export type BedrockAssistantBlock =
  | { text: string }
  | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } }
  | { reasoningContent: { reasoningText: { text: string; signature: string } } }
  | { reasoningContent: { redactedContent: string } };
export type BedrockMessage = { role: "user"; content: BedrockUserBlock[] } | { role: "assistant"; content: BedrockAssistantBlock[] };

export interface BedrockRequestBody {
  /** Sent in the URL path (`/model/{modelId}/converse-stream`), not in the JSON. */
  modelId: string;
  messages: BedrockMessage[];
  system?: Array<{ text: string } | BedrockCachePoint>;
  inferenceConfig: { maxTokens: number };
  toolConfig?: {
    tools: Array<{ toolSpec: { name: string; description: string; inputSchema: { json: Record<string, unknown> } } }>;
    toolChoice?: { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };
  };
  additionalModelRequestFields?: Record<string, unknown>;
}

const CACHE_POINT: BedrockCachePoint = { cachePoint: { type: "default" } };
const IMAGE_FORMATS: Record<string, ImageFormat> = { "image/png": "png", "image/jpeg": "jpeg", "image/gif": "gif", "image/webp": "webp" };
const THINKING_BUDGET = { low: 2_048, medium: 8_192, high: 24_576 } as const;
/** Anthropic on Bedrock: "budget_tokens: Input should be greater than or equal to 1024", and below max_tokens. */
const MIN_BUDGET = 1_024;

function userBlock(block: WireUserBlock): { text: string } | BedrockImage {
  if (block.type === "text") return { text: block.text };
  // The boundary already replaced media types Bedrock does not take by a note (requests/common.ts).
  return { image: { format: IMAGE_FORMATS[block.mimeType] ?? "png", source: { bytes: block.data } } };
}

function assistantBlocks(message: Extract<WireMessage, { role: "assistant" }>): BedrockAssistantBlock[] {
  const out: BedrockAssistantBlock[] = [];
  for (const block of message.content) {
    if (block.type === "text") out.push({ text: block.text });
    else if (block.type === "toolCall") out.push({ toolUse: { toolUseId: block.id, name: block.name, input: block.arguments } });
    else if (block.redacted) out.push({ reasoningContent: { redactedContent: block.signature ?? "" } });
    else if (block.signature !== undefined)
      out.push({ reasoningContent: { reasoningText: { text: block.thinking, signature: block.signature } } });
  }
  return out;
}

function toMessages(wire: readonly WireMessage[]): BedrockMessage[] {
  const out: BedrockMessage[] = [];
  let user: BedrockUserBlock[] | undefined;
  const userTurn = (): BedrockUserBlock[] => {
    if (user === undefined) {
      user = [];
      out.push({ role: "user", content: user });
    }
    return user;
  };
  for (const message of wire) {
    if (message.role === "assistant") {
      user = undefined;
      const content = assistantBlocks(message);
      // An assistant turn whose only content was another form of reasoning still holds its place in the alternation.
      out.push({ role: "assistant", content: content.length > 0 ? content : [{ text: "(no answer)" }] });
    } else if (message.role === "user") {
      userTurn().push(...message.content.map(userBlock));
    } else {
      const blocks = userTurn();
      for (const r of message.results) {
        blocks.push({ toolResult: { toolUseId: r.id, content: r.content.map(userBlock), status: r.isError ? "error" : "success" } });
      }
    }
  }
  return out;
}

function toolChoice(choice: ToolChoice): NonNullable<BedrockRequestBody["toolConfig"]>["toolChoice"] {
  if (choice === "auto" || choice === "none") return { auto: {} };
  if (choice === "required") return { any: {} };
  return { tool: { name: choice.name } };
}

/**
 * Claude on Bedrock answers thinking with a forced tool with 400 ("Thinking may
 * not be enabled when tool_choice forces tool use."), and thinking whose last
 * assistant turn calls tools without opening with its reasoning ("When
 * `thinking` is enabled, a final `assistant` message must start with a thinking
 * block"): such a request goes without thinking.
 */
function claudeThinkingAllowed(toolChoice: ToolChoice | undefined, messages: readonly BedrockMessage[]): boolean {
  if (toolChoice === "required" || typeof toolChoice === "object") return false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role !== "assistant") continue;
    const usesTools = message.content.some((b) => "toolUse" in b);
    return !usesTools || "reasoningContent" in message.content[0];
  }
  return true;
}

function reasoningFields(
  model: ModelInfo,
  family: string,
  maxTokens: number,
  options: Partial<StreamOptions> | undefined,
  allowed: () => boolean,
): Record<string, unknown> | undefined {
  const level = options?.reasoning;
  if (!model.reasoning || level === undefined || level === "off") return undefined;
  if (family === "anthropic-thinking") {
    if (!allowed()) return undefined;
    const budget = Math.max(MIN_BUDGET, Math.min(THINKING_BUDGET[level], maxTokens - 1_024));
    return budget < maxTokens ? { thinking: { type: "enabled", budget_tokens: budget } } : undefined;
  }
  if (family === "nova") return { reasoningConfig: { type: "enabled", maxReasoningEffort: level } };
  return undefined;
}

export function buildBedrockRequest(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options?: Partial<StreamOptions>,
): BuiltRequest<BedrockRequestBody> {
  const prepared = prepareRequest(model, provider, context);
  const maxTokens = maxTokensFor(model, options);
  const messages = toMessages(prepared.messages);
  const cache = prepared.compat.bedrockCachePoint;
  const body: BedrockRequestBody = { modelId: model.id, messages, inferenceConfig: { maxTokens } };
  if (context.systemPrompt.trim() !== "")
    body.system = cache ? [{ text: context.systemPrompt }, CACHE_POINT] : [{ text: context.systemPrompt }];
  if (prepared.tools.length > 0) {
    body.toolConfig = {
      tools: prepared.tools.map((t) => ({
        toolSpec: { name: t.name, description: t.description, inputSchema: { json: objectSchema(t.parameters) } },
      })),
    };
    // Converse has no "none": the tools stay offered (history calls stay structured) and the model decides.
    if (prepared.toolChoice !== undefined && prepared.toolChoice !== "auto") body.toolConfig.toolChoice = toolChoice(prepared.toolChoice);
  }
  const extra = reasoningFields(model, prepared.compat.bedrockReasoning, maxTokens, options, () =>
    claudeThinkingAllowed(prepared.toolChoice, messages),
  );
  if (extra !== undefined) body.additionalModelRequestFields = extra;
  // After the thinking check: it reads the messages' first blocks, and the cache point goes last.
  const last = messages[messages.length - 1];
  if (cache && last?.role === "user") last.content.push(CACHE_POINT);
  return { body, repairs: prepared.repairs, idMap: prepared.idMap, toolNames: prepared.names.toStored, compat: prepared.compat };
}
