/** Unified diffs for the UI (`details`) and the approval preview. */
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";

export interface FileDiff {
  unifiedDiff: string;
  added: number;
  removed: number;
  /** The diff was too large to keep or send (`unifiedDiff` is then empty): its length in characters. */
  tooLarge?: { diffChars: number };
}

/**
 * Past this many characters a diff is neither stored in a result's details
 * nor sent with an approval: a 14-character edit of a 5 MB one-line file is a
 * 10.5 MB diff. The counts stay; the UI says the change is too large to show.
 */
export const DIFF_MAX_CHARS = 512 * 1024;

/** The diff as stored and sent: itself, or its "too large to show" form. */
export function boundedDiff(diff: FileDiff): FileDiff {
  if (diff.unifiedDiff.length <= DIFF_MAX_CHARS) return diff;
  return { unifiedDiff: "", added: diff.added, removed: diff.removed, tooLarge: { diffChars: diff.unifiedDiff.length } };
}

/** `before` null means a new file. Line endings are compared as they are. */
export function fileDiff(rel: string, before: string | null, after: string): FileDiff {
  const patch = structuredPatch(before === null ? "/dev/null" : `a/${rel}`, `b/${rel}`, before ?? "", after, undefined, undefined, {
    context: 3,
  });
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
  }
  return { unifiedDiff: formatPatch(patch, FILE_HEADERS_ONLY), added, removed };
}
