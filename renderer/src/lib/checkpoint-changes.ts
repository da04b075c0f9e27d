/**
 * The Changes view from workspace checkpoints (docs/checkpoints.md), when the
 * session has them: unlike the write/edit details, they also show what bash
 * changed, deletions, and renames (a deleted file whose content reappears
 * under another path). Null when the range has no checkpoints to compare.
 */
import { diffLines } from "diff";
import type { Checkpoint, CheckpointFileDiff } from "../../../shared/checkpoints";
import type { ChangedFile } from "../../../shared/review";
import { client } from "../api/current";

export interface CheckpointChanges {
  files: ChangedFile[];
  added: number;
  removed: number;
  texts: Map<string, { before: string | null; after: string | null }>;
}

/**
 * The state at `fromSeq`: the turn-start checkpoint right after it (the
 * workspace as the next turn found it) or else the last one at or before it;
 * the state at `toSeq`: the last one at or before it.
 */
export function pickCheckpoints(list: readonly Checkpoint[], fromSeq: number, toSeq: number): { from: Checkpoint; to: Checkpoint } | null {
  const usable = list.filter((c) => c.prunedAt === null).sort((a, b) => a.seq - b.seq || a.id - b.id);
  const to = [...usable].reverse().find((c) => c.seq <= toSeq);
  const from = usable.find((c) => c.seq > fromSeq && c.kind === "turnStart") ?? [...usable].reverse().find((c) => c.seq <= fromSeq);
  if (!from || !to || from.id === to.id || from.seq > to.seq) return null;
  return { from, to };
}

function counts(before: string, after: string): { added: number; removed: number; hunks: number; kind: ChangedFile["kind"] } {
  let added = 0;
  let removed = 0;
  let hunks = 0;
  let inHunk = false;
  let onlyEol = true;
  for (const part of diffLines(before, after)) {
    const n = part.count ?? 0;
    if (part.added) added += n;
    else if (part.removed) removed += n;
    if ((part.added || part.removed) && !inHunk) hunks++;
    inHunk = Boolean(part.added || part.removed);
  }
  if (before.replace(/\r\n/g, "\n") !== after.replace(/\r\n/g, "\n")) onlyEol = false;
  return { added, removed, hunks, kind: onlyEol ? "lineEnding" : "change" };
}

export function toChangedFiles(diffs: readonly CheckpointFileDiff[], lastSeq: number): CheckpointChanges {
  const texts = new Map<string, { before: string | null; after: string | null }>();
  const files: ChangedFile[] = [];
  const deleted = diffs.filter((d) => d.status === "deleted");
  const renamedFrom = new Map<string, string>();
  for (const d of diffs) {
    if (d.status !== "added" || !d.textShown) continue;
    const source = deleted.find(
      (x) => x.textShown && x.before === d.after && !renamedFrom.has(x.path) && ![...renamedFrom.values()].includes(x.path),
    );
    if (source) renamedFrom.set(d.path, source.path);
  }
  const gone = new Set(renamedFrom.values());
  let added = 0;
  let removed = 0;
  for (const d of diffs) {
    if (gone.has(d.path)) continue;
    const oldPath = renamedFrom.get(d.path) ?? null;
    // A rename compares the old file's content with the new one's.
    const before = oldPath ? (diffs.find((x) => x.path === oldPath)?.before ?? null) : d.before;
    const c = d.textShown ? counts(before ?? "", d.after ?? "") : { added: 0, removed: 0, hunks: 0, kind: "change" as const };
    added += c.added;
    removed += c.removed;
    texts.set(d.path, { before, after: d.after });
    files.push({
      path: d.path,
      oldPath,
      status: oldPath ? "renamed" : d.status === "typeChanged" ? "modified" : d.status,
      added: c.added,
      removed: c.removed,
      hunks: c.hunks,
      known: d.textShown,
      lastSeq,
      kind: c.kind,
    });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, added, removed, texts };
}

export async function checkpointChanges(sessionId: string, fromSeq: number, toSeq: number): Promise<CheckpointChanges | null> {
  let list: Checkpoint[];
  try {
    list = await client().call("checkpoint.list", { sessionId });
  } catch {
    return null; // Checkpoints unavailable (no git, turned off): the details are the source.
  }
  const pair = pickCheckpoints(list, fromSeq, toSeq);
  if (!pair) return null;
  const diffs = await client().call("checkpoint.diff", { from: pair.from.id, to: pair.to.id });
  return toChangedFiles(diffs, pair.to.seq);
}
