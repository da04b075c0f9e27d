/**
 * What a session changed between two entries, file by file, like a code
 * review: from the write/edit results' `details` (file-history.ts rebuilds
 * each file's content at a step), with line counts from the `diff` package.
 * bash runs are listed as untracked: without a checkpoint of the workspace
 * their effect is not visible here. Design notes: docs/change-review.md.
 */
import type { HunkKind } from "../../../shared/hunks";
import type { StoredEntry } from "../../../shared/protocol";
import type { ChangeDiff, ChangedFile, ChangeSet } from "../../../shared/review";
import { computeHunks } from "../tools/hunks";
import { fileStatesAt } from "./file-history";

interface Sides {
  before: string | null;
  after: string | null;
  known: boolean;
  lastSeq: number;
}

function sidesBetween(
  entries: readonly StoredEntry[],
  fromSeq: number,
  toSeq: number,
): { files: Map<string, Sides>; untracked: ChangeSet["untracked"] } {
  const at = fileStatesAt(entries, toSeq);
  const earlier = fromSeq > 0 ? fileStatesAt(entries, fromSeq) : null;
  const files = new Map<string, Sides>();
  for (const f of at.files) {
    const changedInRange = f.changes.filter((c) => c.seq > fromSeq);
    if (changedInRange.length === 0) continue;
    const prev = earlier?.files.find((e) => e.path === f.path);
    const before = prev ? prev.after : f.before;
    const beforeKnown = prev ? prev.afterKnown : f.beforeKnown;
    files.set(f.path, {
      before,
      after: f.after,
      known: beforeKnown && f.afterKnown,
      lastSeq: changedInRange[changedInRange.length - 1].seq,
    });
  }
  return { files, untracked: at.untracked.filter((u) => u.seq > fromSeq) };
}

export function changesBetween(entries: readonly StoredEntry[], fromSeq: number, toSeq: number): ChangeSet {
  const { files, untracked } = sidesBetween(entries, fromSeq, toSeq);
  const out: ChangedFile[] = [];
  let added = 0;
  let removed = 0;
  for (const [path, s] of files) {
    if (s.known && s.before === s.after) continue;
    const hunks = s.known ? computeHunks(s.before ?? "", s.after ?? "") : [];
    const a = hunks.reduce((n, h) => n + h.newLines, 0);
    const r = hunks.reduce((n, h) => n + h.oldLines, 0);
    const kinds = new Set<HunkKind>(hunks.map((h) => h.kind));
    added += a;
    removed += r;
    out.push({
      path,
      oldPath: null,
      status: s.before === null && s.known ? "added" : s.after === null && s.known ? "deleted" : "modified",
      added: a,
      removed: r,
      hunks: hunks.length,
      known: s.known,
      lastSeq: s.lastSeq,
      kind: kinds.has("change") || kinds.size === 0 ? "change" : kinds.has("whitespace") ? "whitespace" : "lineEnding",
    });
  }
  out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  return { fromSeq, toSeq, files: out, added, removed, untracked };
}

export function changeDiff(entries: readonly StoredEntry[], fromSeq: number, toSeq: number, path: string): ChangeDiff | null {
  const s = sidesBetween(entries, fromSeq, toSeq).files.get(path);
  return s ? { path, before: s.before, after: s.after } : null;
}
