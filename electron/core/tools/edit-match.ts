/**
 * Finding oldText in a file: exact first, then fallback matchers for the
 * drift models produce and nothing else: indentation, trailing/inner
 * whitespace, blank lines around the block, line endings, over-escaped text.
 * A fallback never forgives a difference in any other character (a block
 * whose middle says `return 2;` where the file says `return 1;` is not
 * found). It is accepted only when it finds exactly one place (or replaceAll
 * is set).
 *
 * Contract: pure functions over strings. A match is a range of the original
 * text plus the replacement to put there (newText with the file's line
 * endings and, for indentation drift, the file's indentation in the file's
 * style, edit-indent.ts); nothing outside the range is ever rewritten.
 */
import { detectUnit, indentOf, reindent, type IndentUnit } from "./edit-indent";
import type { Eol } from "./text-file";
import { toEol } from "./text-file";

export type MatcherName = "exact" | "indentation-flexible" | "line-trimmed" | "whitespace-normalized" | "escape-normalized";

export interface Range {
  start: number;
  end: number;
}

export type LocateResult =
  | { kind: "found"; matcher: MatcherName; ranges: Range[]; replacement: string }
  | { kind: "ambiguous"; matcher: MatcherName; lines: number[] }
  | { kind: "notFound"; nearest: { startLine: number; endLine: number; text: string } | null };

interface Line {
  start: number;
  /** End of the text, before "\r\n" / "\n". */
  end: number;
  /** End including the line break. */
  next: number;
  text: string;
}

export function splitLines(content: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= content.length) {
    const nl = content.indexOf("\n", start);
    if (nl === -1) {
      lines.push({ start, end: content.length, next: content.length, text: content.slice(start) });
      break;
    }
    const end = nl > start && content.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    lines.push({ start, end, next: nl + 1, text: content.slice(start, end) });
    start = nl + 1;
  }
  return lines;
}

export function lineOf(content: string, offset: number): number {
  let n = 1;
  for (let i = content.indexOf("\n"); i !== -1 && i < offset; i = content.indexOf("\n", i + 1)) n++;
  return n;
}

function minIndent(lines: readonly string[]): string {
  let best: string | null = null;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const ind = indentOf(line);
    if (best === null || ind.length < best.length) best = ind;
  }
  return best ?? "";
}

function allIndexes(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

/** Over-escaped text as models produce it inside JSON: \\n, \\t, \\", \\', \\`, \\$, \\\\. */
export function unescapeText(text: string): string {
  return text.replace(/\\(n|t|r|"|'|`|\$|\\)/g, (_, c: string) => {
    switch (c) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      default:
        return c;
    }
  });
}

type Compare = (fileLine: string, oldLine: string) => boolean;
const collapse = (s: string) => s.trim().replace(/\s+/g, " ");

/** Windows of the file whose lines equal the old lines under `compare`. */
function lineWindows(lines: readonly Line[], old: readonly string[], compare: Compare): number[] {
  const hits: number[] = [];
  for (let i = 0; i + old.length <= lines.length; i++) {
    let ok = true;
    for (let j = 0; j < old.length && ok; j++) ok = compare(lines[i + j].text, old[j]);
    if (ok) {
      hits.push(i);
      i += old.length - 1;
    }
  }
  return hits;
}

interface Block {
  lines: string[];
  /** oldText ended with a newline: the range takes the line break too. */
  trailingNewline: boolean;
}

function toBlock(text: string): Block {
  const lines = text.split("\n");
  const trailingNewline = lines.length > 1 && lines[lines.length - 1] === "";
  if (trailingNewline) lines.pop();
  return { lines, trailingNewline };
}

function windowRange(lines: readonly Line[], i: number, count: number, trailingNewline: boolean): Range {
  const last = lines[i + count - 1];
  return { start: lines[i].start, end: trailingNewline ? last.next : last.end };
}

/** Similarity of two strings by shared character bigrams (Dice), 0..1. */
export function dice(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const g = a.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      shared++;
      grams.set(g, n - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

interface Attempt {
  matcher: MatcherName;
  ranges: Range[];
  replacement: string;
}

/**
 * Locates `oldText` in `content` (BOM removed, original line endings).
 * `eol` is the file's style, applied to the replacement.
 */
export function locate(content: string, eol: Eol, oldText: string, newText: string, replaceAll: boolean): LocateResult {
  const oldN = oldText.replace(/\r\n/g, "\n");
  const newN = newText.replace(/\r\n/g, "\n");
  const lines = splitLines(content);
  const finish = (a: Attempt): LocateResult => ({
    kind: "found",
    matcher: a.matcher,
    ranges: a.ranges,
    replacement: toEol(a.replacement, eol),
  });

  // 1. Exact (in the file's own line endings). Ambiguity here is final.
  for (const needle of eol === "\r\n" ? [oldText, toEol(oldN, "\r\n")] : [oldText, oldN]) {
    const hits = allIndexes(content, needle);
    if (hits.length === 1 || (hits.length > 1 && replaceAll)) {
      return finish({ matcher: "exact", ranges: hits.map((s) => ({ start: s, end: s + needle.length })), replacement: newN });
    }
    if (hits.length > 1) return { kind: "ambiguous", matcher: "exact", lines: hits.map((h) => lineOf(content, h)) };
  }

  const state: { ambiguous: { matcher: MatcherName; lines: number[] } | null } = { ambiguous: null };
  const tryAll = (old: string, replacement: string, tag: MatcherName | null): Attempt | null => {
    for (const attempt of fallbacks(content, lines, old, replacement)) {
      const matcher = tag ?? attempt.matcher;
      if (attempt.ranges.length === 1 || (attempt.ranges.length > 1 && replaceAll)) return { ...attempt, matcher };
      if (attempt.ranges.length > 1 && state.ambiguous === null) {
        state.ambiguous = { matcher, lines: attempt.ranges.map((r) => lineOf(content, r.start)) };
      }
    }
    return null;
  };

  const found = tryAll(oldN, newN, null);
  if (found) return finish(found);
  const unescaped = unescapeText(oldN);
  if (unescaped !== oldN) {
    const newU = unescapeText(newN);
    for (const needle of eol === "\r\n" ? [unescaped, toEol(unescaped, "\r\n")] : [unescaped]) {
      const hits = allIndexes(content, needle);
      if (hits.length === 1 || (hits.length > 1 && replaceAll)) {
        return finish({ matcher: "escape-normalized", ranges: hits.map((s) => ({ start: s, end: s + needle.length })), replacement: newU });
      }
      if (hits.length > 1 && state.ambiguous === null) {
        state.ambiguous = { matcher: "escape-normalized", lines: hits.map((h) => lineOf(content, h)) };
      }
    }
    const viaEscapes = tryAll(unescaped, newU, "escape-normalized");
    if (viaEscapes) return finish(viaEscapes);
  }
  if (state.ambiguous) return { kind: "ambiguous", matcher: state.ambiguous.matcher, lines: state.ambiguous.lines };
  return { kind: "notFound", nearest: nearestRegion(lines, toBlock(oldN).lines) };
}

/** The fallback matchers, loosest last. Each yields every place it matches. */
function* fallbacks(content: string, lines: readonly Line[], oldN: string, newN: string): Generator<Attempt> {
  const block = toBlock(oldN);
  // The model's indentation style (from what it wrote) and the file's (from the whole file).
  const units: Units = { old: detectUnit([...block.lines, ...newN.split("\n")]), file: undefined, lines };
  // Blank lines around the block are drift too (TrimmedBoundary).
  const trimmed = trimBlankEdges(block);
  const blocks = trimmed.lines.length !== block.lines.length && trimmed.lines.length > 0 ? [block, trimmed] : [block];

  for (const b of blocks) {
    if (b.lines.every((l) => l.trim() === "")) continue;
    const oldIndent = minIndent(b.lines);
    const dedent = (s: string, ind: string) => (s.startsWith(ind) ? s.slice(ind.length) : s.trimStart());

    const flexible = indentationFlexible(lines, b, oldIndent, dedent);
    yield attemptFrom("indentation-flexible", units, flexible, b, newN, oldIndent);

    const trimmedHits = lineWindows(lines, b.lines, (f, o) => f.trim() === o.trim());
    yield attemptFrom("line-trimmed", units, trimmedHits, b, newN, oldIndent);

    const wsHits = lineWindows(lines, b.lines, (f, o) => collapse(f) === collapse(o));
    yield attemptFrom("whitespace-normalized", units, wsHits, b, newN, oldIndent);
  }

  // Single-line oldText inside a line, with different runs of spaces/tabs.
  if (!oldN.includes("\n") && oldN.trim() !== "") {
    const tokens = oldN.trim().split(/\s+/).map(escapeRegExp);
    const re = new RegExp(tokens.join("[ \\t]+"), "g");
    const ranges: Range[] = [];
    for (const m of content.matchAll(re)) ranges.push({ start: m.index, end: m.index + m[0].length });
    yield { matcher: "whitespace-normalized", ranges, replacement: newN };
  }
}

function indentationFlexible(lines: readonly Line[], b: Block, oldIndent: string, dedent: (s: string, ind: string) => string): number[] {
  const old = b.lines.map((l) => dedent(l, oldIndent));
  const hits: number[] = [];
  for (let i = 0; i + b.lines.length <= lines.length; i++) {
    const window = lines.slice(i, i + b.lines.length).map((l) => l.text);
    const ind = minIndent(window);
    let ok = true;
    for (let j = 0; j < window.length && ok; j++) {
      const f = window[j].trim() === "" ? "" : dedent(window[j], ind);
      const o = old[j].trim() === "" ? "" : old[j];
      ok = f === o;
    }
    if (ok) {
      hits.push(i);
      i += b.lines.length - 1;
    }
  }
  return hits;
}

interface Units {
  old: IndentUnit | null;
  /** The file's, computed on first use (undefined: not yet). */
  file: IndentUnit | null | undefined;
  lines: readonly Line[];
}

function attemptFrom(matcher: MatcherName, units: Units, hits: number[], b: Block, newN: string, oldIndent: string): Attempt {
  const { lines } = units;
  const ranges = hits.map((i) => windowRange(lines, i, b.lines.length, b.trailingNewline));
  if (hits.length === 0) return { matcher, ranges, replacement: newN };
  // One replacement text serves every range; indentation comes from the first.
  const region = lines.slice(hits[0], hits[0] + b.lines.length).map((l) => l.text);
  const fileIndent = minIndent(region);
  units.file ??= detectUnit(lines.map((l) => l.text)) ?? detectUnit(region);
  return { matcher, ranges, replacement: reindent(newN, oldIndent, fileIndent, units.old, units.file) };
}

function trimBlankEdges(b: Block): Block {
  let start = 0;
  let end = b.lines.length;
  while (start < end && b.lines[start].trim() === "") start++;
  while (end > start && b.lines[end - 1].trim() === "") end--;
  return { lines: b.lines.slice(start, end), trailingNewline: b.trailingNewline && end === b.lines.length };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The window of the file most like the old block, for the "not found" message. */
function nearestRegion(lines: readonly Line[], old: readonly string[]): { startLine: number; endLine: number; text: string } | null {
  const oldTrim = old.map((l) => l.trim());
  if (oldTrim.every((l) => l === "") || lines.length === 0) return null;
  const n = Math.min(old.length, lines.length);
  const fileTrim = lines.map((l) => l.text.trim());
  let best = -1;
  let bestScore = 0;
  // Bounded work on huge files: score at most ~2M line comparisons.
  const step = Math.max(1, Math.ceil((lines.length * n) / 2_000_000));
  for (let i = 0; i + n <= lines.length; i += step) {
    let score = 0;
    for (let j = 0; j < n; j++) score += dice(fileTrim[i + j], oldTrim[j]);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best === -1 || bestScore / n < 0.3) return null;
  const shown = lines.slice(best, best + Math.min(n, 20));
  return {
    startLine: best + 1,
    endLine: best + n,
    text: shown.map((l, k) => `${best + 1 + k}\t${l.text}`).join("\n") + (n > 20 ? "\n…" : ""),
  };
}
