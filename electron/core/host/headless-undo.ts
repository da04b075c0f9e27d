/**
 * Headless `undo`: "Undo last turn" from the command line — the files and the
 * conversation restored to before the session's last user message, with the
 * same rewind the app's header button runs (docs/checkpoints.md). The
 * conversation is forked at that step (the original session stays), and the
 * undone prompt is printed so it can be edited and run again.
 *
 * Exit code: 0 restored; 1 refused (files changed outside the agent since
 * then without --force, files that cannot be restored, a turn running);
 * 2 bad usage (no such session); 3 nothing to undo (the session has no turn
 * left: not a mistake in the command, e.g. a second undo). With `json`, errors
 * are `error` events on stdout and the run ends with a `result` event.
 */
import type { SessionSummary } from "../../../shared/api";
import type { RewindPreview } from "../../../shared/checkpoints";
import type { StoredEntry } from "../../../shared/protocol";
import { CONTINUE_PROMPT } from "../agent/session-agent";
import type { Workbench } from "../api/workbench";
import { call, chooseSession, jsonReport, UsageError, type HeadlessIo } from "./headless-run";

/** The session has no turn to undo: exit code 3. */
export const NOTHING_TO_UNDO = 3;
class NothingToUndo extends Error {}

export interface HeadlessUndoOptions {
  workspace: string;
  /** A session id; absent: the workspace's most recent session. */
  session?: string;
  /** Restore over files changed outside the agent since then (their content is checkpointed first). */
  force: boolean;
  json: boolean;
}

export async function undoHeadless(workbench: Workbench, options: HeadlessUndoOptions, io: HeadlessIo): Promise<number> {
  const report = jsonReport(io, options.json);
  const fail = (message: string, code: number, sessionId: string | null) => {
    report.error("undo", message, code);
    return report.result(code, { sessionId });
  };
  let session: SessionSummary;
  let seq: number;
  try {
    const workspace = await call(workbench, "workspace.open", { path: options.workspace });
    session = await chooseSession(workbench, workspace.id, { session: options.session ?? { continue: true } });
    const { entries } = await call(workbench, "session.load", { sessionId: session.id });
    const last = lastUserSeq(entries);
    if (last === null) throw new NothingToUndo(`session ${session.id} has no turn to undo`);
    seq = last - 1;
  } catch (e) {
    const code = e instanceof NothingToUndo ? NOTHING_TO_UNDO : e instanceof UsageError ? 2 : 1;
    return fail(e instanceof Error ? e.message : String(e), code, null);
  }

  try {
    const target = { seq };
    const preview: RewindPreview = await call(workbench, "rewind.preview", { sessionId: session.id, target });
    if (preview.filesUnavailable) return fail(`the files cannot be restored: ${preview.filesUnavailable}`, 1, session.id);
    const conflicts = preview.files.filter((f) => f.conflict).map((f) => f.path);
    if (conflicts.length > 0 && !options.force) {
      return fail(
        `changed outside the agent since that turn: ${conflicts.join(", ")}. Nothing was restored. Run again with --force to restore over them (their current content is checkpointed first).`,
        1,
        session.id,
      );
    }
    const result = await call(workbench, "rewind.apply", {
      sessionId: session.id,
      target,
      mode: "both",
      confirmConflicts: options.force || undefined,
    });
    if (!options.json) {
      for (const path of result.restoredFiles) io.out(`restored ${path}`);
      if (result.forked) io.out(`conversation continues in session ${result.forked.id} (the original session ${session.id} is kept)`);
      if (result.draft) io.out(`undone prompt: ${result.draft}`);
    }
    return report.result(0, {
      restoredFiles: result.restoredFiles,
      session: result.forked?.id ?? null,
      prompt: result.draft,
      undoCheckpointId: result.undoCheckpointId,
    });
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e), 1, session.id);
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
