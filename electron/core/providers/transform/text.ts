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
const NON_WHITESPACE = /[^\s\x1c-\x1f\x85]/;

// Anthropic: "text content blocks must contain non-whitespace text".
export function isBlank(text: string): boolean {
  if (text.length === 0) return true;
  // Fast path: below U+1680 the only whitespace above the space is U+0085 and U+00A0.
  const first = text.charCodeAt(0);
  if (first > 32 && first !== 0x85 && first !== 0xa0 && first < 0x1680) return false;
  return !NON_WHITESPACE.test(text);
}
