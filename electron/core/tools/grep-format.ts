/**
 * What both grep engines produce and how it is shown: one format whichever
 * engine ran, so the model cannot tell them apart.
 */
import { GREP_MAX_COLLECTED, GREP_MAX_LINE_CHARS, GREP_MAX_MATCHES } from "./limits";
import { cutLine } from "./truncate";

export interface GrepLine {
  line: number;
  text: string;
  match: boolean;
}

export interface GrepFile {
  /** Workspace-relative. */
  path: string;
  /** Sorted by line; context lines and match lines, each line once. */
  lines: GrepLine[];
}

export interface GrepRaw {
  files: GrepFile[];
  /** The engine stopped after GREP_MAX_COLLECTED matching lines. */
  incomplete: boolean;
}

/** Path order: segment by segment, so a folder's files stay together (a/b before a-c). */
export function comparePaths(a: string, b: string): number {
  const sa = a.split("/");
  const sb = b.split("/");
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
  }
  return sa.length - sb.length;
}

export interface GrepFormatted {
  text: string;
  matches: number;
  files: number;
  truncated: boolean;
}

export function formatGrep(raw: GrepRaw, context: number): GrepFormatted {
  const files = [...raw.files].filter((f) => f.lines.some((l) => l.match)).sort((a, b) => comparePaths(a.path, b.path));
  const totalMatches = files.reduce((n, f) => n + f.lines.filter((l) => l.match).length, 0);
  if (totalMatches === 0) return { text: "No matches found.", matches: 0, files: 0, truncated: false };

  const out: string[] = [];
  let shown = 0;
  let filesShown = 0;
  for (const file of files) {
    if (shown >= GREP_MAX_MATCHES) break;
    filesShown++;
    out.push(`${file.path}:`);
    let lastMatch = -1;
    let prevLine = -1;
    for (const l of file.lines) {
      if (l.match && shown >= GREP_MAX_MATCHES) break;
      // After the last shown match, context runs only `context` lines further.
      if (!l.match && shown >= GREP_MAX_MATCHES && l.line > lastMatch + context) break;
      if (prevLine !== -1 && l.line > prevLine + 1) out.push("  --");
      out.push(`  ${l.line}${l.match ? ":" : "-"} ${cutLine(l.text, GREP_MAX_LINE_CHARS)}`);
      prevLine = l.line;
      if (l.match) {
        shown++;
        lastMatch = l.line;
      }
    }
    out.push("");
  }
  const truncated = shown < totalMatches || raw.incomplete;
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  const header = raw.incomplete
    ? `Found more than ${GREP_MAX_COLLECTED} matching lines; showing the first ${shown}.`
    : truncated
      ? `Found ${n(totalMatches, "matching line")} in ${n(files.length, "file")}; showing the first ${shown} (in ${n(filesShown, "file")}).`
      : `Found ${n(totalMatches, "matching line")} in ${n(files.length, "file")}.`;
  const footer = truncated
    ? "\n[Results cut. Narrow the search with a more specific pattern, path or include, or read a file around a match.]"
    : "";
  return { text: `${header}\n\n${out.join("\n").trimEnd()}${footer}`, matches: shown, files: filesShown, truncated };
}

/** Adds context lines around match lines of one file's text (built-in engine). */
export function withContext(allLines: readonly string[], matchLines: readonly number[], context: number): GrepLine[] {
  const matchSet = new Set(matchLines);
  const wanted = new Set<number>();
  for (const m of matchLines) {
    for (let l = Math.max(1, m - context); l <= Math.min(allLines.length, m + context); l++) wanted.add(l);
  }
  return [...wanted].sort((a, b) => a - b).map((line) => ({ line, text: allLines[line - 1], match: matchSet.has(line) }));
}
