/** Unified diffs for the UI (`details`) and the approval preview. */
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";

export interface FileDiff {
  unifiedDiff: string;
  added: number;
  removed: number;
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
