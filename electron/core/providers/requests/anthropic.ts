/**
 * Anthropic Messages request body from the stored history. Pure.
 *
 * Choices: with no tools offered, old calls and results travel as text
 * ("Requests which include `tool_use` or `tool_result` blocks must define
 * tools."); prompt-cache breakpoints sit on the system prompt and the last
 * message; thinking is requested only when the model reasons, the session asks
 * for a level and the request allows it (see `thinkingConfig`): a token budget,
 * or adaptive thinking with an effort where the model declares it. No
 * `temperature`: the SDK's params no longer carry sampling fields, and with
 * thinking it must be 1 anyway.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Compat, ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, StreamOptions, ToolChoice } from "../types";
import { isBlank, sanitizeSurrogates } from "../transform/text";
import type { WireAssistantBlock, WireMessage, WireToolResult, WireUserBlock } from "../transform/wire-types";
import { maxTokensFor, objectSchema, prepareRequest, type BuiltRequest, type PreparedRequest } from "./common";

export type AnthropicRequestBody = Anthropic.MessageCreateParamsStreaming;
type ContentBlock = Anthropic.ContentBlockParam;
/** What we send: user and assistant turns with block content (never a plain string). */
type Turn = { role: "user" | "assistant"; content: ContentBlock[] };
type ImageMediaType = Anthropic.Base64ImageSource["media_type"];

const THINKING_BUDGET = { low: 2_048, medium: 8_192, high: 24_576 } as const;
/** Room left for the answer after a thinking budget when max_tokens is raised to fit it. */
const ANSWER_ROOM = 8_192;
const EPHEMERAL = { type: "ephemeral" } as const;

function userBlock(block: WireUserBlock): Anthropic.TextBlockParam | Anthropic.ImageBlockParam {
  if (block.type === "text") return { type: "text", text: block.text };
  // Media types the API refuses were filtered by the transform (`TransformTarget.imageTypes`).
  return { type: "image", source: { type: "base64", media_type: block.mimeType as ImageMediaType, data: block.data } };
}

function assistantBlock(block: WireAssistantBlock): ContentBlock {
  if (block.type === "text") return { type: "text", text: block.text };
  if (block.type === "toolCall") return { type: "tool_use", id: block.id, name: block.name, input: block.arguments };
  if (block.redacted) return { type: "redacted_thinking", data: block.signature ?? "" };
  return { type: "thinking", thinking: block.thinking, signature: block.signature ?? "" };
}

function resultBlock(r: WireToolResult): ContentBlock {
  // Set after the literal rather than spread into it: this runs per result per request.
  const block: Anthropic.ToolResultBlockParam = { type: "tool_result", tool_use_id: r.id, content: r.content.map(userBlock) };
  if (r.isError) block.is_error = true;
  return block;
}

/**
 * The turns: tool results open a user turn, a user message that follows joins
 * it. Arrays come from `map` (exactly the size needed); this runs per message
 * per request, and an empty array's first push reserves room for 16 entries.
 */
function toMessages(wire: readonly WireMessage[]): Turn[] {
  const out: Turn[] = [];
  let userContent: ContentBlock[] | undefined;
  for (let i = 0; i < wire.length; i++) {
    const message = wire[i];
    if (message.role === "assistant") {
      userContent = undefined;
      out.push({ role: "assistant", content: message.content.map(assistantBlock) });
    } else if (userContent !== undefined) {
      if (message.role === "user") for (const block of message.content) userContent.push(userBlock(block));
      else for (const r of message.results) userContent.push(resultBlock(r));
    } else {
      userContent = message.role === "user" ? message.content.map(userBlock) : message.results.map(resultBlock);
      out.push({ role: "user", content: userContent });
    }
  }
  return out;
}

function toolChoiceParam(choice: ToolChoice): Anthropic.ToolChoice {
  if (choice === "auto") return { type: "auto" };
  if (choice === "none") return { type: "none" };
  if (choice === "required") return { type: "any" };
  return { type: "tool", name: choice.name };
}

/**
 * Thinking is enabled only when it is legal for this request:
 * "Thinking may not be enabled when tool_choice forces tool use."; the budget
 * must be ≥ 1024 and below max_tokens; and "When `thinking` is enabled, a final
 * `assistant` message must start with a thinking block" — a tool loop started
 * by another model (or without thinking) continues without it.
 */
interface ThinkingParams {
  thinking?: Anthropic.ThinkingConfigEnabled | Anthropic.ThinkingConfigAdaptive;
  outputConfig?: Anthropic.OutputConfig;
  maxTokens: number;
}

function thinkingConfig(
  model: ModelInfo,
  compat: Compat,
  options: Partial<StreamOptions> | undefined,
  maxTokens: number,
  toolChoice: ToolChoice | undefined,
  lastAssistant: readonly ContentBlock[] | undefined,
): ThinkingParams {
  const level = options?.reasoning;
  if (!model.reasoning || level === undefined || level === "off") return { maxTokens };
  if (toolChoice === "required" || typeof toolChoice === "object") return { maxTokens };
  if (lastAssistant !== undefined) {
    const hasToolUse = lastAssistant.some((b) => b.type === "tool_use");
    const first = lastAssistant[0];
    if (hasToolUse && first?.type !== "thinking" && first?.type !== "redacted_thinking") return { maxTokens };
  }
  if (compat.anthropicThinking === "adaptive") {
    return { thinking: { type: "adaptive", display: "summarized" }, outputConfig: { effort: level }, maxTokens };
  }
  // "`max_tokens` must be greater than `thinking.budget_tokens`": raise max_tokens to fit the budget
  // and an answer (within the model's output cap), then shrink the budget if the cap is lower.
  const raised = Math.max(maxTokens, Math.min(model.maxOutput, THINKING_BUDGET[level] + ANSWER_ROOM));
  const budget = Math.min(THINKING_BUDGET[level], raised - 1_024);
  if (budget < 1_024) return { maxTokens };
  return { thinking: { type: "enabled", budget_tokens: budget }, maxTokens: raised };
}

/** The block with a prompt-cache breakpoint, or the block itself when it cannot carry one. */
function withBreakpoint(block: ContentBlock): ContentBlock {
  if (block.type !== "text" && block.type !== "image" && block.type !== "tool_result") return block;
  return { ...block, cache_control: EPHEMERAL };
}

/**
 * Marks the last cacheable block of the last message as a prompt-cache
 * breakpoint, in place: every turn and content array `toMessages` made is
 * this request's own (the block itself is replaced, never written to).
 */
function withCacheBreakpoint(messages: Turn[]): Turn[] {
  const last = messages[messages.length - 1];
  if (last === undefined || last.content.length === 0) return messages;
  const blocks = last.content;
  blocks[blocks.length - 1] = withBreakpoint(blocks[blocks.length - 1]);
  return messages;
}

/** The body around the turns. */
function bodyWith(
  model: ModelInfo,
  context: LlmContext,
  options: Partial<StreamOptions> | undefined,
  prepared: PreparedRequest,
  messages: Turn[],
  lastAssistant: readonly ContentBlock[] | undefined,
): AnthropicRequestBody {
  const { thinking, outputConfig, maxTokens } = thinkingConfig(
    model,
    prepared.compat,
    options,
    maxTokensFor(model, options),
    prepared.toolChoice,
    lastAssistant,
  );
  const body: AnthropicRequestBody = { model: model.id, max_tokens: maxTokens, stream: true, messages };
  if (!isBlank(context.systemPrompt)) {
    body.system = [{ type: "text", text: sanitizeSurrogates(context.systemPrompt), cache_control: EPHEMERAL }];
  }
  if (prepared.tools.length > 0) {
    body.tools = toolsParam(prepared);
    if (prepared.toolChoice !== undefined) body.tool_choice = toolChoiceParam(prepared.toolChoice);
  }
  if (thinking) body.thinking = thinking;
  if (outputConfig) body.output_config = outputConfig;
  return body;
}

function toolsParam(prepared: PreparedRequest): Anthropic.Tool[] {
  return prepared.tools.map((t) => ({
    name: t.name,
    ...(t.description ? { description: sanitizeSurrogates(t.description) } : {}),
    input_schema: objectSchema(t.parameters) as Anthropic.Tool.InputSchema,
  }));
}

export function buildAnthropicRequest(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options?: Partial<StreamOptions>,
): BuiltRequest<AnthropicRequestBody> {
  const prepared = prepareRequest(model, provider, context, options);
  const messages = withCacheBreakpoint(toMessages(prepared.messages));
  let lastAssistant: ContentBlock[] | undefined;
  for (let i = messages.length - 1; i >= 0 && lastAssistant === undefined; i--) {
    if (messages[i].role === "assistant") lastAssistant = messages[i].content;
  }
  const body = bodyWith(model, context, options, prepared, messages, lastAssistant);
  return { body, repairs: prepared.repairs, idMap: prepared.idMap, toolNames: prepared.names.toStored, compat: prepared.compat };
}
