/**
 * Headless `undo`: "Undo last turn" from the command line — the files and the
 * conversation restored to before the session's last user message, with the
 * same rewind the app's header button runs (docs/checkpoints.md). The
 * conversation is forked at that step (the original session stays), and the
 * undone prompt is printed so it can be edited and run again.
 *
 * Exit code: 0 restored; 1 refused (files changed outside the agent since
 * then without --force, files that cannot be restored, a turn running);
 * 2 bad usage (no such session, nothing to undo).
 */
import type { SessionSummary } from "../../../shared/api";
import type { RewindPreview } from "../../../shared/checkpoints";
import type { StoredEntry } from "../../../shared/protocol";
import { CONTINUE_PROMPT } from "../agent/session-agent";
import type { Workbench } from "../api/workbench";
import { call, chooseSession, UsageError, type HeadlessIo } from "./headless-run";

export interface HeadlessUndoOptions {
  workspace: string;
  /** A session id; absent: the workspace's most recent session. */
  session?: string;
  /** Restore over files changed outside the agent since then (their content is checkpointed first). */
  force: boolean;
  json: boolean;
}

export async function undoHeadless(workbench: Workbench, options: HeadlessUndoOptions, io: HeadlessIo): Promise<number> {
  let session: SessionSummary;
  let seq: number;
  try {
    const workspace = await call(workbench, "workspace.open", { path: options.workspace });
    session = await chooseSession(workbench, workspace.id, { session: options.session ?? { continue: true } });
    const { entries } = await call(workbench, "session.load", { sessionId: session.id });
    const last = lastUserSeq(entries);
    if (last === null) throw new UsageError(`session ${session.id} has no turn to undo`);
    seq = last - 1;
  } catch (e) {
    io.err(`agent undo: ${e instanceof Error ? e.message : String(e)}`);
    return e instanceof UsageError ? 2 : 1;
  }

  try {
    const target = { seq };
    const preview: RewindPreview = await call(workbench, "rewind.preview", { sessionId: session.id, target });
    if (preview.filesUnavailable) {
      io.err(`agent undo: the files cannot be restored: ${preview.filesUnavailable}`);
      return 1;
    }
    const conflicts = preview.files.filter((f) => f.conflict).map((f) => f.path);
    if (conflicts.length > 0 && !options.force) {
      io.err(`agent undo: changed outside the agent since that turn: ${conflicts.join(", ")}`);
      io.err("Nothing was restored. Run again with --force to restore over them (their current content is checkpointed first).");
      return 1;
    }
    const result = await call(workbench, "rewind.apply", {
      sessionId: session.id,
      target,
      mode: "both",
      confirmConflicts: options.force || undefined,
    });
    if (options.json) {
      io.out(
        JSON.stringify({
          restoredFiles: result.restoredFiles,
          session: result.forked?.id ?? null,
          prompt: result.draft,
          undoCheckpointId: result.undoCheckpointId,
        }),
      );
    } else {
      for (const path of result.restoredFiles) io.out(`restored ${path}`);
      if (result.forked) io.out(`conversation continues in session ${result.forked.id} (the original session ${session.id} is kept)`);
      if (result.draft) io.out(`undone prompt: ${result.draft}`);
    }
    return 0;
  } catch (e) {
    io.err(`agent undo: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

/** The seq of the last message the user typed (not the loop's "continue" prompt). */
function lastUserSeq(entries: readonly StoredEntry[]): number | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i].entry;
    if (e.type !== "message" || e.message.role !== "user") continue;
    const c = e.message.content;
    if (c.length === 1 && c[0].type === "text" && c[0].text === CONTINUE_PROMPT) continue;
    return entries[i].seq;
  }
  return null;
}
