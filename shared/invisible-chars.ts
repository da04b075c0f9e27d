/**
 * Characters that make what the user reads differ from what the text is:
 * controls other than tab and newline (\r, ESC…), bidi controls (`readme\u202Etxt.sh`
 * shows as `readmehs.txt`), zero-width and invisible marks, fillers,
 * variation selectors, line and paragraph separators, tag characters. The
 * core asks for any bash line holding one (electron/core/tools/shell-parse.ts
 * imports this class), and the renderer writes them out wherever a path, command
 * or rule is put to the user for a decision (`revealInvisible`);
 * test/renderer/invisible-chars.test.ts checks both sides agree.
 *
 * Pure module: no Node, DOM or Electron APIs (docs/architecture.md#layers).
 */

/** One character at a time (code points, with the u flag). */
export const DECEPTIVE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- invisible and control characters are what this detects, one code unit at a time
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

// eslint-disable-next-line no-misleading-character-class -- the same class, every match (see above)
const DECEPTIVE_ALL = new RegExp(DECEPTIVE.source, "gu");

/** True when the text holds a character it would not show as it is. */
export function hasInvisible(text: string): boolean {
  return DECEPTIVE.test(text);
}

/** The text with each such character written out as ⟨U+202E⟩, so what is read is what is there. */
export function revealInvisible(text: string): string {
  return text.replace(DECEPTIVE_ALL, (c) => `⟨U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟩`);
}
