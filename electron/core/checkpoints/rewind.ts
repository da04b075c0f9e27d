/**
 * Rewinding a workspace to a checkpoint: which state a step means, which
 * files would change, which of them were changed outside the session's agent
 * (conflicts), and the restore itself. See docs/checkpoints.md.
 *
 * Contract:
 * - The state "at step S" is the last turnStart/afterTool checkpoint at or
 *   before S, unless the next checkpoint after S is a turnStart: no agent
 *   side effect happened in between, so that later, fresher state is used.
 * - A file conflicts when it would change and was changed outside the agent
 *   since the target: between one checkpoint and the next turnStart (or a
 *   restore), or since the last checkpoint.
 * - `restore` refuses conflicts unless confirmed; it first records the
 *   current state (`beforeRestore`), so the rewind itself can be undone, then
 *   the restored state (`restored`). It is journaled (rewind-journal.ts): a
 *   rewind killed half-way is finished at the next start.
 */
import type { SessionSummary } from "../../../shared/api";
import type { RewindFile, RewindTarget } from "../../../shared/checkpoints";
import type { CheckpointRecord } from "../store";
import { clearJournal, forkConversation, forksAt, lastCheckpointId, writeJournal } from "./rewind-journal";
import { CheckpointService, CheckpointUnavailable, withContents } from "./service";
import type { ShadowRepo } from "./shadow-repo";

export class RewindConflict extends Error {
  override name = "RewindConflict";
  constructor(readonly paths: string[]) {
    super(
      `${paths.length} file(s) were changed outside the agent since that step and would be overwritten: ${paths.slice(0, 5).join(", ")}${paths.length > 5 ? "…" : ""}. Confirm to restore over them (their current content is checkpointed first).`,
    );
  }
}

/** The checkpoint holding the workspace state at a step, or null when the session recorded none. */
export function checkpointForStep(list: readonly CheckpointRecord[], seq: number): CheckpointRecord | null {
  const agentRows = list.filter((r) => r.kind === "turnStart" || r.kind === "afterTool");
  const next = agentRows.find((r) => r.seq > seq);
  if (next && next.kind === "turnStart") return next;
  let last: CheckpointRecord | null = null;
  for (const r of agentRows) if (r.seq <= seq) last = r;
  return last ?? null;
}

export function resolveTarget(service: CheckpointService, sessionId: string, target: RewindTarget): CheckpointRecord | null {
  const list = service.list(sessionId);
  if ("checkpointId" in target) {
    const found = list.find((r) => r.id === target.checkpointId);
    if (!found) throw new CheckpointUnavailable(`checkpoint ${target.checkpointId} does not belong to this session`);
    return found;
  }
  return checkpointForStep(list, target.seq);
}

export interface FilesPlan {
  target: CheckpointRecord;
  currentTree: string;
  files: RewindFile[];
}

/** Snapshots the workspace and works out what restoring `target` would change (run inside `exclusive`). */
async function plan(service: CheckpointService, repo: ShadowRepo, sessionId: string, target: CheckpointRecord): Promise<FilesPlan> {
  if (target.prunedAt !== null)
    throw new CheckpointUnavailable(`the checkpoint of that step was pruned to keep the store under its size cap`);
  const currentTree = await repo.snapshot();
  const changes = await repo.diff(currentTree, target.tree);
  const outside = await changedOutside(repo, service.list(sessionId), target, currentTree);
  const files = (await withContents(repo, changes)).map((f) => ({ ...f, conflict: outside.has(f.path) }));
  return { target, currentTree, files };
}

/** Paths changed outside the agent after `target`: gaps into a turnStart/beforeRestore checkpoint, and since the last one. */
async function changedOutside(
  repo: ShadowRepo,
  list: readonly CheckpointRecord[],
  target: CheckpointRecord,
  currentTree: string,
): Promise<Set<string>> {
  const after = list.filter((r) => r.id >= target.id);
  const gaps: Array<[string, string]> = [];
  for (let i = 1; i < after.length; i++) {
    if (after[i].kind === "turnStart" || after[i].kind === "beforeRestore") gaps.push([after[i - 1].tree, after[i].tree]);
  }
  const last = after[after.length - 1] ?? target;
  gaps.push([last.tree, currentTree]);
  const paths = new Set<string>();
  for (const [a, b] of new Map(gaps.filter(([a, b]) => a !== b).map((g) => [g.join(" "), g])).values()) {
    // A tree the cap pruned cannot say what changed in that gap; the later gaps still can.
    const changes = await repo.diff(a, b).catch(() => []);
    for (const c of changes) paths.add(c.path);
  }
  return paths;
}

export async function previewRestore(service: CheckpointService, sessionId: string, target: CheckpointRecord): Promise<FilesPlan> {
  return service.exclusive(target.workspaceId, (repo) => plan(service, repo, sessionId, target));
}

export interface RestoreOutcome {
  files: RewindFile[];
  /** The state before the restore: rewind to it to undo. */
  undo: CheckpointRecord;
  /** The fork the conversation part made (mode `both`), or null. */
  forked: SessionSummary | null;
}

export interface RestoreOptions {
  confirmConflicts: boolean;
  atSeq: number;
  /** Mode `both`: also fork the conversation at this step, inside the journaled rewind. */
  fork?: { seq: number; title: string } | null;
}

/**
 * Restores the files (and forks the conversation when asked) as one journaled
 * operation: the journal is on disk before the first file changes and removed
 * after the last step, so an interrupted rewind is finished at the next start
 * (rewind-recovery.ts).
 */
export async function restoreFiles(
  service: CheckpointService,
  sessionId: string,
  target: CheckpointRecord,
  options: RestoreOptions,
): Promise<RestoreOutcome> {
  return service.exclusive(target.workspaceId, async (repo) => {
    const p = await plan(service, repo, sessionId, target);
    const conflicts = p.files.filter((f) => f.conflict).map((f) => f.path);
    if (conflicts.length > 0 && !options.confirmConflicts) throw new RewindConflict(conflicts);
    const store = service.storeRef;
    const fork = options.fork ?? null;
    writeJournal(repo.gitDir, {
      version: 1,
      workspaceId: target.workspaceId,
      sessionId,
      targetCheckpointId: target.id,
      targetTree: target.tree,
      beforeTree: p.currentTree,
      atSeq: options.atSeq,
      files: p.files.length,
      afterCheckpointId: lastCheckpointId(store, sessionId),
      fork: fork ? { ...fork, existing: forksAt(store, sessionId, fork.seq) } : null,
      startedAt: Date.now(),
    });
    const undo = store.addCheckpoint({
      workspaceId: target.workspaceId,
      sessionId,
      seq: options.atSeq,
      kind: "beforeRestore",
      tree: p.currentTree,
    });
    if (p.files.length > 0) await repo.restore(target.tree);
    store.addCheckpoint({ workspaceId: target.workspaceId, sessionId, seq: options.atSeq, kind: "restored", tree: target.tree });
    const forked = fork ? forkConversation(store, sessionId, fork.seq, fork.title) : null;
    clearJournal(repo.gitDir);
    return { files: p.files, undo, forked };
  });
}
