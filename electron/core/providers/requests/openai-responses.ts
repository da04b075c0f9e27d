/**
 * OpenAI Responses request body. Pure. Stateless: `store: false`, the whole
 * history in `input`, system prompt in `instructions`.
 *
 * Choices: the model's own reasoning items (stored whole as the thinking
 * signature) are replayed only in a turn whose function calls are sent with
 * their original `fc_…` item ids, so each reasoning item keeps the item that
 * followed it ("Item 'rs_…' of type 'reasoning' was provided without its
 * required following item."); every other reasoning is left out.
 */
import { createHash } from "node:crypto";
import type OpenAI from "openai";
import { z } from "zod";
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { RequestRepair } from "../../../../shared/review";
import type { LlmContext, StreamOptions, ToolChoice } from "../types";
import { isBlank, sanitizeSurrogates } from "../transform/text";
import type { WireAssistantBlock, WireMessage, WireUserBlock } from "../transform/wire-types";
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

export type OpenAIResponsesRequestBody = OpenAI.Responses.ResponseCreateParamsStreaming;
type InputItem = OpenAI.Responses.ResponseInputItem;

const ReasoningItemSchema = z.looseObject({
  type: z.literal("reasoning"),
  id: z.string().regex(/^rs_[a-zA-Z0-9_-]+$/),
  summary: z.array(z.looseObject({ type: z.literal("summary_text"), text: z.string() })),
  // With `store: false` the server keeps nothing: an item without its encrypted content is
  // refused ("Item with id 'rs_…' not found. Items are not persisted when `store` is set to false.").
  encrypted_content: z.string().min(1),
});

/** The id of a stored reasoning item, if the signature is one (for the repair note). */
function reasoningItemId(signature: string): string | undefined {
  try {
    const raw: unknown = JSON.parse(signature);
    if (typeof raw === "object" && raw !== null && "id" in raw && typeof raw.id === "string") return raw.id;
  } catch {
    // Not JSON: no id to name.
  }
  return undefined;
}

/** The stored reasoning item, or undefined when the signature is not one we can replay statelessly. */
function reasoningItem(signature: string): OpenAI.Responses.ResponseReasoningItem | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(signature);
  } catch {
    // Not a signature this adapter wrote: the reasoning item is left out, as for another model's thinking.
    return undefined;
  }
  const parsed = ReasoningItemSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  // Output-only fields are not accepted back as input.
  const { status: _status, ...item } = parsed.data;
  return item;
}

function inputContent(blocks: readonly WireUserBlock[]): OpenAI.Responses.ResponseInputMessageContentList {
  return blocks.map((b) =>
    b.type === "text"
      ? { type: "input_text" as const, text: b.text }
      : { type: "input_image" as const, detail: "auto" as const, image_url: dataUrl(b.mimeType, b.data) },
  );
}

function outputValue(blocks: readonly WireUserBlock[]): string | OpenAI.Responses.ResponseFunctionCallOutputItemList {
  if (blocks.every((b) => b.type === "text")) return blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n");
  return blocks.map((b) =>
    b.type === "text"
      ? { type: "input_text" as const, text: b.text }
      : { type: "input_image" as const, detail: "auto" as const, image_url: dataUrl(b.mimeType, b.data) },
  );
}

/**
 * A same-model turn goes back as it came out: reasoning items, then message
 * and function calls with their `fc_…` ids. If any of its reasoning cannot be
 * replayed (unparseable, or an item id already sent or repeated within the
 * turn: "Duplicate item found with id rs_…"), the whole turn goes without
 * reasoning and without item ids, so no item lacks its partner.
 */
function assistantItems(
  content: readonly WireAssistantBlock[],
  out: InputItem[],
  sentReasoning: Set<string>,
  repairs?: RequestRepair[],
): void {
  const items = new Map<WireAssistantBlock, OpenAI.Responses.ResponseReasoningItem>();
  const turnIds = new Set<string>();
  let replay = replaysItems(content);
  for (const block of content) {
    if (!replay || block.type !== "thinking" || block.signature === undefined) continue;
    const item = reasoningItem(block.signature);
    if (item === undefined) {
      replay = false;
      const id = reasoningItemId(block.signature);
      repairs?.push({
        kind: "reasoningItemDropped",
        messageIndex: null,
        detail: `reasoning item ${id ?? "(unreadable)"} left out with its turn's item ids: it has no encrypted_content, which a stateless (store: false) request needs`,
      });
    } else if (sentReasoning.has(item.id) || turnIds.has(item.id)) replay = false;
    else {
      items.set(block, item);
      turnIds.add(item.id);
    }
  }
  let text: string[] = [];
  const flushText = (): void => {
    if (text.length === 0) return;
    out.push({ role: "assistant", content: text.join("\n\n") });
    text = [];
  };
  for (const block of content) {
    if (block.type === "text") {
      text.push(block.text);
    } else if (block.type === "thinking") {
      const item = replay ? items.get(block) : undefined;
      if (item === undefined) continue;
      flushText();
      sentReasoning.add(item.id);
      out.push(item);
    } else {
      flushText();
      const call: OpenAI.Responses.ResponseFunctionToolCall = {
        type: "function_call",
        call_id: block.id,
        name: block.name,
        arguments: argumentsJson(block.arguments),
      };
      if (replay && block.itemId !== undefined) call.id = block.itemId;
      out.push(call);
    }
  }
  flushText();
}

/** One user or results entry's items (assistant entries go through `assistantItems`). */
function entryItems(message: WireMessage & { role: "user" | "toolResults" }): InputItem[] {
  if (message.role === "user") return [{ role: "user", content: inputContent(message.content) }];
  return message.results.map((r) => ({ type: "function_call_output" as const, call_id: r.id, output: outputValue(r.content) }));
}

/** An assistant entry that replays nothing (no `fc_…` item ids): its items depend on it alone. */
function replaysItems(content: readonly WireAssistantBlock[]): boolean {
  return content.some((b) => b.type === "toolCall" && b.itemId !== undefined);
}

function toInput(wire: readonly WireMessage[], repairs: RequestRepair[]): InputItem[] {
  const out: InputItem[] = [];
  // "Duplicate item found with id rs_…" — a reasoning item goes at most once.
  const sentReasoning = new Set<string>();
  for (const message of wire) {
    if (message.role === "assistant") assistantItems(message.content, out, sentReasoning, repairs);
    else out.push(...entryItems(message));
  }
  return out;
}

function toolChoiceParam(choice: ToolChoice): OpenAIResponsesRequestBody["tool_choice"] {
  if (typeof choice === "string") return choice;
  return { type: "function", name: choice.name };
}

/**
 * One key per session, the same on every request of it, so OpenAI routes them to
 * the same prompt cache; an id too long for the field ("maximum length 64") is hashed.
 */
export function promptCacheKey(sessionId: string): string {
  return sessionId.length <= 64 ? sessionId : createHash("sha256").update(sessionId).digest("base64url");
}

/** The body with `input` as given (the full list, or a placeholder for the JSON path). */
function bodyWith(
  model: ModelInfo,
  context: LlmContext,
  options: Partial<StreamOptions> | undefined,
  prepared: PreparedRequest,
  input: InputItem[],
): OpenAIResponsesRequestBody {
  const { compat } = prepared;
  const body: OpenAIResponsesRequestBody = {
    model: model.id,
    input,
    stream: true,
    store: false,
    max_output_tokens: maxTokensFor(model, options),
  };
  if (!isBlank(context.systemPrompt)) body.instructions = sanitizeSurrogates(context.systemPrompt);
  if (options?.sessionId !== undefined && options.sessionId !== "") body.prompt_cache_key = promptCacheKey(options.sessionId);
  if (prepared.tools.length > 0) {
    body.tools = toolsParam(prepared);
    if (prepared.toolChoice !== undefined) body.tool_choice = toolChoiceParam(prepared.toolChoice);
  }
  if (model.reasoning) {
    // Stateless replay of reasoning needs the encrypted content back.
    body.include = ["reasoning.encrypted_content"];
    const level = options?.reasoning;
    if (level !== undefined && level !== "off") body.reasoning = { effort: level, summary: "auto" };
    else if (level === "off" && compat.reasoningOff === "minimal") body.reasoning = { effort: "minimal" };
  } else if (options?.temperature !== undefined) {
    // Reasoning models reject it: "Unsupported parameter: 'temperature' is not supported with this model."
    body.temperature = options.temperature;
  }
  return body;
}

function toolsParam(prepared: PreparedRequest): OpenAI.Responses.FunctionTool[] {
  return prepared.tools.map((t) => {
    const parameters = objectSchema(t.parameters);
    const tool: OpenAI.Responses.FunctionTool = {
      type: "function",
      name: t.name,
      parameters,
      strict: prepared.compat.strictTools && qualifiesForStrict(parameters),
    };
    if (t.description) tool.description = sanitizeSurrogates(t.description);
    return tool;
  });
}

export function buildOpenAIResponsesRequest(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options?: Partial<StreamOptions>,
): BuiltRequest<OpenAIResponsesRequestBody> {
  const prepared = prepareRequest(model, provider, context, options);
  const repairs: RequestRepair[] = [...prepared.repairs];
  const body = bodyWith(model, context, options, prepared, toInput(prepared.messages, repairs));
  return { body, repairs, idMap: prepared.idMap, toolNames: prepared.names.toStored, compat: prepared.compat };
}
