/**
 * The workspace files as they stood at the current step (review.fileStates):
 * each file the session's write/edit calls touched so far, with its change
 * count, and the one selected shown in the diff panel, from the content before
 * the session to the content as of the step. bash runs are listed apart: they
 * may have changed files that no diff records.
 *
 * Fetched by a key that only changes when a write/edit/bash result is passed,
 * and only once stepping pauses briefly, so fast stepping never waits on it.
 */
import { useEffect, useState } from "react";
import type { FileState } from "../../../shared/review";
import { hunksFromUnified, sidesFromHunks } from "../lib/diff-hunks";
import { isNarrowLayout } from "../lib/layout";
import { useUiStore, type DiffSelection } from "../stores/ui-store";
import { useReplayStore } from "./replay-store";
import { fileStateKey, type StepIndex } from "./step-view";

/** Wait this long after the step settles before asking the core. */
const SETTLE_MS = 120;

function lastChangeSeq(f: FileState): number {
  return f.changes.length > 0 ? f.changes[f.changes.length - 1].seq : 0;
}

export function selectionFor(sessionId: string, key: number, f: FileState): DiffSelection {
  const known = f.beforeKnown && f.afterKnown;
  const sides = known ? { before: f.before ?? "", after: f.after ?? "" } : sidesFromHunks(hunksFromUnified(f.lastDiff));
  return { key: `replay:${sessionId}:${key}:${f.path}`, path: f.path, before: sides.before, after: sides.after, origin: "result" };
}

/** At most one diff panel swap per this many milliseconds (see showInPanel). */
const MIN_SWAP_GAP_MS = 400;
let lastSwapAt = 0;
let pendingSwap: { timer: ReturnType<typeof setTimeout>; selection: DiffSelection } | null = null;

function sameContent(a: DiffSelection | null, b: DiffSelection): boolean {
  return a !== null && a.path === b.path && a.before === b.before && a.after === b.after;
}

/**
 * Shows a file in the diff panel. Each swap replaces Monaco's models, and a
 * swap while the previous diff is still being computed makes Monaco throw
 * "no diff result available": so swaps are skipped when the content is the
 * same, and spaced out (the latest selection wins) when steps come quickly.
 */
function showInPanel(selection: DiffSelection): void {
  const { diff, diffOpen } = useUiStore.getState();
  if (diffOpen && sameContent(diff, selection)) {
    if (pendingSwap) clearTimeout(pendingSwap.timer);
    pendingSwap = null;
    return;
  }
  const wait = lastSwapAt + MIN_SWAP_GAP_MS - Date.now();
  if (wait <= 0) {
    if (pendingSwap) clearTimeout(pendingSwap.timer);
    pendingSwap = null;
    lastSwapAt = Date.now();
    useUiStore.getState().openDiff(selection);
    return;
  }
  if (pendingSwap) {
    pendingSwap.selection = selection;
    return;
  }
  const timer = setTimeout(() => {
    const latest = pendingSwap?.selection;
    pendingSwap = null;
    if (latest && useReplayStore.getState().sessionId !== null) showInPanel(latest);
  }, wait);
  pendingSwap = { timer, selection };
}

function hidePanel(): void {
  if (pendingSwap) clearTimeout(pendingSwap.timer);
  pendingSwap = null;
  if (useUiStore.getState().diff !== null) useUiStore.setState({ diff: null, diffOpen: false });
}

function totals(f: FileState): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const c of f.changes) {
    added += c.added;
    removed += c.removed;
  }
  return { added, removed };
}

export function FilesAtStep({ index }: { index: StepIndex }) {
  const sessionId = useReplayStore((s) => s.sessionId ?? "");
  const key = useReplayStore((s) => fileStateKey(index, s.data?.items[s.cursor]?.seq ?? 0));
  const files = useReplayStore((s) => s.files);
  const loadFiles = useReplayStore((s) => s.loadFiles);
  const [selected, setSelected] = useState<string | null>(null);

  useEffect(() => {
    const t = setTimeout(() => void loadFiles(key), SETTLE_MS);
    return () => clearTimeout(t);
  }, [key, loadFiles]);

  const ready = files !== null && files.key === key && files.status === "ready" ? files.states : null;

  // The diff panel follows the step: the selected file (or the latest changed one) as of this step.
  useEffect(() => {
    if (!ready) return;
    const list = ready.files;
    if (list.length === 0) {
      hidePanel();
      return;
    }
    // In a narrow window the panel floats over the timeline and the step's details:
    // it follows the step only while the user keeps it open, never opens unasked.
    if (isNarrowLayout() && !useUiStore.getState().diffOpen) return;
    const pick = list.find((f) => f.path === selected) ?? list.reduce((a, b) => (lastChangeSeq(b) > lastChangeSeq(a) ? b : a));
    showInPanel(selectionFor(sessionId, key, pick));
  }, [ready, selected, sessionId, key]);

  const shownPath = useUiStore((s) => s.diff?.path ?? null);

  return (
    <section className="replay-files" aria-label="Files at this step">
      <h3>Files at this step</h3>
      {files?.status === "error" && files.key === key && (
        <p className="error-text" role="alert">
          Could not rebuild the files: {files.error}
        </p>
      )}
      {!ready && files?.status !== "error" && <p className="muted small">Loading…</p>}
      {ready && ready.files.length === 0 && <p className="muted small">No file changed yet.</p>}
      {ready && ready.files.length > 0 && (
        <ul className="replay-file-list">
          {ready.files.map((f) => {
            const t = totals(f);
            return (
              <li key={f.path}>
                <button
                  type="button"
                  className={`link-button${shownPath === f.path ? " current" : ""}`}
                  aria-current={shownPath === f.path ? "true" : undefined}
                  aria-label={`Show ${f.path} as of this step`}
                  onClick={() => {
                    setSelected(f.path);
                    showInPanel(selectionFor(sessionId, key, f));
                  }}
                >
                  {f.path}
                </button>{" "}
                <span className="diff-counts">
                  <span className="added">+{t.added}</span> <span className="removed">−{t.removed}</span>
                </span>{" "}
                <span className="muted small">
                  {f.created ? "created · " : ""}
                  {f.changes.length} change{f.changes.length === 1 ? "" : "s"}
                  {!f.beforeKnown || !f.afterKnown ? " · partial (only the diff was kept)" : ""}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {ready && ready.untracked.length > 0 && (
        <p className="muted small" title={ready.untracked.map((u) => u.command).join("\n")}>
          {ready.untracked.length} command{ready.untracked.length === 1 ? "" : "s"} ran (bash); files they changed are not shown.
        </p>
      )}
    </section>
  );
}
