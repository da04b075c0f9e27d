/**
 * Shared pieces of the strict request validators: the rejection type, the
 * providers' error bodies, and OpenAI's strict-schema rules.
 */

/** What a real provider answers to a request it refuses. */
export interface ProviderRejection {
  status: number;
  /** The provider's JSON error body, shaped as the real one. */
  body: unknown;
  message: string;
}

export interface ValidateContext {
  /** The model that issued a signature / redacted data / encrypted reasoning; undefined when unknown. */
  signatureOwner?: (signature: string) => string | undefined;
  /** The model the request is judged for (defaults to the body's `model`). */
  modelId?: string;
  /** The request came in on the streaming method (Bedrock: ConverseStream rather than Converse). */
  stream?: boolean;
  /** Apply Mistral's rules on top of Chat Completions'. */
  mistral?: boolean;
  /**
   * Thinking mode of DeepSeek / Kimi servers: every assistant message with tool
   * calls in the current tool loop must carry `reasoning_content`.
   */
  reasoningContentRequired?: boolean;
}

/** A value as the real APIs quote it in an error: strings as they are, anything else as JSON. */
export function quoted(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "undefined");
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function anthropicError(message: string, status = 400): ProviderRejection {
  return { status, message, body: { type: "error", error: { type: "invalid_request_error", message } } };
}

export function openaiError(message: string, param: string | null = null, code: string | null = null, status = 400): ProviderRejection {
  return { status, message, body: { error: { message, type: "invalid_request_error", param, code } } };
}

export function mistralError(message: string, type: string, code: string, status = 400): ProviderRejection {
  return { status, message, body: { object: "error", message, type, param: null, code } };
}

/** OpenAI's function name rule (Chat tools, Responses tools, history calls). */
export function openaiNameProblem(name: unknown, param: string): ProviderRejection | null {
  if (typeof name !== "string")
    return openaiError(`Invalid type for '${param}': expected a string, but got ${typeof name} instead.`, param, "invalid_type");
  if (name.length > 64) {
    return openaiError(
      `Invalid '${param}': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`,
      param,
      "string_above_max_length",
    );
  }
  if (!/^[a-zA-Z0-9_-]+$/.test(name)) {
    return openaiError(
      `Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      param,
      "invalid_value",
    );
  }
  return null;
}

export function tooLong(param: string, max: number, length: number): ProviderRejection {
  return openaiError(
    `Invalid '${param}': string too long. Expected a string with maximum length ${max}, but got a string with length ${length} instead.`,
    param,
    "string_above_max_length",
  );
}

const STRICT_NOT_PERMITTED = ["allOf", "oneOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties"];

function contextText(path: readonly string[]): string {
  return `(${path.map((p) => `'${p}'`).join(", ")}${path.length === 1 ? "," : ""})`;
}

/**
 * OpenAI's schema checks for function parameters; with `strict`, the Structured
 * Outputs subset ("In context=(), 'additionalProperties' is required to be
 * supplied and to be false.").
 */
export function openaiSchemaProblem(name: string, schema: unknown, strict: boolean, param: string): ProviderRejection | null {
  const prefix = `Invalid schema for function '${name}':`;
  if (!isRecord(schema))
    return openaiError(
      `${prefix} schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`,
      param,
      "invalid_function_parameters",
    );
  if (schema.type !== "object") {
    return openaiError(
      `${prefix} schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type)}"'.`,
      param,
      "invalid_function_parameters",
    );
  }
  if (!strict) return null;
  const visit = (node: unknown, path: string[]): string | null => {
    if (!isRecord(node)) return null;
    if (path.length > 10) return `In context=${contextText(path)}, schema exceeds the maximum nesting depth.`;
    for (const key of STRICT_NOT_PERMITTED) if (key in node) return `In context=${contextText(path)}, '${key}' is not permitted.`;
    if (node.type === "object" || isRecord(node.properties)) {
      if (node.additionalProperties !== false) {
        return `In context=${contextText(path)}, 'additionalProperties' is required to be supplied and to be false.`;
      }
      const props = isRecord(node.properties) ? Object.keys(node.properties) : [];
      const required = Array.isArray(node.required) ? node.required : [];
      const missing = props.find((p) => !required.includes(p));
      if (missing !== undefined) {
        return `In context=${contextText(path)}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
      }
      if (isRecord(node.properties)) {
        for (const [key, child] of Object.entries(node.properties)) {
          const problem = visit(child, [...path, "properties", key]);
          if (problem) return problem;
        }
      }
    }
    if (node.items !== undefined) {
      const problem = visit(node.items, [...path, "items"]);
      if (problem) return problem;
    }
    if (Array.isArray(node.anyOf)) {
      for (let i = 0; i < node.anyOf.length; i++) {
        const problem = visit(node.anyOf[i], [...path, "anyOf", String(i)]);
        if (problem) return problem;
      }
    }
    for (const defsKey of ["$defs", "definitions"]) {
      const defs = node[defsKey];
      if (!isRecord(defs)) continue;
      for (const [key, child] of Object.entries(defs)) {
        const problem = visit(child, [...path, defsKey, key]);
        if (problem) return problem;
      }
    }
    return null;
  };
  const problem = visit(schema, []);
  return problem ? openaiError(`${prefix} ${problem}`, param, "invalid_function_parameters") : null;
}

/** Offset in the JSON text of the first lone surrogate escape (`\udXXX` not part of a pair), or -1. */
function loneSurrogateOffset(json: string): number {
  // JSON.stringify writes pairs as raw characters and lone surrogates as escapes; skip escaped backslashes.
  const match = /(?:^|[^\\])(?:\\\\)*(\\ud[89a-f][0-9a-f]{2})/i.exec(json);
  return match === null ? -1 : match.index + match[0].length - match[1].length;
}

/**
 * A lone UTF-16 surrogate anywhere in the body (text, tool arguments, tool
 * names): Anthropic refuses the whole body — "The request body is not valid
 * JSON: no low surrogate in string: line 1 column N (char N-1)".
 */
export function anthropicSurrogateProblem(body: unknown): ProviderRejection | null {
  const offset = loneSurrogateOffset(JSON.stringify(body) ?? "");
  if (offset < 0) return null;
  return anthropicError(`The request body is not valid JSON: no low surrogate in string: line 1 column ${offset + 1} (char ${offset})`);
}

/** OpenAI's answer to a body its JSON parser refuses (a lone surrogate among others). */
export function openaiSurrogateProblem(body: unknown): ProviderRejection | null {
  if (loneSurrogateOffset(JSON.stringify(body) ?? "") < 0) return null;
  return openaiError(
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
  );
}

const OPENAI_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * Any base64 image (a `data:` URL in `image_url`, Chat's `image_url.url` or
 * Responses' `input_image`) of a type OpenAI does not take.
 */
export function openaiImageTypeProblem(body: unknown): ProviderRejection | null {
  const visit = (node: unknown): ProviderRejection | null => {
    if (Array.isArray(node)) {
      for (const child of node) {
        const problem = visit(child);
        if (problem) return problem;
      }
      return null;
    }
    if (!isRecord(node)) return null;
    const image = node.image_url;
    const url = typeof image === "string" ? image : isRecord(image) && typeof image.url === "string" ? image.url : undefined;
    if (url !== undefined && url.startsWith("data:")) {
      const mime = url.slice(5, url.indexOf(";") >= 0 ? url.indexOf(";") : url.indexOf(","));
      if (!OPENAI_IMAGE_TYPES.has(mime)) {
        return openaiError(
          "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].",
          null,
          "invalid_image_format",
        );
      }
    }
    for (const value of Object.values(node)) {
      if (typeof value === "object" && value !== null) {
        const problem = visit(value);
        if (problem) return problem;
      }
    }
    return null;
  };
  return visit(body);
}
