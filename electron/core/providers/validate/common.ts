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
  /** Apply Mistral's rules on top of Chat Completions'. */
  mistral?: boolean;
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
  if (typeof name !== "string") return openaiError(`Invalid type for '${param}': expected a string, but got ${typeof name} instead.`, param, "invalid_type");
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
  if (!isRecord(schema)) return openaiError(`${prefix} schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`, param, "invalid_function_parameters");
  if (schema.type !== "object") {
    return openaiError(`${prefix} schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type)}"'.`, param, "invalid_function_parameters");
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
