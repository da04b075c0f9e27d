/**
 * The hunks of a proposed change: each run of changed lines between unchanged
 * ones, computed with the `diff` package's line diff on the exact texts (line
 * endings kept), so accepting a subset (shared/hunks.ts `applyHunks`) is
 * byte-exact. No context is merged in: two edits a line apart are two hunks,
 * each decided on its own.
 */
import { diffLines } from "diff";
import type { HunkKind, ProposalHunk } from "../../../shared/hunks";

/** Past this many edited lines the diff gives up and the change is one hunk. */
const MAX_EDIT_LENGTH = 20_000;

const lineCount = (text: string) => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));

function kindOf(oldText: string, newText: string): HunkKind {
  const eolless = (s: string) => s.replace(/\r?\n/g, "\n").replace(/\n$/, "");
  if (eolless(oldText) === eolless(newText)) return "lineEnding";
  const bare = (s: string) => s.replace(/[ \t\r\n]+/g, "");
  return bare(oldText) === bare(newText) ? "whitespace" : "change";
}

export function computeHunks(before: string, after: string): ProposalHunk[] {
  if (before === after) return [];
  const parts = diffLines(before, after, { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) return [makeHunk(before, after, 0, 1, 1)];
  const hunks: ProposalHunk[] = [];
  let oldOffset = 0;
  let oldLine = 1;
  let newLine = 1;
  let open: { oldText: string; newText: string; oldOffset: number; oldStart: number; newStart: number } | null = null;
  const close = () => {
    if (!open) return;
    hunks.push(makeHunk(open.oldText, open.newText, open.oldOffset, open.oldStart, open.newStart));
    open = null;
  };
  for (const part of parts) {
    const lines = lineCount(part.value);
    if (!part.added && !part.removed) {
      close();
      oldOffset += part.value.length;
      oldLine += lines;
      newLine += lines;
      continue;
    }
    open ??= { oldText: "", newText: "", oldOffset, oldStart: oldLine, newStart: newLine };
    if (part.removed) {
      open.oldText += part.value;
      oldOffset += part.value.length;
      oldLine += lines;
    } else {
      open.newText += part.value;
      newLine += lines;
    }
  }
  close();
  return hunks;
}

function makeHunk(oldText: string, newText: string, oldOffset: number, oldStart: number, newStart: number): ProposalHunk {
  const oldLines = lineCount(oldText);
  const newLines = lineCount(newText);
  // As in unified diffs: an empty side names the line before it.
  return {
    oldStart: oldLines === 0 ? oldStart - 1 : oldStart,
    oldLines,
    newStart: newLines === 0 ? newStart - 1 : newStart,
    newLines,
    oldOffset,
    oldText,
    newText,
    kind: kindOf(oldText, newText),
  };
}
