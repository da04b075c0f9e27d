/**
 * OpenAI Chat Completions request body (OpenAI and OpenAI-compatible servers,
 * quirks from compat flags). Pure.
 *
 * Choices: assistant text goes as one string (compatible servers handle it
 * best); the model's own reasoning goes back only in `reasoning_content` on
 * servers that read it (compat.reasoningField); with no tools offered, old
 * calls and results travel as text, like on every target.
 */
import type OpenAI from "openai";
import type { Compat, ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, StreamOptions, ToolChoice } from "../types";
import { isBlank, sanitizeSurrogates } from "../transform/text";
import type { WireMessage, WireUserBlock } from "../transform/wire-types";
import {
  argumentsJson,
  dataUrl,
  maxTokensFor,
  objectSchema,
  prepareRequest,
  qualifiesForStrict,
  type BuiltRequest,
  type JsonRequest,
  type PreparedRequest,
} from "./common";
import { chunksAround, EncodedPrefixes, entryContent, FragmentCache, itemsJson, PerToolSpecs } from "./json-body";

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type AssistantMessage = OpenAI.Chat.ChatCompletionAssistantMessageParam & { reasoning_content?: string };

/** The SDK's params plus the compat-only fields some servers read. */
export type OpenAICompletionsRequestBody = OpenAI.Chat.ChatCompletionCreateParamsStreaming & {
  messages: (ChatMessage | AssistantMessage)[];
  max_tokens?: number;
};

function userContent(blocks: readonly WireUserBlock[]): string | OpenAI.Chat.ChatCompletionContentPart[] {
  if (blocks.length === 1 && blocks[0].type === "text") return blocks[0].text;
  return blocks.map((b) =>
    b.type === "text" ? { type: "text" as const, text: b.text } : { type: "image_url" as const, image_url: { url: dataUrl(b.mimeType, b.data) } },
  );
}

function toolText(blocks: readonly WireUserBlock[]): string {
  let text = "";
  for (const block of blocks) if (block.type === "text") text += text.length > 0 ? `\n${block.text}` : block.text;
  return text;
}

/** One wire entry's messages (an assistant entry with neither text nor calls has none). */
function entryMessages(message: WireMessage, reasoningContent: boolean): (ChatMessage | AssistantMessage)[] {
  if (message.role === "user") return [{ role: "user", content: userContent(message.content) }];
  if (message.role === "toolResults") return message.results.map((r) => ({ role: "tool" as const, tool_call_id: r.id, content: toolText(r.content) }));
  const texts: string[] = [];
  const reasoning: string[] = [];
  const calls: OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] = [];
  for (const block of message.content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "toolCall") {
      calls.push({ id: block.id, type: "function", function: { name: block.name, arguments: argumentsJson(block.arguments) } });
    } else if (!block.redacted && reasoningContent) reasoning.push(block.thinking);
  }
  // "Invalid value for 'content': expected a string, got null." — an assistant needs text or tool calls.
  if (texts.length === 0 && calls.length === 0) return [];
  const assistant: AssistantMessage = { role: "assistant", content: texts.length > 0 ? texts.join("\n\n") : null };
  if (calls.length > 0) assistant.tool_calls = calls;
  if (reasoning.length > 0) assistant.reasoning_content = reasoning.join("\n\n");
  return [assistant];
}

function toolChoiceParam(choice: ToolChoice): OpenAI.Chat.ChatCompletionToolChoiceOption {
  if (typeof choice === "string") return choice;
  return { type: "function", function: { name: choice.name } };
}

function systemMessage(context: LlmContext, compat: Compat): ChatMessage | undefined {
  if (isBlank(context.systemPrompt)) return undefined;
  return { role: compat.systemRole, content: sanitizeSurrogates(context.systemPrompt) };
}

/** The body with `messages` as given (the full list, or a placeholder for the JSON path). */
function bodyWith(
  model: ModelInfo,
  options: Partial<StreamOptions> | undefined,
  prepared: PreparedRequest,
  messages: (ChatMessage | AssistantMessage)[],
  tools: OpenAI.Chat.ChatCompletionFunctionTool[] = toolsParam(prepared),
): OpenAICompletionsRequestBody {
  const { compat } = prepared;
  const body: OpenAICompletionsRequestBody = { model: model.id, messages, stream: true };
  if (compat.streamUsage) body.stream_options = { include_usage: true };
  body[compat.maxTokensField] = maxTokensFor(model, options);
  if (prepared.tools.length > 0) {
    body.tools = tools;
    if (prepared.toolChoice !== undefined) body.tool_choice = toolChoiceParam(prepared.toolChoice);
  }
  const level = options?.reasoning;
  if (model.reasoning && compat.reasoningEffort && level !== undefined && level !== "off") body.reasoning_effort = level;
  if (options?.temperature !== undefined) body.temperature = options.temperature;
  return body;
}

function toolsParam(prepared: PreparedRequest): OpenAI.Chat.ChatCompletionFunctionTool[] {
  return prepared.tools.map((t) => {
    const parameters = objectSchema(t.parameters);
    const fn: OpenAI.FunctionDefinition = { name: t.name, parameters };
    if (t.description) fn.description = sanitizeSurrogates(t.description);
    if (prepared.compat.strictTools && qualifiesForStrict(parameters)) fn.strict = true;
    return { type: "function" as const, function: fn };
  });
}

export function buildOpenAICompletionsRequest(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options?: Partial<StreamOptions>,
): BuiltRequest<OpenAICompletionsRequestBody> {
  const prepared = prepareRequest(model, provider, context);
  const reasoningContent = prepared.compat.reasoningField === "reasoning_content";
  const messages: (ChatMessage | AssistantMessage)[] = [];
  const system = systemMessage(context, prepared.compat);
  if (system) messages.push(system);
  for (const message of prepared.messages) messages.push(...entryMessages(message, reasoningContent));
  return { body: bodyWith(model, options, prepared, messages), idMap: prepared.idMap, toolNames: prepared.names.toStored };
}

/** Entry JSON per variant: with and without `reasoning_content`. */
const fragments = { plain: new FragmentCache(), reasoning: new FragmentCache() };
const prefixes = { plain: new EncodedPrefixes(), reasoning: new EncodedPrefixes() };
const toolParams = new PerToolSpecs<OpenAI.Chat.ChatCompletionFunctionTool[]>();

/** The same body as `buildOpenAICompletionsRequest`, as JSON text (the streaming path; see json-body.ts). No `idMap`. */
export function buildOpenAICompletionsRequestJson(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options?: Partial<StreamOptions>,
): JsonRequest {
  const prepared = prepareRequest(model, provider, context, true);
  const reasoningContent = prepared.compat.reasoningField === "reasoning_content";
  const cache = reasoningContent ? fragments.reasoning : fragments.plain;
  const wire = prepared.messages;
  const chunks = (reasoningContent ? prefixes.reasoning : prefixes.plain).items(wire, (from) => {
    const message = wire[from];
    return { json: cache.get(entryContent(message), () => itemsJson(entryMessages(message, reasoningContent))), next: from + 1 };
  }, prepared.kept);
  const system = systemMessage(context, prepared.compat);
  const tools = context.tools ? toolParams.get(context.tools, prepared.compat.strictTools ? "strict" : "", () => toolsParam(prepared)) : undefined;
  const body = bodyWith(model, options, prepared, [], tools);
  return {
    chunks: chunksAround(body as unknown as Record<string, unknown>, "messages", chunks, system && JSON.stringify(system)),
    toolNames: prepared.names.toStored,
  };
}
