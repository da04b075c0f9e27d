/**
 * The rewind dialog: choose files / conversation / both, see every file that
 * will change (with a Monaco diff of the selected one) and the files changed
 * outside the agent, confirm, apply; then undo the file restore if wanted.
 */
import type { RewindFile, RewindMode } from "../../../../shared/checkpoints";
import { revealInvisible } from "../../../../shared/invisible-chars";
import { Dialog } from "../../replay/dialog";
import "./rewind.css";
import { RewindDiff } from "./rewind-diff";
import { useRewindStore } from "./rewind-store";

const MODES: Array<{ mode: RewindMode; label: string; hint: string }> = [
  { mode: "both", label: "Restore both", hint: "files and conversation" },
  { mode: "files", label: "Restore files", hint: "the conversation stays" },
  { mode: "conversation", label: "Restore conversation", hint: "the files stay" },
];

const STATUS_TEXT: Record<RewindFile["status"], string> = {
  added: "comes back",
  deleted: "removed",
  modified: "reverted",
  typeChanged: "reverted",
};

function modeNote(mode: string | null): string {
  if (mode === "100755") return " (executable)";
  if (mode === "120000") return " (symlink)";
  return "";
}

function FileDetail({ file }: { file: RewindFile }) {
  if (file.textShown) return <RewindDiff path={file.path} before={file.before ?? ""} after={file.after ?? ""} />;
  return (
    <p className="muted">
      {file.binary ? "Binary file" : "Large file"}: {file.newSize === null ? "removed" : `${file.newSize} bytes after the rewind`}
      {file.oldSize !== null && `, ${file.oldSize} bytes now`}.
    </p>
  );
}

export function RewindDialog() {
  const s = useRewindStore();
  if (!s.request) return null;
  const { preview, done } = s;
  const filesChosen = s.mode !== "conversation";
  const conversationChosen = s.mode !== "files";
  const selected = preview?.files.find((f) => f.path === s.selected) ?? null;
  const needsConfirm = filesChosen && (preview?.conflicts ?? 0) > 0;
  const busy = s.status === "loading" || s.status === "applying";
  const conversationPossible = preview?.forkAtSeq !== null && preview?.forkAtSeq !== undefined;

  return (
    <Dialog title={`Rewind ${s.request.label}`} wide onClose={s.close}>
      {s.status === "loading" && <p role="status">Working out what would change…</p>}
      {s.error && (
        <p className="msg-error" role="alert">
          {s.error}
        </p>
      )}
      {done ? (
        <div className="rewind-done" role="status">
          <p>
            {done.undone
              ? "The file restore was undone: the files are as they were before the rewind."
              : `${done.restoredFiles.length} file${done.restoredFiles.length === 1 ? "" : "s"} restored.`}
            {done.forkedTitle && ` The conversation continues in “${done.forkedTitle}”; the original session is unchanged.`}
          </p>
          <div className="modal-actions">
            {done.undoCheckpointId !== null && !done.undone && (
              <button type="button" disabled={busy} onClick={() => void s.undoFiles()}>
                Undo file restore
              </button>
            )}
            <button type="button" className="primary" onClick={s.close}>
              Close
            </button>
          </div>
        </div>
      ) : (
        preview && (
          <>
            <fieldset className="rewind-modes">
              <legend>What to restore</legend>
              {MODES.map((m) => (
                <label key={m.mode}>
                  <input
                    type="radio"
                    name="rewind-mode"
                    checked={s.mode === m.mode}
                    disabled={m.mode !== "files" && !conversationPossible}
                    onChange={() => s.setMode(m.mode)}
                  />
                  {m.label} <span className="muted small">({m.hint})</span>
                </label>
              ))}
            </fieldset>
            {filesChosen && (
              <section className="rewind-files" aria-label="Files that will change">
                {preview.filesUnavailable ? (
                  <p className="muted">Files cannot be restored: {preview.filesUnavailable}.</p>
                ) : preview.files.length === 0 ? (
                  <p className="muted">No file differs from that step: nothing to restore.</p>
                ) : (
                  <>
                    <h3>
                      {preview.files.length} file{preview.files.length === 1 ? "" : "s"} will change
                    </h3>
                    <ul className="rewind-file-list">
                      {preview.files.map((f) => (
                        <li key={f.path}>
                          <button
                            type="button"
                            aria-pressed={f.path === s.selected}
                            className={f.conflict ? "conflict" : undefined}
                            onClick={() => s.select(f.path)}
                          >
                            <span className="rewind-path">{revealInvisible(f.path)}</span>
                            <span className={`badge rewind-${f.status}`}>
                              {STATUS_TEXT[f.status]}
                              {modeNote(f.newMode)}
                            </span>
                            {f.conflict && <span className="badge warn">changed outside the agent</span>}
                          </button>
                        </li>
                      ))}
                    </ul>
                    {selected && <FileDetail file={selected} />}
                  </>
                )}
                {needsConfirm && (
                  <label className="rewind-confirm">
                    <input type="checkbox" checked={s.confirmConflicts} onChange={(e) => s.setConfirm(e.target.checked)} />
                    Overwrite {preview.conflicts} file{preview.conflicts === 1 ? "" : "s"} changed outside the agent (their current content
                    is checkpointed first, so this can be undone)
                  </label>
                )}
              </section>
            )}
            {conversationChosen && (
              <p className="muted small">The conversation is forked at this step into a new session; this session stays as it is.</p>
            )}
            <div className="modal-actions">
              <button type="button" onClick={s.close}>
                Cancel
              </button>
              <button
                type="button"
                className="primary"
                disabled={busy || (needsConfirm && !s.confirmConflicts) || (conversationChosen && !conversationPossible)}
                onClick={() => void s.apply()}
              >
                {s.status === "applying" ? "Restoring…" : MODES.find((m) => m.mode === s.mode)?.label}
              </button>
            </div>
          </>
        )
      )}
    </Dialog>
  );
}
