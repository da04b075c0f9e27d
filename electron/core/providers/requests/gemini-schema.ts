/**
 * Tool input schemas for Gemini's `functionDeclarations[].parameters`: the
 * OpenAPI 3.0 subset Gemini's `Schema` message accepts. Keys it does not know
 * are refused by the API ("Invalid JSON payload received. Unknown name
 * \"additionalProperties\" at 'tools[0].function_declarations[0].parameters':
 * Cannot find field."), so the translation keeps only known keys, inlines
 * local `$ref`s, turns `type: [T, "null"]` into `nullable`, `const` into a
 * one-value `enum`, `oneOf` into `anyOf`; what cannot be expressed (recursive
 * references, `not`, conditionals, tuple `items`) is refused with a reason.
 */

export type GeminiSchema = Record<string, unknown>;

export class SchemaNotExpressible extends Error {
  constructor(
    readonly toolName: string,
    readonly reason: string,
  ) {
    super(`The input schema of tool "${toolName}" cannot be expressed for Gemini: ${reason}.`);
    this.name = "SchemaNotExpressible";
  }
}

/** Keys of Gemini's Schema message that carry over unchanged. */
const PASSED = [
  "description",
  "format",
  "title",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "minProperties",
  "maxProperties",
  "default",
  "example",
];
const REFUSED = [
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "dependentRequired",
  "patternProperties",
  "prefixItems",
  "contains",
  "$dynamicRef",
];
const TYPES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);
/** The formats Gemini's Schema takes, per type; any other is refused. */
const FORMATS: Readonly<Record<string, ReadonlySet<string>>> = {
  STRING: new Set(["enum", "date-time"]),
  NUMBER: new Set(["float", "double"]),
  INTEGER: new Set(["int32", "int64"]),
};
const MAX_DEPTH = 32;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Gemini's Schema, from a JSON Schema whose root is an object. Throws SchemaNotExpressible. */
export function toGeminiSchema(toolName: string, schema: Record<string, unknown>): GeminiSchema {
  const root = schema;
  const resolving: string[] = [];
  const fail = (reason: string): never => {
    throw new SchemaNotExpressible(toolName, reason);
  };

  const resolveRef = (ref: string): unknown => {
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    if (!match) return fail(`the reference ${ref} is not a local definition`);
    const defs = root[match[1]];
    const target = isRecord(defs) ? defs[decodeURIComponent(match[2])] : undefined;
    if (target === undefined) return fail(`the reference ${ref} points at nothing`);
    return target;
  };

  const visit = (node: unknown, path: string, depth: number): GeminiSchema => {
    if (depth > MAX_DEPTH) fail(`it nests deeper than ${MAX_DEPTH} levels at ${path}`);
    if (node === true || (isRecord(node) && Object.keys(node).length === 0)) return { type: "STRING", description: "Any value, as text." };
    if (!isRecord(node)) return fail(`${path} is not a schema object`);
    if (typeof node.$ref === "string") {
      if (resolving.includes(node.$ref)) fail(`${path} refers to ${node.$ref} recursively`);
      resolving.push(node.$ref);
      const { $ref: _ref, ...siblings } = node;
      const target = resolveRef(node.$ref);
      const merged = isRecord(target) ? { ...target, ...siblings } : target;
      const out = visit(merged, path, depth + 1);
      resolving.pop();
      return out;
    }
    for (const key of REFUSED) if (key in node) fail(`${path} uses "${key}"`);

    const out: GeminiSchema = {};
    let types: string[] = [];
    if (typeof node.type === "string") types = [node.type];
    else if (Array.isArray(node.type)) types = node.type.filter((t): t is string => typeof t === "string");
    for (const t of types) if (!TYPES.has(t)) fail(`${path} has an unknown type "${t}"`);
    const nonNull = types.filter((t) => t !== "null");
    if (types.includes("null") || node.nullable === true) out.nullable = true;
    if (nonNull.length > 1) {
      // ["string", "number"] → anyOf of the single types.
      out.anyOf = nonNull.map((t) => visit({ ...node, type: t, nullable: undefined }, path, depth + 1));
      return out;
    }
    if (nonNull.length === 1) out.type = nonNull[0].toUpperCase();

    for (const key of PASSED) if (node[key] !== undefined) out[key] = node[key];
    // "only 'enum' and 'date-time' are supported for STRING type": other string formats (uri, email,
    // an MCP server's own) are left out, named in the description so the model still knows.
    if (out.format !== undefined && !(typeof out.format === "string" && FORMATS[String(out.type)]?.has(out.format))) {
      out.description = [out.description, `Format: ${typeof out.format === "string" ? out.format : JSON.stringify(out.format)}.`]
        .filter(Boolean)
        .join(" ");
      delete out.format;
    }
    if ("const" in node) out.enum = [node.const];
    if (Array.isArray(node.enum)) out.enum = node.enum;
    if (Array.isArray(out.enum)) {
      // Gemini's enum is a list of strings.
      if (!out.enum.every((v) => typeof v === "string")) {
        if (out.enum.every((v) => typeof v === "number" || typeof v === "boolean")) {
          // Numbers and booleans are described instead of enumerated.
          out.description = [out.description, `One of: ${out.enum.map(String).join(", ")}.`].filter(Boolean).join(" ");
          delete out.enum;
        } else fail(`${path} enumerates values that are not strings`);
      } else if (out.type === undefined) out.type = "STRING";
      if (out.enum !== undefined) out.format = "enum";
    }

    const alternatives = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
    if (alternatives !== undefined) {
      const nonNullAlternatives = alternatives.filter((a) => !(isRecord(a) && a.type === "null"));
      if (nonNullAlternatives.length !== alternatives.length) out.nullable = true;
      const mapped = nonNullAlternatives.map((a, i) => visit(a, `${path}.anyOf[${i}]`, depth + 1));
      if (mapped.length === 1) Object.assign(out, mapped[0]);
      else if (mapped.length > 1) out.anyOf = mapped;
    }
    if (Array.isArray(node.allOf)) {
      // allOf of objects: merged into one object schema (the common case: a base plus extra properties).
      for (const [i, part] of node.allOf.entries()) {
        const mapped = visit(part, `${path}.allOf[${i}]`, depth + 1);
        if (isRecord(mapped.properties)) out.properties = { ...(isRecord(out.properties) ? out.properties : {}), ...mapped.properties };
        if (Array.isArray(mapped.required)) out.required = mergeRequired(out.required, mapped.required);
        for (const [key, value] of Object.entries(mapped)) if (!(key in out)) out[key] = value;
      }
    }

    if (isRecord(node.properties)) {
      const properties: Record<string, GeminiSchema> = isRecord(out.properties) ? (out.properties as Record<string, GeminiSchema>) : {};
      for (const [name, child] of Object.entries(node.properties)) properties[name] = visit(child, `${path}.properties.${name}`, depth + 1);
      out.properties = properties;
      if (out.type === undefined) out.type = "OBJECT";
    }
    if (Array.isArray(node.required)) {
      const known = isRecord(out.properties) ? Object.keys(out.properties) : [];
      const required = node.required.filter((r): r is string => typeof r === "string" && known.includes(r));
      if (required.length > 0) out.required = mergeRequired(out.required, required);
    }
    if (node.items !== undefined) {
      if (Array.isArray(node.items)) fail(`${path} uses tuple "items"`);
      out.items = visit(node.items, `${path}.items`, depth + 1);
      if (out.type === undefined) out.type = "ARRAY";
    } else if (out.type === "ARRAY") {
      // Gemini: "parameters.properties[x].items: missing field."
      out.items = { type: "STRING" };
    }
    if (out.type === "OBJECT" && out.properties === undefined && depth > 0) {
      // A free-form object has no Gemini form; the model sends it as JSON text.
      return {
        type: "STRING",
        description: [out.description, "A JSON object, as text."].filter(Boolean).join(" "),
        ...(out.nullable ? { nullable: true } : {}),
      };
    }
    return out;
  };

  const out = visit(schema, "parameters", 0);
  if (out.type !== "OBJECT") fail("its root is not an object");
  return out;
}

/** The union of two `required` lists (names only), in first-seen order. */
function mergeRequired(a: unknown, b: unknown): string[] {
  const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  return [...new Set([...names(a), ...names(b)])];
}
