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
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, StreamOptions, ToolChoice } from "../types";
import { isBlank, sanitizeSurrogates } from "../transform/text";
import type { WireMessage, WireUserBlock } from "../transform/wire-types";
import { argumentsJson, dataUrl, maxTokensFor, objectSchema, prepareRequest, qualifiesForStrict, type BuiltRequest } from "./common";

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

function toMessages(wire: readonly WireMessage[], reasoningContent: boolean): (ChatMessage | AssistantMessage)[] {
  const out: (ChatMessage | AssistantMessage)[] = [];
  for (const message of wire) {
    if (message.role === "user") {
      out.push({ role: "user", content: userContent(message.content) });
    } else if (message.role === "toolResults") {
      for (const r of message.results) out.push({ role: "tool", tool_call_id: r.id, content: toolText(r.content) });
    } else {
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
      if (texts.length === 0 && calls.length === 0) continue;
      const assistant: AssistantMessage = { role: "assistant", content: texts.length > 0 ? texts.join("\n\n") : null };
      if (calls.length > 0) assistant.tool_calls = calls;
      if (reasoning.length > 0) assistant.reasoning_content = reasoning.join("\n\n");
      out.push(assistant);
    }
  }
  return out;
}

function toolChoiceParam(choice: ToolChoice): OpenAI.Chat.ChatCompletionToolChoiceOption {
  if (typeof choice === "string") return choice;
  return { type: "function", function: { name: choice.name } };
}

export function buildOpenAICompletionsRequest(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options?: Partial<StreamOptions>,
): BuiltRequest<OpenAICompletionsRequestBody> {
  const prepared = prepareRequest(model, provider, context);
  const { compat } = prepared;
  const messages = toMessages(prepared.messages, compat.reasoningField === "reasoning_content");
  if (!isBlank(context.systemPrompt)) {
    messages.unshift({ role: compat.systemRole, content: sanitizeSurrogates(context.systemPrompt) });
  }
  const body: OpenAICompletionsRequestBody = { model: model.id, messages, stream: true };
  if (compat.streamUsage) body.stream_options = { include_usage: true };
  body[compat.maxTokensField] = maxTokensFor(model, options);
  if (prepared.tools.length > 0) {
    body.tools = prepared.tools.map((t) => {
      const parameters = objectSchema(t.parameters);
      const fn: OpenAI.FunctionDefinition = { name: t.name, parameters };
      if (t.description) fn.description = sanitizeSurrogates(t.description);
      if (compat.strictTools && qualifiesForStrict(parameters)) fn.strict = true;
      return { type: "function" as const, function: fn };
    });
    if (prepared.toolChoice !== undefined) body.tool_choice = toolChoiceParam(prepared.toolChoice);
  }
  const level = options?.reasoning;
  if (model.reasoning && compat.reasoningEffort && level !== undefined && level !== "off") body.reasoning_effort = level;
  if (options?.temperature !== undefined) body.temperature = options.temperature;
  return { body, idMap: prepared.idMap, toolNames: prepared.names.toStored };
}
