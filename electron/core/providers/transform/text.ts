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

const NON_WHITESPACE = /\S/;

// Anthropic: "text content blocks must contain non-whitespace text".
export function isBlank(text: string): boolean {
  return !NON_WHITESPACE.test(text);
}
