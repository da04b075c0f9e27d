/**
 * Below this width the diff panel floats over the transcript instead of
 * sitting beside it (the same breakpoint as the @media rules in
 * styles/layout.css), so nothing opens it unasked there: it would cover the
 * card the user has to answer.
 */
export const NARROW_LAYOUT_QUERY = "(max-width: 1180px)";

export function isNarrowLayout(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia(NARROW_LAYOUT_QUERY).matches;
}
