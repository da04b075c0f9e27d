/**
 * The hunks of a proposed write/edit with Accept / Reject per hunk. With the
 * focus in the list: J / ↓ next hunk, K / ↑ previous, A accept, R reject,
 * Space toggle. From anywhere outside a text field: Alt+↓ / Alt+↑ move,
 * Alt+A / Alt+R decide (so the approval card's own keys stay free).
 */
import { memo, useEffect, useRef } from "react";
import type { HunkDecision, ProposalHunk } from "../../../../shared/hunks";
import { revealInvisible } from "../../../../shared/invisible-chars";
import { isTextField } from "../../lib/keyboard";
import { useHunkReviewStore } from "../../stores/hunk-review-store";

const MAX_LINES_SHOWN = 12;

function hunkRows(h: ProposalHunk): { kind: "add" | "del"; text: string }[] {
  const rows: { kind: "add" | "del"; text: string }[] = [];
  const push = (kind: "add" | "del", text: string) => {
    if (!text) return;
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (const l of lines) rows.push({ kind, text: l.replace(/\r$/, "") });
  };
  push("del", h.oldText);
  push("add", h.newText);
  return rows;
}

const KIND_LABEL: Record<ProposalHunk["kind"], string | null> = {
  change: null,
  whitespace: "whitespace only",
  lineEnding: "line endings only",
};

const HunkRow = memo(function HunkRow({
  hunk,
  index,
  total,
  decision,
  current,
  onDecide,
}: {
  hunk: ProposalHunk;
  index: number;
  total: number;
  decision: HunkDecision;
  current: boolean;
  onDecide: (index: number, d: HunkDecision) => void;
}) {
  const rows = hunkRows(hunk);
  const shown = rows.slice(0, MAX_LINES_SHOWN);
  const kind = KIND_LABEL[hunk.kind];
  return (
    <li
      className={`hunk-item ${decision}${current ? " current" : ""}`}
      role="option"
      aria-selected={current}
      aria-label={`Hunk ${index + 1} of ${total}, ${decision}`}
      data-hunk={index + 1}
    >
      <div className="hunk-item-head">
        <span className="hunk-header">
          Hunk {index + 1}/{total} · @@ -{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@
        </span>
        {kind && <span className="badge">{kind}</span>}
        <span className="hunk-buttons">
          <button
            type="button"
            aria-pressed={decision === "accepted"}
            onClick={() => onDecide(index, "accepted")}
            title="Accept this hunk (A)"
          >
            Accept
          </button>
          <button
            type="button"
            className="danger"
            aria-pressed={decision === "rejected"}
            onClick={() => onDecide(index, "rejected")}
            title="Reject this hunk (R)"
          >
            Reject
          </button>
        </span>
      </div>
      <pre className="diff-hunks">
        {shown.map((l, j) => (
          <span key={j} className={`diff-line ${l.kind}`}>
            {l.kind === "add" ? "+" : "-"}
            {revealInvisible(l.text)}
          </span>
        ))}
        {rows.length > shown.length && <span className="diff-more">… {rows.length - shown.length} more lines</span>}
      </pre>
    </li>
  );
});

export function HunkList({ reviewKey, hunks, disabled }: { reviewKey: string; hunks: ProposalHunk[]; disabled?: boolean }) {
  const review = useHunkReviewStore((s) => s.reviews[reviewKey]);
  const start = useHunkReviewStore((s) => s.start);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => start(reviewKey, hunks.length), [reviewKey, hunks.length, start]);

  const current = review?.current ?? 0;
  useEffect(() => {
    listRef.current?.querySelector(`[data-hunk="${current + 1}"]`)?.scrollIntoView?.({ block: "nearest" });
  }, [current]);

  // Alt+arrows / Alt+A / Alt+R from anywhere but a text field.
  useEffect(() => {
    if (disabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || isTextField(e.target)) return;
      if (handleHunkKey(reviewKey, e.code === "KeyA" ? "a" : e.code === "KeyR" ? "r" : e.key)) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [reviewKey, disabled]);

  if (!review) return null;
  const accepted = review.decisions.filter((d) => d === "accepted").length;
  const onDecide = (index: number, d: HunkDecision) => useHunkReviewStore.getState().decide(reviewKey, index, d);
  return (
    <div className="hunk-review">
      <p className="muted hunk-review-summary" aria-live="polite">
        {accepted} of {hunks.length} hunks accepted · <kbd>J</kbd>/<kbd>K</kbd> move, <kbd>A</kbd> accept, <kbd>R</kbd> reject (or Alt+↓ ↑ A
        R)
      </p>
      <ol
        ref={listRef}
        className="hunk-list"
        role="listbox"
        aria-label="Hunks"
        tabIndex={0}
        aria-activedescendant={undefined}
        onKeyDown={(e) => {
          if (disabled || e.ctrlKey || e.metaKey || e.altKey) return;
          if (handleHunkKey(reviewKey, e.key)) {
            e.preventDefault();
            e.stopPropagation();
          }
        }}
      >
        {hunks.map((h, i) => (
          <HunkRow
            key={i}
            hunk={h}
            index={i}
            total={hunks.length}
            decision={review.decisions[i] ?? "accepted"}
            current={i === review.current}
            onDecide={onDecide}
          />
        ))}
      </ol>
    </div>
  );
}

/** One key of the hunk keyboard; true when it was one. */
export function handleHunkKey(key: string, pressed: string): boolean {
  const s = useHunkReviewStore.getState();
  const k = pressed.length === 1 ? pressed.toLowerCase() : pressed;
  if (k === "j" || k === "ArrowDown") s.move(key, 1);
  else if (k === "k" || k === "ArrowUp") s.move(key, -1);
  else if (k === "a") s.decideCurrent(key, "accepted");
  else if (k === "r") s.decideCurrent(key, "rejected");
  else if (k === " ") {
    const r = s.reviews[key];
    if (!r) return false;
    s.decide(key, r.current, r.decisions[r.current] === "accepted" ? "rejected" : "accepted");
  } else return false;
  return true;
}
