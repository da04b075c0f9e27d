/**
 * The Changes view: every file the session changed, with +/− counts, for a
 * range ("since the start", "this turn", "since step N"). From workspace
 * checkpoints where the range has them (bash changes, deletions and renames
 * included; lib/checkpoint-changes.ts), else from the write/edit results.
 * The list is virtualised; a file opens in the diff panel (the one Monaco diff editor),
 * where a click on a line number starts a review comment.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState } from "react";
import { revealInvisible } from "../../../../shared/invisible-chars";
import type { ChangedFile, ChangeSet } from "../../../../shared/review";
import { client } from "../../api/current";
import { checkpointChanges, type CheckpointChanges } from "../../lib/checkpoint-changes";
import { useAppStore } from "../../stores/app-store";
import { useUiStore } from "../../stores/ui-store";

export type ChangesRange = { kind: "start" } | { kind: "turn" } | { kind: "step"; seq: number };

const ROW_PX = 28;
const STATUS_LABEL: Record<ChangedFile["status"], string> = {
  added: "added",
  modified: "modified",
  deleted: "deleted",
  renamed: "renamed",
};
const KIND_LABEL: Record<ChangedFile["kind"], string | null> = {
  change: null,
  whitespace: "whitespace only",
  lineEnding: "line endings only",
};

export function fromSeqOf(range: ChangesRange, lastUserSeq: number | null): number {
  if (range.kind === "start") return 0;
  if (range.kind === "turn") return lastUserSeq ?? 0;
  return Math.max(0, range.seq);
}

export function ChangesView({
  sessionId,
  lastSeq,
  lastUserSeq,
  onClose,
}: {
  sessionId: string;
  lastSeq: number;
  lastUserSeq: number | null;
  onClose(): void;
}) {
  const [range, setRange] = useState<ChangesRange>({ kind: "start" });
  const [stepInput, setStepInput] = useState("");
  const [set, setSet] = useState<ChangeSet | null>(null);
  const [fromCheckpoints, setFromCheckpoints] = useState<CheckpointChanges | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const fromSeq = fromSeqOf(range, lastUserSeq);

  useEffect(() => {
    let live = true;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a new range clears the previous error before its async load
    setError(null);
    const toSeq = Math.max(1, lastSeq);
    Promise.all([
      client().call("review.changes", { sessionId, fromSeq, toSeq }),
      checkpointChanges(sessionId, fromSeq, toSeq).catch(() => null),
    ])
      .then(([details, checkpoints]) => {
        if (!live) return;
        setFromCheckpoints(checkpoints);
        // Checkpoints see everything (bash too); the details only write/edit.
        setSet(
          checkpoints
            ? { ...details, files: checkpoints.files, added: checkpoints.added, removed: checkpoints.removed, untracked: [] }
            : details,
        );
      })
      .catch((err: unknown) => live && setError(err instanceof Error ? err.message : String(err)));
    return () => {
      live = false;
    };
  }, [sessionId, fromSeq, lastSeq]);

  const open = async (file: ChangedFile) => {
    setSelected(file.path);
    const known = fromCheckpoints?.texts.get(file.path);
    if (known) {
      useUiStore.getState().openDiff({
        key: `changes:${fromSeq}:${file.path}`,
        path: file.path,
        before: known.before ?? "",
        after: known.after ?? "",
        origin: "result",
        seq: file.lastSeq,
      });
      return;
    }
    try {
      const d = await client().call("review.changeDiff", { sessionId, fromSeq, toSeq: Math.max(1, lastSeq), path: file.path });
      useUiStore.getState().openDiff({
        key: `changes:${fromSeq}:${file.path}`,
        path: file.path,
        before: d.before ?? "",
        after: d.after ?? "",
        origin: "result",
        seq: file.lastSeq,
      });
    } catch (err) {
      useAppStore.getState().reportError(`Could not open the diff of ${file.path}`, err);
    }
  };

  return (
    <section className="changes-view" aria-label="Changes">
      <header className="changes-head">
        <strong>Changes</strong>
        <div className="segmented" role="group" aria-label="Changes range">
          <button type="button" aria-pressed={range.kind === "start"} onClick={() => setRange({ kind: "start" })}>
            Since start
          </button>
          <button
            type="button"
            aria-pressed={range.kind === "turn"}
            onClick={() => setRange({ kind: "turn" })}
            disabled={lastUserSeq === null}
          >
            This turn
          </button>
        </div>
        <form
          className="changes-step"
          onSubmit={(e) => {
            e.preventDefault();
            const n = Number(stepInput);
            if (Number.isInteger(n) && n >= 0) setRange({ kind: "step", seq: n });
          }}
        >
          <label>
            Since step{" "}
            <input
              type="number"
              min={0}
              max={lastSeq}
              value={stepInput}
              onChange={(e) => setStepInput(e.target.value)}
              aria-label="Since step"
            />
          </label>
          <button type="submit" aria-pressed={range.kind === "step"}>
            Show
          </button>
        </form>
        {set && (
          <span className="diff-counts" aria-label={`${set.files.length} files, ${set.added} lines added, ${set.removed} lines removed`}>
            {set.files.length} file{set.files.length === 1 ? "" : "s"} · <span className="added">+{set.added}</span>{" "}
            <span className="removed">−{set.removed}</span>
          </span>
        )}
        <button type="button" className="icon" aria-label="Close changes" onClick={onClose}>
          ✕
        </button>
      </header>
      {error && (
        <p className="error-text pad" role="alert">
          Could not list the changes: {error}
        </p>
      )}
      {set && set.untracked.length > 0 && (
        <p className="muted pad small" role="note">
          {set.untracked.length} bash command{set.untracked.length === 1 ? "" : "s"} ran in this range; files they changed are not listed
          (no checkpoint of the workspace).
        </p>
      )}
      {set && set.files.length === 0 && <p className="muted pad">No file changed in this range.</p>}
      {set && set.files.length > 0 && (
        <p className="muted pad small" role="note">
          Open a file to see its diff; click a line number there to comment on that line for the agent.
        </p>
      )}
      {set && set.files.length > 0 && <ChangedFileList files={set.files} selected={selected} onOpen={(f) => void open(f)} />}
    </section>
  );
}

function ChangedFileList({ files, selected, onOpen }: { files: ChangedFile[]; selected: string | null; onOpen(file: ChangedFile): void }) {
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: files.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_PX,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const total = virtualizer.getTotalSize();
  const byIndex = useMemo(() => files, [files]);
  return (
    <div ref={parentRef} className="changes-list" role="list" aria-label="Changed files">
      <div style={{ height: total, position: "relative" }}>
        {items.map((v) => {
          const f = byIndex[v.index];
          const kind = KIND_LABEL[f.kind];
          return (
            <div
              key={f.path}
              role="listitem"
              className={`changes-row${selected === f.path ? " selected" : ""}`}
              style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW_PX, transform: `translateY(${v.start}px)` }}
            >
              <button
                type="button"
                className="changes-file"
                onClick={() => onOpen(f)}
                aria-label={`${revealInvisible(f.path)}, ${STATUS_LABEL[f.status]}, ${f.added} added, ${f.removed} removed`}
              >
                <span className={`badge change-${f.status}`}>{STATUS_LABEL[f.status]}</span>
                <span className="changes-path" title={revealInvisible(f.oldPath ? `${f.oldPath} → ${f.path}` : f.path)}>
                  {f.oldPath ? `${revealInvisible(f.oldPath)} → ` : ""}
                  {revealInvisible(f.path)}
                </span>
                {kind && <span className="badge">{kind}</span>}
                {!f.known && <span className="badge warn">content not kept</span>}
                <span className="diff-counts">
                  <span className="added">+{f.added}</span> <span className="removed">−{f.removed}</span>
                </span>
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}
