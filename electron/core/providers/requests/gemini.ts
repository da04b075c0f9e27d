/**
 * Gemini `generateContent` request body (the Gemini API's REST JSON, which
 * the `@google/genai` SDK sends as given: see adapters/gemini.ts). Pure.
 *
 * Choices:
 * - Roles are `user` and `model`; tool results are `functionResponse` parts of
 *   a user turn, and a user message that follows them joins that turn.
 * - Ids: Gemini matches responses to calls by name and order, and echoes an
 *   `id` when it gave one. We always send paired ids (the transform's wire
 *   ids), so a call from any model has exactly one response with its id.
 * - Thought signatures belong to the part that carried them: the adapter
 *   stores one as a signed thinking block right before that part, and it goes
 *   back on the next part, for the same model only (the transform drops other
 *   models' thinking). Gemini 3 requires a signature on the first function
 *   call of every step of the current turn ("Function call is missing a
 *   thought_signature in functionCall parts"); a call that has none (another
 *   model's, or an older one's) gets the documented placeholder.
 * - Schemas: the OpenAPI subset Gemini accepts (gemini-schema.ts).
 */
import {
  FunctionCallingConfigMode,
  ThinkingLevel,
  type Content,
  type FunctionDeclaration,
  type Part,
  type Tool,
  type ToolConfig,
} from "@google/genai";
import type { Compat, ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, StreamOptions, ToolChoice } from "../types";
import type { WireMessage, WireUserBlock } from "../transform/wire-types";
import { maxTokensFor, objectSchema, prepareRequest, type BuiltRequest } from "./common";
import { toGeminiSchema } from "./gemini-schema";

/** Gemini's own documented value for a call whose signature is unknown (a handoff from another model). */
export const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

export interface GeminiRequestBody {
  /** Sent in the URL path (`models/{model}:streamGenerateContent`), not in the JSON. */
  model: string;
  contents: Content[];
  systemInstruction?: Content;
  tools?: Tool[];
  toolConfig?: ToolConfig;
  generationConfig: {
    maxOutputTokens: number;
    thinkingConfig?: { includeThoughts: boolean; thinkingBudget?: number; thinkingLevel?: ThinkingLevel };
  };
}

type Level = Compat["thinkingLevels"][number];
/** The wire's enum values (the SDK's `ThinkingLevel`). */
const WIRE_LEVEL: Record<Level, ThinkingLevel> = {
  minimal: ThinkingLevel.MINIMAL,
  low: ThinkingLevel.LOW,
  medium: ThinkingLevel.MEDIUM,
  high: ThinkingLevel.HIGH,
};

const THINKING_BUDGET = { off: 0, low: 1_024, medium: 8_192, high: 24_576 } as const;
/** The smallest budget on models that cannot turn thinking off. */
const MIN_REQUIRED_BUDGET = 128;

function userPart(block: WireUserBlock): Part {
  if (block.type === "text") return { text: block.text };
  // Media types the target does not take were already replaced by a note at the boundary (requests/common.ts).
  return { inlineData: { mimeType: block.mimeType, data: block.data } };
}

function resultText(content: readonly WireUserBlock[]): { text: string; images: Part[] } {
  const texts: string[] = [];
  const images: Part[] = [];
  for (const block of content) {
    if (block.type === "text") texts.push(block.text);
    else images.push(userPart(block));
  }
  return { text: texts.join("\n"), images };
}

function modelParts(message: Extract<WireMessage, { role: "assistant" }>): Part[] {
  const parts: Part[] = [];
  let pendingSignature: string | undefined;
  for (const block of message.content) {
    if (block.type === "thinking") {
      // Our own signed thought: its signature rides on the next part (the one it came with).
      if (block.signature !== undefined && !block.redacted) pendingSignature = block.signature;
      continue;
    }
    const part: Part =
      block.type === "text" ? { text: block.text } : { functionCall: { id: block.id, name: block.name, args: block.arguments } };
    if (pendingSignature !== undefined) {
      part.thoughtSignature = pendingSignature;
      pendingSignature = undefined;
    }
    parts.push(part);
  }
  // A signature with no part after it (the turn ended on thinking) has nothing to ride on: an empty
  // part is refused ("required oneof field 'data' must have one initialized field"), so it is left out.
  return parts;
}

function toContents(wire: readonly WireMessage[]): Content[] {
  const out: Content[] = [];
  let user: Part[] | undefined;
  // Gemini pairs a response with its call by name: the response carries the call's name, whatever the stored result says.
  let callNames = new Map<string, string>();
  const userTurn = (): Part[] => {
    if (user === undefined) {
      user = [];
      out.push({ role: "user", parts: user });
    }
    return user;
  };
  for (const message of wire) {
    if (message.role === "assistant") {
      const parts = modelParts(message);
      // A turn that was only thinking (our own, or cut by the output limit while thinking) has no part to send:
      // "contents.parts must not be empty". It is left out; the user turns around it join.
      if (parts.length === 0) continue;
      user = undefined;
      callNames = new Map(message.content.flatMap((b) => (b.type === "toolCall" ? [[b.id, b.name] as const] : [])));
      out.push({ role: "model", parts });
    } else if (message.role === "user") {
      userTurn().push(...message.content.map(userPart));
    } else {
      const parts = userTurn();
      const images: Part[] = [];
      for (const r of message.results) {
        const { text, images: own } = resultText(r.content);
        const name = callNames.get(r.id) ?? r.name;
        parts.push({ functionResponse: { id: r.id, name, response: r.isError ? { error: text } : { output: text } } });
        images.push(...own);
      }
      parts.push(...images);
    }
  }
  return out;
}

/** Gemini 3: the first call of every model step after the last user-typed turn needs a signature. */
function signCurrentTurn(contents: Content[]): void {
  let start = 0;
  for (let i = contents.length - 1; i >= 0; i--) {
    const c = contents[i];
    if (c.role === "user" && (c.parts ?? []).some((p) => p.functionResponse === undefined)) {
      start = i + 1;
      break;
    }
  }
  for (let i = start; i < contents.length; i++) {
    const c = contents[i];
    if (c.role !== "model") continue;
    const first = (c.parts ?? []).find((p) => p.functionCall !== undefined);
    if (first !== undefined && first.thoughtSignature === undefined) first.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
  }
}

function toolConfig(choice: ToolChoice): ToolConfig {
  if (choice === "auto") return { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } };
  if (choice === "none") return { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } };
  if (choice === "required") return { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } };
  return { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice.name] } };
}

/**
 * Gemini 3 takes a `thinkingLevel` from the model's own list (compat
 * `thinkingLevels`, lowest first), Gemini 2.5 a `thinkingBudget`. "off" is the
 * lowest level on Gemini 3 (none of them turns thinking off entirely: Flash's
 * "minimal" comes closest), a zero budget on 2.5 models that can stop
 * thinking, and the smallest budget on those that cannot.
 */
function thinkingConfig(
  model: ModelInfo,
  compat: Compat,
  options: Partial<StreamOptions> | undefined,
): GeminiRequestBody["generationConfig"]["thinkingConfig"] {
  if (!model.reasoning) return undefined;
  const level = options?.reasoning;
  if (level === undefined) return { includeThoughts: true };
  const levels = compat.thinkingLevels;
  if (levels.length > 0) {
    if (level === "off") return { includeThoughts: false, thinkingLevel: WIRE_LEVEL[levels[0]] };
    return { includeThoughts: true, thinkingLevel: WIRE_LEVEL[nearestLevel(levels, level)] };
  }
  if (level === "off")
    return compat.thinkingRequired
      ? { includeThoughts: false, thinkingBudget: MIN_REQUIRED_BUDGET }
      : { includeThoughts: false, thinkingBudget: 0 };
  return { includeThoughts: true, thinkingBudget: THINKING_BUDGET[level] };
}

const LEVEL_ORDER: readonly Level[] = ["minimal", "low", "medium", "high"];

/** The level asked for when the model takes it, else the next one up (Gemini 3 Pro: medium → high), else its highest. */
function nearestLevel(levels: readonly Level[], wanted: "low" | "medium" | "high"): Level {
  if (levels.includes(wanted)) return wanted;
  const rank = LEVEL_ORDER.indexOf(wanted);
  return levels.find((l) => LEVEL_ORDER.indexOf(l) > rank) ?? levels[levels.length - 1];
}

export function buildGeminiRequest(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options?: Partial<StreamOptions>,
): BuiltRequest<GeminiRequestBody> {
  const prepared = prepareRequest(model, provider, context);
  const contents = toContents(prepared.messages);
  if (prepared.compat.thoughtSignatures) signCurrentTurn(contents);
  const body: GeminiRequestBody = {
    model: model.id,
    contents,
    generationConfig: { maxOutputTokens: maxTokensFor(model, options) },
  };
  if (context.systemPrompt.trim() !== "") body.systemInstruction = { parts: [{ text: context.systemPrompt }] };
  const thinking = thinkingConfig(model, prepared.compat, options);
  if (thinking !== undefined) body.generationConfig.thinkingConfig = thinking;
  if (prepared.tools.length > 0) {
    const declarations: FunctionDeclaration[] = prepared.tools.map((t) => {
      const parameters = toGeminiSchema(prepared.names.toStored[t.name] ?? t.name, objectSchema(t.parameters));
      const hasParameters = parameters.properties !== undefined && Object.keys(parameters.properties as object).length > 0;
      // "parameters.properties: should be non-empty for OBJECT type": a tool without arguments declares none.
      return hasParameters ? { name: t.name, description: t.description, parameters } : { name: t.name, description: t.description };
    });
    body.tools = [{ functionDeclarations: declarations }];
    if (prepared.toolChoice !== undefined) body.toolConfig = toolConfig(prepared.toolChoice);
  }
  return { body, repairs: prepared.repairs, idMap: prepared.idMap, toolNames: prepared.names.toStored, compat: prepared.compat };
}
