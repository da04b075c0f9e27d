/**
 * Finishing a rewind the app was stopped in (killed, crashed, power cut):
 * run when the workspace's checkpoint repository is first opened, before
 * any other operation on it. See docs/checkpoints.md#an-interrupted-rewind.
 *
 * Contract:
 * - The rewind is finished, never rolled back: the user asked for it, and
 *   restoring the same tree again is what fixes a half-restored workspace
 *   (the index is first brought up to date with the files as they are, so
 *   every file that differs from the target is rewritten, a 0-byte one left
 *   by the kill included, and files the target lacks are deleted).
 * - The rows the rewind had not written yet are written (`beforeRestore`
 *   with the state before it, `restored`), and a `both` rewind's fork is
 *   made unless it was; what was already done is not done twice (the
 *   journal names the session's newest checkpoint and forks before it).
 * - Returns the notice for the user; throws when the files could not be
 *   restored (the journal stays, so the next start tries again).
 */
import { renameSync } from "node:fs";
import type { SessionStore } from "../store";
import { clearJournal, forkConversation, forksAt, journalPath, readJournal } from "./rewind-journal";
import type { ShadowRepo } from "./shadow-repo";

export interface RecoveryNotice {
  level: "warning" | "error";
  message: string;
}

export async function finishInterruptedRewind(store: SessionStore, repo: ShadowRepo): Promise<RecoveryNotice | null> {
  const journal = readJournal(repo.gitDir);
  if (journal === null) return null;
  if ("damaged" in journal) {
    const kept = `${journalPath(repo.gitDir)}.damaged`;
    renameSync(journalPath(repo.gitDir), kept);
    return {
      level: "error",
      message: `A rewind was interrupted, but its record (${kept}) could not be read (${journal.damaged}): the workspace may hold files of two states. Check it, or rewind again.`,
    };
  }
  const session = store.getSession(journal.sessionId);
  const mine = session ? store.listSessionCheckpoints(journal.sessionId).filter((r) => r.id > journal.afterCheckpointId) : [];
  const record = (kind: "beforeRestore" | "restored", tree: string) =>
    store.addCheckpoint({ workspaceId: journal.workspaceId, sessionId: journal.sessionId, seq: journal.atSeq, kind, tree });
  const undo = mine.find((r) => r.kind === "beforeRestore") ?? (session ? record("beforeRestore", journal.beforeTree) : null);
  const filesDone = mine.some((r) => r.kind === "restored");
  if (!filesDone) {
    // The files are half restored: the index learns what is on disk, then the target is restored over it.
    await repo.snapshot();
    await repo.restore(journal.targetTree);
    if (session) record("restored", journal.targetTree);
  }
  let forkTitle: string | null = null;
  if (journal.fork && session) {
    const fork = journal.fork;
    const made = forksAt(store, journal.sessionId, fork.seq).some((id) => !fork.existing.includes(id));
    if (!made) forkTitle = forkConversation(store, journal.sessionId, fork.seq, fork.title).title;
  }
  clearJournal(repo.gitDir);
  if (filesDone && forkTitle === null) return null;
  const where = session ? `in session "${session.title}"` : "of a session deleted since";
  const files = `${journal.files} file${journal.files === 1 ? "" : "s"}`;
  const parts = [
    `A rewind ${where} was interrupted (the app stopped while restoring ${files}); it was finished now: the files are back at the step you chose.`,
  ];
  if (filesDone) parts[0] = `A rewind ${where} was interrupted after its files were restored; it was finished now.`;
  if (undo) parts.push(`The state before the rewind is kept as checkpoint ${undo.id}.`);
  if (forkTitle !== null) parts.push(`The conversation was rewound into "${forkTitle}".`);
  return { level: "warning", message: parts.join(" ") };
}
