/**
 * Review on top of checkpoints: replay's "files at this step" from the
 * recorded workspace states (so what bash did shows too), and the session's
 * workspace diff for exports. Both fall back to the caller's answer when the
 * session recorded no checkpoint.
 */
import { createTwoFilesPatch } from "diff";
import type { FileState, FileStates } from "../../../shared/review";
import { checkpointForStep } from "./rewind";
import type { CheckpointService } from "./service";

/**
 * `fromTools` (rebuilt from write/edit results) with each file's before/after
 * taken from the checkpoints: the state at the session's first checkpoint and
 * at the step. Files only bash touched are added.
 */
export async function fileStatesFromCheckpoints(
  service: CheckpointService,
  sessionId: string,
  seq: number,
  fromTools: FileStates,
): Promise<FileStates> {
  const list = service.list(sessionId).filter((r) => r.prunedAt === null);
  const first = list.find((r) => r.kind === "turnStart" || r.kind === "afterTool");
  const at = checkpointForStep(list, seq);
  if (!first || !at || at.id < first.id) return fromTools;
  const diffs = await service.diff(first.id, at.id);
  const byPath = new Map<string, FileState>(fromTools.files.map((f) => [f.path, f]));
  for (const d of diffs) {
    const known = byPath.get(d.path);
    const before = d.textShown ? d.before : null;
    const after = d.textShown ? d.after : null;
    byPath.set(d.path, {
      path: d.path,
      before,
      after,
      beforeKnown: d.textShown || d.oldMode === null,
      afterKnown: d.textShown,
      created: d.oldMode === null,
      lastDiff: known?.lastDiff || (d.textShown ? createTwoFilesPatch(d.path, d.path, before ?? "", after ?? "") : ""),
      changes: known?.changes ?? [],
    });
  }
  // Files written and then restored to their first state differ no more: show them unchanged.
  for (const [path, state] of byPath) {
    if (!diffs.some((d) => d.path === path) && state.beforeKnown) byPath.set(path, { ...state, after: state.before, afterKnown: true });
  }
  // bash runs are covered by the checkpoints.
  return { seq, files: [...byPath.values()], untracked: [] };
}

/** The git-format diff of the workspace over the whole session (first to last checkpoint), or null without checkpoints. */
export async function sessionWorkspaceDiff(service: CheckpointService, sessionId: string): Promise<string | null> {
  const live = service.list(sessionId).filter((r) => r.prunedAt === null && (r.kind === "turnStart" || r.kind === "afterTool"));
  if (live.length === 0) return null;
  return service.patch(live[0].id, live[live.length - 1].id);
}
