/**
 * Tool-call arguments arrive as streamed JSON text. They are untrusted until
 * the block ends (invariant 3, docs/architecture.md#invariants): the final parse is strict, and
 * anything unusable becomes `argumentsError` so the agent loop answers the call
 * with an error result instead of running the tool.
 *
 * Partial parsing (partial-json) exists only for display while streaming.
 */
import { parse as parsePartialJson } from "partial-json";

export interface FinalArguments {
  arguments: Record<string, unknown>;
  /** Set only when the arguments are unusable: the raw text as streamed (well-formed UTF-16). */
  rawArguments?: string;
  argumentsError?: string;
}

export interface FinalizeOptions {
  /** The stream stopped before the block was complete (max tokens, abort, dropped connection). */
  incomplete?: "length" | "aborted" | "error";
}

const INCOMPLETE_TEXT: Record<NonNullable<FinalizeOptions["incomplete"]>, string> = {
  length: "the output hit the max-tokens limit before the arguments were complete",
  aborted: "stopped before its arguments were complete",
  error: "the stream ended before the arguments were complete",
};

/**
 * Strict parse of a finished tool call's argument text.
 * Empty text means "no arguments" (`{}`), which several servers send for
 * parameterless tools.
 */
export function finalizeToolArguments(raw: string, options: FinalizeOptions = {}): FinalArguments {
  if (raw.trim() === "") {
    if (options.incomplete === undefined) return { arguments: {} };
    return failed(raw, `truncated: ${INCOMPLETE_TEXT[options.incomplete]}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    // Cut off: the parser's complaint about the missing end says nothing more.
    if (options.incomplete !== undefined) return failed(raw, `truncated: ${INCOMPLETE_TEXT[options.incomplete]}`);
    return failed(raw, `invalid JSON: ${reason}`);
  }
  if (!isPlainObject(value)) {
    return failed(raw, `arguments must be a JSON object, got ${describeType(value)}`);
  }
  const bad = findIllFormedString(value, "$");
  if (bad !== null) {
    return failed(raw, `invalid string at ${bad}: lone surrogate escape (not valid Unicode)`);
  }
  return { arguments: value };
}

/** Best-effort view of incomplete argument text, for the UI only. Never for execution. */
export function previewToolArguments(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  try {
    const value: unknown = parsePartialJson(raw);
    return isPlainObject(value) ? value : {};
  } catch {
    // A preview for the UI only; the complete arguments are parsed (and errors reported) when the block ends.
    return {};
  }
}

function failed(raw: string, argumentsError: string): FinalArguments {
  return { arguments: {}, rawArguments: toWellFormed(raw), argumentsError };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** Path of the first key or string value holding a lone surrogate, or null. */
function findIllFormedString(value: unknown, path: string): string | null {
  if (typeof value === "string") return isWellFormed(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findIllFormedString(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      const childPath = `${path}.${toWellFormed(key)}`;
      if (!isWellFormed(key)) return childPath;
      const found = findIllFormedString(child, childPath);
      if (found !== null) return found;
    }
  }
  return null;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

export function toWellFormed(text: string): string {
  return text.replace(LONE_SURROGATES, "\uFFFD");
}
