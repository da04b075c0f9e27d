/**
 * Text hygiene at the boundary: lone UTF-16 surrogates and blank blocks.
 * Never applied to signed content (a changed byte invalidates a signature, pi #5416).
 */

interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** Replaces lone surrogates with U+FFFD; returns the same string when there are none. */
export function sanitizeSurrogates(text: string): string {
  const s = text as unknown as WellFormedString;
  return s.isWellFormed() ? text : s.toWellFormed();
}

/** Python's `str.strip()` whitespace (what the providers' servers trim): JS `\s` plus U+001C–U+001F and U+0085. */
// eslint-disable-next-line no-control-regex -- the information separators count as whitespace for the APIs
const NON_WHITESPACE = /[^\s\x1c-\x1f\x85]/;

// Anthropic: "text content blocks must contain non-whitespace text".
export function isBlank(text: string): boolean {
  if (text.length === 0) return true;
  // Fast path: below U+1680 the only whitespace above the space is U+0085 and U+00A0.
  const first = text.charCodeAt(0);
  if (first > 32 && first !== 0x85 && first !== 0xa0 && first < 0x1680) return false;
  return !NON_WHITESPACE.test(text);
}

/**
 * Tool arguments with every lone surrogate (in keys and string values, at any
 * depth) replaced; the same object when there are none. Anthropic refuses the
 * whole body otherwise: "no low surrogate in string".
 */
export function sanitizeArguments(args: Record<string, unknown>): Record<string, unknown> {
  return sanitizeValue(args) as Record<string, unknown>;
}

function sanitizeValue(value: unknown): unknown {
  if (typeof value === "string") return sanitizeSurrogates(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = sanitizeValue(value[i]);
      if (next !== value[i] && out === undefined) out = value.slice(0, i);
      if (out !== undefined) out.push(next);
    }
    return out ?? value;
  }
  // Most arguments are clean: look first, allocate only when a key or value changes.
  const record = value as Record<string, unknown>;
  let out: [string, unknown][] | undefined;
  let i = 0;
  for (const k in record) {
    if (!Object.prototype.hasOwnProperty.call(record, k)) continue;
    const v = record[k];
    const key = sanitizeSurrogates(k);
    const val = sanitizeValue(v);
    if (out === undefined && (key !== k || val !== v)) out = Object.entries(record).slice(0, i);
    if (out !== undefined) out.push([key, val]);
    i++;
  }
  return out === undefined ? value : Object.fromEntries(out);
}
