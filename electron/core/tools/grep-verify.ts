/**
 * ripgrep opens files by path on its own, so what it printed may come from a
 * file that was swapped for a link to outside the workspace mid-search. None
 * of it is shown as is: every reported path is resolved again through the
 * sandbox (its descriptor proven to be exactly `root/path`), the file is
 * re-read through that descriptor, and a file is kept only when each
 * reported line equals the verified line at that number; the text shown is
 * the verified one (docs/tool-sandbox.md).
 */
import type { GrepFile } from "./grep-format";
import type { Sandbox } from "./sandbox";

/** The file as verified now, or null when it is not what rg read (grep-engines calls it per file as rg finishes it). */
export function verifyRgFile(sandbox: Sandbox, f: GrepFile): GrepFile | null {
  if (f.lines.length === 0) return null;
  // A link anywhere in the path now (rg never follows one) or not a regular file: not what rg read.
  const file = sandbox.reportedFile(f.path);
  if (!file) return null;
  const lastLine = f.lines.reduce((m, l) => Math.max(m, l.line), 0);
  const prefix = sandbox.readLinesPrefixSync(file, lastLine);
  if (!prefix.ok) return null;
  // As decodeText reads it (a BOM is not part of line 1), without its encoding checks.
  const text = prefix.value.toString("utf8");
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split("\n");
  const verified = [];
  for (const l of f.lines) {
    const actual = lines[l.line - 1];
    if (actual === undefined) return null;
    const text = actual.endsWith("\r") ? actual.slice(0, -1) : actual;
    if (text !== l.text) return null;
    verified.push({ line: l.line, text, match: l.match });
  }
  return { path: file.rel, lines: verified };
}
