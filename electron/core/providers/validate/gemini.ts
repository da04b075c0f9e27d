/**
 * Strict validator for Gemini `generateContent` requests (the REST JSON body):
 * the rules the Gemini API enforces and its error texts (400,
 * `INVALID_ARGUMENT`). First problem, or null when the real API would accept it.
 */
import { isRecord, quoted, type ProviderRejection, type ValidateContext } from "./common";

type Problem = ProviderRejection | null;

export function geminiError(message: string, status = 400): ProviderRejection {
  const statusText =
    status === 400 ? "INVALID_ARGUMENT" : status === 429 ? "RESOURCE_EXHAUSTED" : status === 401 ? "UNAUTHENTICATED" : "INTERNAL";
  return { status, message, body: { error: { code: status, message, status: statusText } } };
}

const TOP_LEVEL_KEYS = new Set([
  "contents",
  "systemInstruction",
  "tools",
  "toolConfig",
  "generationConfig",
  "safetySettings",
  "cachedContent",
  "labels",
  "model",
]);
const PART_DATA = ["text", "inlineData", "fileData", "functionCall", "functionResponse", "executableCode", "codeExecutionResult"];
const PART_KEYS = new Set([...PART_DATA, "thought", "thoughtSignature", "videoMetadata", "mediaResolution", "partMetadata"]);
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"]);
// "Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64."
const FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const SCHEMA_KEYS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);
const SCHEMA_TYPES = new Set(["TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"]);
export const SKIP_SIGNATURE = "skip_thought_signature_validator";
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The generation in a Gemini model id ("gemini-3-flash-preview" → 3), also inside a longer key ("google/gemini-3…"). */
function generationOf(modelId: string | undefined): number | undefined {
  const match = modelId === undefined ? null : /(?:^|\/)gemini-(\d+)/.exec(modelId);
  return match === null ? undefined : Number(match[1]);
}

/** Models that validate thought signatures on the current turn's function calls (Gemini 3 and later). */
function validatesSignatures(modelId: string | undefined): boolean {
  return (generationOf(modelId) ?? 0) >= 3;
}

/**
 * The thinking levels a model takes, as the service plays it: Gemini 3 Pro LOW and HIGH
 * (3.1 Pro MEDIUM too), Flash all four; models before Gemini 3 none.
 */
function thinkingLevelsOf(modelId: string): readonly string[] | undefined {
  const generation = generationOf(modelId);
  if (generation === undefined) return undefined;
  if (generation < 3) return [];
  if (/flash/.test(modelId)) return ["MINIMAL", "LOW", "MEDIUM", "HIGH"];
  if (/gemini-3-pro/.test(modelId)) return ["LOW", "HIGH"];
  return ["LOW", "MEDIUM", "HIGH"];
}

function thinkingLevelProblem(thinking: Record<string, unknown> | undefined, modelId: string | undefined): Problem {
  if (thinking?.thinkingLevel === undefined) return null;
  if (thinking.thinkingBudget !== undefined) return geminiError("You can only set only one of thinking budget and thinking level.");
  const levels = modelId === undefined ? undefined : thinkingLevelsOf(modelId);
  // A model this validator does not know is not judged on its levels.
  if (levels === undefined) return null;
  if (levels.length === 0) return geminiError("thinking_level is not supported by this model.");
  const level = typeof thinking.thinkingLevel === "string" ? thinking.thinkingLevel.toUpperCase() : JSON.stringify(thinking.thinkingLevel);
  if (!levels.includes(level)) return geminiError(`Thinking level ${level} is not supported by this model.`);
  return null;
}

function loneSurrogatePath(value: unknown, path: string): string | null {
  if (typeof value === "string") return LONE_SURROGATE.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = loneSurrogatePath(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (isRecord(value)) {
    for (const [key, child] of Object.entries(value)) {
      const found = loneSurrogatePath(child, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

function schemaProblem(schema: unknown, path: string): Problem {
  if (!isRecord(schema)) return geminiError(`Invalid JSON payload received. Expected an object at '${path}'.`);
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_KEYS.has(key)) return geminiError(`Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`);
  }
  const type = typeof schema.type === "string" ? schema.type.toUpperCase() : undefined;
  if (schema.type !== undefined && (type === undefined || !SCHEMA_TYPES.has(type))) {
    return geminiError(
      `Invalid JSON payload received. Invalid value at '${path}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(schema.type)}`,
    );
  }
  if (type === "OBJECT" && (!isRecord(schema.properties) || Object.keys(schema.properties).length === 0)) {
    return geminiError(`* GenerateContentRequest.${path}.properties: should be non-empty for OBJECT type`);
  }
  if (type === "ARRAY" && schema.items === undefined) return geminiError(`* GenerateContentRequest.${path}.items: missing field.`);
  if (type === "STRING" && schema.format !== undefined && schema.format !== "enum" && schema.format !== "date-time") {
    return geminiError(`* GenerateContentRequest.${path}.format: only 'enum' and 'date-time' are supported for STRING type`);
  }
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || !schema.enum.every((v) => typeof v === "string"))) {
    return geminiError(`Invalid JSON payload received. Invalid value at '${path}.enum', expected a list of strings.`);
  }
  if (isRecord(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) {
      const problem = schemaProblem(child, `${path}.properties[${name}]`);
      if (problem) return problem;
    }
    if (Array.isArray(schema.required)) {
      const missing = (schema.required as unknown[]).find((r) => typeof r !== "string" || !(r in (schema.properties as object)));
      if (missing !== undefined)
        return geminiError(`* GenerateContentRequest.${path}.required[${quoted(missing)}]: property is not defined`);
    }
  }
  if (schema.items !== undefined) {
    const problem = schemaProblem(schema.items, `${path}.items`);
    if (problem) return problem;
  }
  if (Array.isArray(schema.anyOf)) {
    for (let i = 0; i < schema.anyOf.length; i++) {
      const problem = schemaProblem(schema.anyOf[i], `${path}.any_of[${i}]`);
      if (problem) return problem;
    }
  }
  return null;
}

function toolsProblem(tools: unknown): { problem: Problem; names: Set<string> } {
  const names = new Set<string>();
  if (tools === undefined) return { problem: null, names };
  if (!Array.isArray(tools))
    return { problem: geminiError("Invalid JSON payload received. Invalid value at 'tools', expected a list."), names };
  for (let t = 0; t < tools.length; t++) {
    const tool = tools[t] as unknown;
    if (!isRecord(tool)) return { problem: geminiError(`Invalid JSON payload received. Invalid value at 'tools[${t}]'.`), names };
    const decls = tool.functionDeclarations;
    if (!Array.isArray(decls)) continue;
    for (let d = 0; d < decls.length; d++) {
      const decl = decls[d] as unknown;
      const path = `tools[${t}].function_declarations[${d}]`;
      if (!isRecord(decl) || typeof decl.name !== "string" || !FUNCTION_NAME.test(decl.name)) {
        return {
          problem: geminiError(
            `* GenerateContentRequest.${path}.name: Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64.`,
          ),
          names,
        };
      }
      if (names.has(decl.name))
        return { problem: geminiError(`* GenerateContentRequest.${path}.name: Duplicate function declaration name: ${decl.name}`), names };
      names.add(decl.name);
      if (decl.parameters !== undefined) {
        const problem = schemaProblem(decl.parameters, `${path}.parameters`);
        if (problem) return { problem, names };
      }
    }
  }
  return { problem: null, names };
}

function partProblem(part: unknown, path: string, role: string, modelId: string | undefined, ctx: ValidateContext): Problem {
  if (!isRecord(part)) return geminiError(`Invalid JSON payload received. Invalid value at '${path}'.`);
  for (const key of Object.keys(part)) {
    if (!PART_KEYS.has(key)) return geminiError(`Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`);
  }
  const data = PART_DATA.filter((k) => part[k] !== undefined);
  if (data.length !== 1)
    return geminiError(`* GenerateContentRequest.${path}.data: required oneof field 'data' must have one initialized field`);
  const kind = data[0];
  if (kind === "text" && typeof part.text !== "string")
    return geminiError(`Invalid JSON payload received. Invalid value at '${path}.text'.`);
  if (kind === "inlineData") {
    const inline = part.inlineData;
    if (!isRecord(inline) || typeof inline.data !== "string" || typeof inline.mimeType !== "string") {
      return geminiError(`* GenerateContentRequest.${path}.inline_data: inline data must have mime_type and data`);
    }
    if (!IMAGE_TYPES.has(inline.mimeType)) return geminiError(`Unsupported MIME type: ${inline.mimeType}`);
  }
  if (kind === "functionCall" && role !== "model")
    return geminiError(`Please ensure that function call parts are in a model turn (${path}).`);
  if (kind === "functionResponse" && role !== "user")
    return geminiError(`Please ensure that function response parts are in a user turn (${path}).`);
  if (kind === "functionCall" || kind === "functionResponse") {
    const call = part[kind];
    if (!isRecord(call) || typeof call.name !== "string" || call.name.length === 0)
      return geminiError(
        `* GenerateContentRequest.${path}.${kind === "functionCall" ? "function_call" : "function_response"}.name: Name cannot be empty.`,
      );
    if (kind === "functionResponse" && !isRecord(call.response))
      return geminiError(`* GenerateContentRequest.${path}.function_response.response: missing field.`);
  }
  if (part.thoughtSignature !== undefined) {
    if (role !== "model") return geminiError(`Thought signatures are only allowed in model turns (${path}).`);
    const signature = part.thoughtSignature;
    if (typeof signature !== "string") return geminiError(`Invalid JSON payload received. Invalid value at '${path}.thought_signature'.`);
    // Our placeholder for calls from elsewhere is Gemini's documented one; any other signature must be this model's own.
    if (signature !== SKIP_SIGNATURE && ctx.signatureOwner !== undefined && ctx.signatureOwner(signature) !== modelId) {
      return geminiError("Unable to submit request because Thought signature is not valid.");
    }
  }
  return null;
}

export function validateGeminiRequest(body: unknown, ctx: ValidateContext = {}): Problem {
  if (!isRecord(body)) return geminiError("Invalid JSON payload received. Expected an object.");
  const surrogate = loneSurrogatePath(body, "body");
  if (surrogate !== null) return geminiError(`Invalid JSON payload received. Invalid \\uXXXX escape: lone surrogate at ${surrogate}.`);
  for (const key of Object.keys(body)) {
    if (!TOP_LEVEL_KEYS.has(key)) return geminiError(`Invalid JSON payload received. Unknown name "${key}": Cannot find field.`);
  }
  const modelId = ctx.modelId ?? (typeof body.model === "string" ? body.model : undefined);
  const { problem: toolProblem } = toolsProblem(body.tools);
  if (toolProblem) return toolProblem;
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) return geminiError("* GenerateContentRequest.contents: contents is not specified");

  const thinking =
    isRecord(body.generationConfig) && isRecord(body.generationConfig.thinkingConfig) ? body.generationConfig.thinkingConfig : undefined;
  if (thinking?.thinkingBudget === 0 && modelId !== undefined && /-pro\b/.test(modelId)) {
    return geminiError("Budget 0 is invalid. This model only works in thinking mode.");
  }
  const levelProblem = thinkingLevelProblem(thinking, modelId);
  if (levelProblem) return levelProblem;

  // The current turn starts after the last user content that is not only function responses.
  let currentTurnStart = 0;
  contents.forEach((c: unknown, i) => {
    if (
      isRecord(c) &&
      c.role === "user" &&
      Array.isArray(c.parts) &&
      c.parts.some((p: unknown) => !isRecord(p) || p.functionResponse === undefined)
    )
      currentTurnStart = i + 1;
  });

  let previousCalls: string[] | null = null;
  let previousRole: string | null = null;
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i] as unknown;
    const path = `contents[${i}]`;
    if (!isRecord(content)) return geminiError(`Invalid JSON payload received. Invalid value at '${path}'.`);
    const role = content.role;
    if (role !== "user" && role !== "model") return geminiError("Please use a valid role: user, model.");
    if (!Array.isArray(content.parts) || content.parts.length === 0)
      return geminiError(`* GenerateContentRequest.${path}.parts: contents.parts must not be empty.`);
    const calls: string[] = [];
    const responses: string[] = [];
    let firstCall: Record<string, unknown> | undefined;
    for (let p = 0; p < content.parts.length; p++) {
      const part = content.parts[p] as unknown;
      const problem = partProblem(part, `${path}.parts[${p}]`, role, modelId, ctx);
      if (problem) return problem;
      const rec = part as Record<string, unknown>;
      if (isRecord(rec.functionCall)) {
        calls.push(String(rec.functionCall.name));
        firstCall ??= rec;
      }
      if (isRecord(rec.functionResponse)) responses.push(String(rec.functionResponse.name));
    }
    if (calls.length > 0) {
      if (previousRole !== "user") {
        return geminiError("Please ensure that function call turn comes immediately after a user turn or after a function response turn.");
      }
      if (i >= currentTurnStart && validatesSignatures(modelId) && firstCall?.thoughtSignature === undefined) {
        return geminiError(
          `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${calls[0]}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
        );
      }
    }
    if (responses.length > 0 || (previousCalls !== null && previousCalls.length > 0)) {
      if (previousCalls === null || responses.length !== previousCalls.length) {
        return geminiError(
          "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
        );
      }
      const expected = [...previousCalls].sort().join("\u0000");
      if ([...responses].sort().join("\u0000") !== expected) {
        return geminiError("Please ensure that the function response names match the function call names of the function call turn.");
      }
    }
    previousCalls = role === "model" ? calls : null;
    previousRole = role;
  }
  return null;
}
