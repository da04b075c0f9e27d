/**
 * What the three request builders share: choosing the transform target for a
 * model, mapping tool names, and deciding whether a schema qualifies for
 * OpenAI strict mode.
 */
import type { Compat, ModelInfo, ProviderConfig } from "../../../../shared/models";
import type { LlmContext, StreamOptions, ToolChoice, ToolSpec } from "../types";
import type { IdRule } from "../transform/ids";
import { ToolNames } from "../transform/tool-names";
import { transformHistory } from "../transform/transform";
import type { TransformResult, TransformTarget } from "../transform/wire-types";
import type { RequestRepair } from "../../../../shared/review";
import { resolveCompat } from "../registry";

export interface BuiltRequest<Body> {
  body: Body;
  /** What the request leaves out of or changes in the stored history, and why ("what the model saw"). */
  repairs: RequestRepair[];
  /** wire tool-call id -> stored id, for this request only ("what the model saw"). */
  idMap: ReadonlyMap<string, string>;
  /** wire tool name -> the app's tool name, to map the model's calls back. */
  toolNames: Record<string, string>;
  /** The model's compat flags, as the body was built with them (the reply is read with the same). */
  compat: Compat;
}

export interface PreparedRequest extends TransformResult {
  compat: Compat;
  names: ToolNames;
  /** Tools actually offered (empty array means none), with wire names. */
  tools: ToolSpec[];
  /** Tool choice after mapping the named tool; undefined when no tools are offered. */
  toolChoice: ToolChoice | undefined;
}

/** Image media types per wire API (Anthropic, OpenAI and Bedrock take exactly these four; Gemini no GIF). */
const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const GEMINI_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/webp"]);

function idRuleFor(model: ModelInfo, compat: Compat): IdRule {
  if (model.api === "anthropic-messages") return "anthropic";
  if (model.api === "openai-responses") return "responses";
  if (model.api === "google-generative-ai") return "gemini";
  // The id rule follows the model family, not only the API: Mistral on Bedrock keeps Mistral's 9 alphanumerics.
  if (model.api === "bedrock-converse-stream") return compat.toolCallIdRule === "mistral9" ? "mistral9" : "bedrock";
  return compat.toolCallIdRule;
}

function ownThinkingPolicy(model: ModelInfo, compat: Compat): TransformTarget["ownThinking"] {
  // Anthropic: a thinking block needs its signature ("thinking.signature: Field required"), so unsigned becomes text.
  if (model.api === "anthropic-messages") return { signed: "keep", unsigned: "text" };
  // Responses: the signature is the encrypted reasoning item; its summary text alone is not replayable.
  if (model.api === "openai-responses") return { signed: "keep", unsigned: "drop" };
  // Gemini: a thought signature goes back on its part; unsigned thought summaries are not replayed.
  if (model.api === "google-generative-ai") return { signed: "keep", unsigned: "drop" };
  // Bedrock: reasoning goes back signed (Claude: "reasoningContent.reasoningText.signature" is required), else not at all.
  if (model.api === "bedrock-converse-stream") return { signed: "keep", unsigned: "drop" };
  // Chat Completions: reasoning goes back only on servers that read it (DeepSeek `reasoning_content`).
  if (compat.reasoningField === "reasoning_content") return { signed: "keep", unsigned: "keep" };
  return { signed: "drop", unsigned: "drop" };
}

interface ToolSide {
  names: ToolNames;
  tools: ToolSpec[];
  toolChoice: ToolChoice | undefined;
}

function toolSide(context: LlmContext): ToolSide {
  // "tools: Tool names must be unique." — the first spec of a name wins.
  const specs = (context.tools ?? []).filter((t, i, all) => all.findIndex((o) => o.name === t.name) === i);
  const names = new ToolNames(specs.map((t) => t.name));
  const tools = specs.map((t) => ({ name: names.wire(t.name), description: t.description, parameters: t.parameters }));
  // Tool choice "none" still offers the tools: history calls stay structured and the model is told not to call.
  let toolChoice: ToolChoice | undefined;
  if (tools.length > 0) {
    const choice = context.toolChoice ?? "auto";
    if (typeof choice === "string") toolChoice = choice;
    else if (specs.some((t) => t.name === choice.name)) toolChoice = { name: names.wire(choice.name) };
    // A named tool that is not offered would be rejected; fall back to letting the model decide.
    else toolChoice = "auto";
  }
  return { names, tools, toolChoice };
}

/** The transformed history and what the builders need besides it. */
export function prepareRequest(
  model: ModelInfo,
  provider: ProviderConfig,
  context: LlmContext,
  options?: Partial<StreamOptions>,
): PreparedRequest {
  const compat = resolveCompat(model, provider);
  const { names, tools, toolChoice } = toolSide(context);
  const target: TransformTarget = {
    model: { provider: model.provider, api: model.api, id: model.id },
    idRule: idRuleFor(model, compat),
    toolsOffered: tools.length > 0,
    acceptsImages: model.input.includes("image"),
    // Chat tool messages and Gemini function responses carry text only.
    toolResultImages: model.api !== "openai-completions" && model.api !== "google-generative-ai",
    assistantAfterToolResult: model.api === "openai-completions" && compat.assistantAfterToolResult,
    ownThinking: ownThinkingPolicy(model, compat),
    // Never demoted for Anthropic: "Refusal (reasoning_extraction)".
    otherThinking: options?.demoteOtherReasoning === true && model.api !== "anthropic-messages" ? "text" : "drop",
    // Gemini takes no GIF ("Unsupported MIME type: image/gif").
    imageTypes: model.api === "google-generative-ai" ? GEMINI_IMAGE_TYPES : IMAGE_TYPES,
    toolName: (stored) => names.wire(stored),
  };
  const { messages, idMap, repairs }: TransformResult = transformHistory(context.messages, target);
  return { messages, idMap, repairs, compat, names, tools, toolChoice };
}

export function maxTokensFor(model: ModelInfo, options: Partial<StreamOptions> | undefined): number {
  const requested = options?.maxTokens;
  if (requested !== undefined && Number.isInteger(requested) && requested > 0) return Math.min(requested, model.maxOutput);
  return model.maxOutput;
}

export function dataUrl(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`;
}

/** Arguments as the JSON text OpenAI expects. */
export function argumentsJson(args: Record<string, unknown>): string {
  return JSON.stringify(args);
}

/** Root must be an object schema for every API. */
export function objectSchema(parameters: Record<string, unknown>): Record<string, unknown> {
  if (parameters.type === "object") return parameters;
  return { ...parameters, type: "object", properties: parameters.properties ?? {} };
}

const STRICT_FORBIDDEN = ["allOf", "oneOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * OpenAI strict mode accepts a schema only when every object has
 * `additionalProperties: false` and lists every property in `required`,
 * the root is an object, no `allOf`/`not`/`if`… appear, and nesting stays ≤ 5.
 */
export function qualifiesForStrict(schema: Record<string, unknown>): boolean {
  if (schema.type !== "object") return false;
  const visit = (node: unknown, depth: number): boolean => {
    if (!isRecord(node)) return true;
    if (depth > 5) return false;
    for (const key of STRICT_FORBIDDEN) if (key in node) return false;
    if (node.type === "object" || isRecord(node.properties)) {
      if (node.additionalProperties !== false) return false;
      const props = isRecord(node.properties) ? Object.keys(node.properties) : [];
      const required = Array.isArray(node.required) ? node.required : [];
      if (props.some((p) => !required.includes(p))) return false;
      if (isRecord(node.properties)) {
        for (const child of Object.values(node.properties)) if (!visit(child, depth + 1)) return false;
      }
    }
    if (node.items !== undefined && !visit(node.items, depth + 1)) return false;
    const anyOf = node.anyOf;
    if (Array.isArray(anyOf) && !anyOf.every((child) => visit(child, depth + 1))) return false;
    for (const key of ["$defs", "definitions"]) {
      const defs = node[key];
      if (isRecord(defs) && !Object.values(defs).every((child) => visit(child, depth + 1))) return false;
    }
    return true;
  };
  return visit(schema, 1);
}
