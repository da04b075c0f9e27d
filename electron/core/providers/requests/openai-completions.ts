/**
 * OpenAI Chat Completions request body (OpenAI and OpenAI-compatible servers,
 * quirks from compat flags). Pure.
 *
 * Choices: assistant text goes as one string (compatible servers handle it
 * best); the model's own reasoning goes back only in `reasoning_content` on
 * servers that read it (compat.reasoningField), and servers in thinking mode
 * get it on every assistant tool-call message (compat.reasoningContentOnToolCalls);
 * with no tools offered, old calls and results travel as text, like on every target.
 */
import type OpenAI from "openai";
import type { Compat, ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { RequestRepair } from "../../../../shared/review";
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
  type PreparedRequest,
} from "./common";

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
    b.type === "text"
      ? { type: "text" as const, text: b.text }
      : { type: "image_url" as const, image_url: { url: dataUrl(b.mimeType, b.data) } },
  );
}

function toolText(blocks: readonly WireUserBlock[]): string {
  let text = "";
  for (const block of blocks) if (block.type === "text") text += text.length > 0 ? `\n${block.text}` : block.text;
  return text;
}

/** How an entry's reasoning goes back: `own` in reasoning_content; `onToolCalls`: always on a tool-call message. */
interface ReasoningBack {
  own: boolean;
  onToolCalls: boolean;
}

/** One wire entry's messages (an assistant entry with neither text nor calls has none). `supplied`: told when an empty reasoning_content was added. */
function entryMessages(message: WireMessage, back: ReasoningBack, supplied?: () => void): (ChatMessage | AssistantMessage)[] {
  if (message.role === "user") return [{ role: "user", content: userContent(message.content) }];
  if (message.role === "toolResults")
    return message.results.map((r) => ({ role: "tool" as const, tool_call_id: r.id, content: toolText(r.content) }));
  const texts: string[] = [];
  const reasoning: string[] = [];
  const calls: OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] = [];
  for (const block of message.content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "toolCall") {
      calls.push({ id: block.id, type: "function", function: { name: block.name, arguments: argumentsJson(block.arguments) } });
    } else if (!block.redacted && back.own) reasoning.push(block.thinking);
  }
  // "Invalid value for 'content': expected a string, got null." — an assistant needs text or tool calls.
  if (texts.length === 0 && calls.length === 0) return [];
  const assistant: AssistantMessage = { role: "assistant", content: texts.length > 0 ? texts.join("\n\n") : null };
  if (calls.length > 0) assistant.tool_calls = calls;
  if (reasoning.length > 0) assistant.reasoning_content = reasoning.join("\n\n");
  else if (back.onToolCalls && calls.length > 0) {
    // DeepSeek / Kimi thinking mode, whoever wrote the turn: "Missing `reasoning_content` field in the
    // assistant message at message index N". Nothing else may be sent for another model's turn.
    assistant.reasoning_content = "";
    supplied?.();
  }
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
): OpenAICompletionsRequestBody {
  const { compat } = prepared;
  const body: OpenAICompletionsRequestBody = { model: model.id, messages, stream: true };
  if (compat.streamUsage) body.stream_options = { include_usage: true };
  body[compat.maxTokensField] = maxTokensFor(model, options);
  if (prepared.tools.length > 0) {
    body.tools = toolsParam(prepared);
    if (prepared.toolChoice !== undefined) body.tool_choice = toolChoiceParam(prepared.toolChoice);
  }
  const level = options?.reasoning;
  if (model.reasoning && compat.reasoningEffort && level !== undefined) {
    if (level !== "off") body.reasoning_effort = level;
    else if (compat.reasoningOff === "minimal") body.reasoning_effort = "minimal";
  }
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
  const prepared = prepareRequest(model, provider, context, options);
  const back = reasoningBack(prepared.compat);
  const repairs: RequestRepair[] = [...prepared.repairs];
  const messages: (ChatMessage | AssistantMessage)[] = [];
  const system = systemMessage(context, prepared.compat);
  if (system) messages.push(system);
  for (const message of prepared.messages) {
    const supplied = () =>
      repairs.push({
        kind: "reasoningContentSupplied",
        messageIndex: null,
        detail: `empty reasoning_content sent on the assistant tool-call message at index ${messages.length}: the server requires it and there is no reasoning of this model to send`,
      });
    messages.push(...entryMessages(message, back, supplied));
  }
  return {
    body: bodyWith(model, options, prepared, messages),
    repairs,
    idMap: prepared.idMap,
    toolNames: prepared.names.toStored,
    compat: prepared.compat,
  };
}

function reasoningBack(compat: Compat): ReasoningBack {
  return { own: compat.reasoningField === "reasoning_content", onToolCalls: compat.reasoningContentOnToolCalls };
}
