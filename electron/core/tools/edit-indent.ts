/**
 * Indentation for fuzzy edits: when the model quoted a block with another
 * indentation than the file's (spaces for tabs, 2 for 4), its newText is
 * re-based onto the file's block in the file's own style, so an edit never
 * leaves a block that mixes tabs and spaces.
 *
 * Contract: pure functions over strings; only the leading whitespace of
 * newText's lines changes.
 */

/** One indentation level as a file writes it (width 0: spaces of an unknown width). */
export type IndentUnit = { kind: "tab" } | { kind: "space"; width: number };

export const indentOf = (s: string): string => /^[ \t]*/.exec(s)?.[0] ?? "";

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The unit `lines` indent with: tabs when more indented lines start with a
 * tab, else spaces at the greatest common width of their (relative) indents.
 * Null when no line is indented.
 */
export function detectUnit(lines: readonly string[]): IndentUnit | null {
  let tabs = 0;
  let spaces = 0;
  const base = minIndentCols(lines, 4);
  let width = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const ind = indentOf(line);
    if (ind === "") continue;
    if (ind.startsWith("\t")) tabs++;
    else {
      spaces++;
      const rel = ind.length - base;
      if (rel > 0 && !ind.includes("\t")) width = gcd(width, rel);
    }
  }
  if (tabs === 0 && spaces === 0) return null;
  if (tabs > spaces) return { kind: "tab" };
  // Width 0: spaces, but only one level in sight (the other side's width is used).
  return { kind: "space", width: Math.min(width, 8) };
}

/** Visual columns of an indentation, a tab counting `tabWidth`. */
function columns(indent: string, tabWidth: number): number {
  let n = 0;
  for (const c of indent) n += c === "\t" ? tabWidth : 1;
  return n;
}

function minIndentCols(lines: readonly string[], tabWidth: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    if (line.trim() === "") continue;
    best = Math.min(best, columns(indentOf(line), tabWidth));
  }
  return best === Number.POSITIVE_INFINITY ? 0 : best;
}

const unitWidth = (u: IndentUnit) => (u.kind === "tab" ? 4 : u.width);

/** Fills an unknown space width from the other side (else 4). */
function known(u: IndentUnit | null, other: IndentUnit | null): IndentUnit | null {
  if (u === null || u.kind === "tab" || u.width > 0) return u;
  return { kind: "space", width: other?.kind === "space" && other.width > 0 ? other.width : 4 };
}

function render(levels: number, extra: number, unit: IndentUnit): string {
  return (unit.kind === "tab" ? "\t".repeat(levels) : " ".repeat(levels * unit.width)) + " ".repeat(extra);
}

/**
 * Re-bases newText from the model's block (base indentation `oldIndent`,
 * unit `oldUnit`) onto the file's block (`fileIndent`, `fileUnit`): each
 * line keeps its depth relative to the block, written in the file's style.
 */
export function reindent(
  newText: string,
  oldIndent: string,
  fileIndent: string,
  oldUnit: IndentUnit | null,
  fileUnit: IndentUnit | null,
): string {
  const from = known(oldUnit ?? fileUnit, fileUnit);
  const to = known(fileUnit ?? oldUnit, oldUnit);
  const sameStyle = from === null || to === null || (from.kind === to.kind && unitWidth(from) === unitWidth(to));
  if (oldIndent === fileIndent && sameStyle) return newText;
  const fromWidth = from ? unitWidth(from) : 4;
  const baseCols = columns(oldIndent, fromWidth);
  return newText
    .split("\n")
    .map((line) => {
      if (line.trim() === "") return line;
      const own = indentOf(line);
      const rel = Math.max(0, columns(own, fromWidth) - baseCols);
      const body = line.slice(own.length);
      if (sameStyle || to === null) {
        // Same style: keep the line's own relative whitespace as written.
        const keep =
          own.length >= oldIndent.length && own.startsWith(oldIndent)
            ? own.slice(oldIndent.length)
            : render(Math.floor(rel / fromWidth), rel % fromWidth, to ?? { kind: "space", width: fromWidth });
        return fileIndent + keep + body;
      }
      return fileIndent + render(Math.floor(rel / fromWidth), rel % fromWidth, to) + body;
    })
    .join("\n");
}
