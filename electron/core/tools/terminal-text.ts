/**
 * A command's output as the text a terminal would have left on screen:
 * colour and cursor escape codes removed, carriage-return redraws (progress
 * bars, spinners) reduced to their last state. Without this the model reads
 * "\x1b[32m" noise and every frame of a progress bar, and the tool card shows
 * them as stray characters.
 */

/** CSI (colours, cursor moves, erase), OSC (titles, hyperlinks) and two-byte escapes. */
// eslint-disable-next-line no-control-regex -- terminal escape sequences are what this strips
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]/g;
/** Control characters other than tab and newline, left over once escapes and redraws are resolved. */
// eslint-disable-next-line no-control-regex -- terminal control characters are what this strips
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

export function plainTerminalText(raw: string): string {
  // eslint-disable-next-line no-control-regex -- terminal control characters are what this strips
  if (!/[\x1b\r\x08]/.test(raw)) return raw.replace(CONTROLS, "");
  return raw
    .replace(ESCAPES, "")
    .split("\n")
    .map((line) => {
      // "\r\n" ends a line; any other "\r" returns to its start, so what follows overwrites it.
      const trimmed = line.replace(/\r+$/, "");
      const shown = backspaced(trimmed.slice(trimmed.lastIndexOf("\r") + 1));
      return shown.replace(CONTROLS, "");
    })
    .join("\n");
}

/** A backspace erases the character before it (spinners: "|\b/\b-"). */
function backspaced(line: string): string {
  if (!line.includes("\x08")) return line;
  const out: string[] = [];
  for (const ch of line) {
    if (ch === "\x08") out.pop();
    else out.push(ch);
  }
  return out.join("");
}
