/**
 * The approval card for a side-effect call (write, edit, bash): the preview,
 * Approve / Approve for this session / Deny with an optional reason.
 * Shortcuts (when not typing): Y approve, S approve for the session, N deny.
 * A write/edit with several hunks is reviewed hunk by hunk (review/hunk-list.tsx):
 * only the accepted hunks are applied, or the user's edit of the proposal.
 */
import { useEffect, useRef, useState } from "react";
import type { PendingApproval } from "../../../shared/api";
import { isTextField } from "../lib/keyboard";
import { isNarrowLayout } from "../lib/layout";
import { toolSummary } from "../lib/tool-summary";
import { reviewToSend, useHunkReviewStore } from "../stores/hunk-review-store";
import { useTurnStore } from "../stores/turn-store";
import { useUiStore } from "../stores/ui-store";
import { HunkList } from "./review/hunk-list";
import { DiffSummaryView, type DiffSource } from "./transcript/diff-summary";

export function ApprovalCard({ approval }: { approval: PendingApproval }) {
  const answer = useTurnStore((s) => s.answer);
  const answering = useTurnStore((s) => s.answering[approval.sessionId] === approval.toolCallId);
  const openDiff = useUiStore((s) => s.openDiff);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState("");
  const approveRef = useRef<HTMLButtonElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const { preview } = approval;
  const hunks = preview.kind === "diff" ? (preview.hunks ?? []) : [];
  const perHunk = hunks.length > 1;
  const review = useHunkReviewStore((s) => s.reviews[approval.toolCallId]);
  const acceptedCount = review ? review.decisions.filter((d) => d === "accepted").length : hunks.length;

  const decide = (decision: "approve" | "approveForSession" | "deny") => {
    const sent = decision === "deny" ? undefined : reviewToSend(useHunkReviewStore.getState().reviews[approval.toolCallId]);
    void answer(approval.sessionId, approval.toolCallId, decision, decision === "deny" ? reason.trim() || undefined : undefined, sent);
  };

  // Hunks (and an edit of the proposal) start fresh for each proposal.
  useEffect(() => {
    const key = approval.toolCallId;
    if (preview.kind === "diff") useHunkReviewStore.getState().start(key, preview.hunks?.length ?? 0);
    return () => useHunkReviewStore.getState().clear(key);
  }, [approval.toolCallId, preview]);

  // Show the proposed change in the diff panel as soon as it is proposed (where the panel sits beside the transcript).
  useEffect(() => {
    if (preview.kind === "diff" && !isNarrowLayout()) {
      openDiff({
        key: `approval:${approval.toolCallId}`,
        path: preview.path,
        before: preview.before ?? "",
        after: preview.after,
        origin: "proposal",
        review: { toolCallId: approval.toolCallId, hunks: preview.hunks ?? [] },
      });
    }
    // Take the focus unless the user is in the middle of typing something.
    const el = document.activeElement;
    const typing = isTextField(el) && !((el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) && el.value === "");
    if (!typing) approveRef.current?.focus({ preventScroll: true });
  }, [approval.toolCallId, preview, openDiff]);

  useEffect(() => {
    if (denying) reasonRef.current?.focus();
  }, [denying]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTextField(e.target) || answering) return;
      const k = e.key.toLowerCase();
      if (k === "y") decide("approve");
      else if (k === "s") decide("approveForSession");
      else if (k === "n") setDenying(true);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const diffSource: DiffSource | null =
    preview.kind === "diff"
      ? { key: `approval:${approval.toolCallId}`, path: preview.path, unifiedDiff: preview.unifiedDiff, before: preview.before, after: preview.after, origin: "proposal" }
      : null;

  return (
    <section className="approval-card" role="region" aria-label="Approval required" aria-busy={answering}>
      <header>
        <span className="waiting-dot" aria-hidden />
        <strong>The agent is waiting for your approval</strong>
        <span className="muted">
          {approval.toolName} · {toolSummary(approval.toolName, approval.args)}
        </span>
      </header>
      {preview.kind === "diff" && diffSource && (
        <>
          <p className="muted">
            {preview.before === null ? "Create" : "Change"} <code>{preview.path}</code>
          </p>
          {perHunk ? (
            <>
              <div className="diff-summary-head">
                <span className="diff-counts" aria-label={`${preview.added} lines added, ${preview.removed} lines removed`}>
                  <span className="added">+{preview.added}</span> <span className="removed">−{preview.removed}</span>
                </span>
                <button
                  type="button"
                  className="link-button"
                  onClick={() =>
                    openDiff({ key: diffSource.key, path: preview.path, before: preview.before ?? "", after: preview.after, origin: "proposal", review: { toolCallId: approval.toolCallId, hunks } })
                  }
                >
                  Open in diff view
                </button>
              </div>
              <HunkList reviewKey={approval.toolCallId} hunks={hunks} disabled={answering || review?.edited != null} />
            </>
          ) : (
            <DiffSummaryView source={diffSource} maxRows={40} onOpen={(sel) => openDiff({ ...sel, review: { toolCallId: approval.toolCallId, hunks } })} />
          )}
          {review?.edited != null && (
            <p className="notice" role="status">
              You are editing the proposal in the diff view: Approve writes your text.{" "}
              <button type="button" className="link-button" onClick={() => useHunkReviewStore.getState().setEdited(approval.toolCallId, null)}>
                Discard my edit
              </button>
            </p>
          )}
        </>
      )}
      {preview.kind === "command" && (
        <div className="command-preview">
          <pre aria-label="Command">$ {preview.command}</pre>
          <p className="muted">
            in <code>{preview.cwd}</code> · timeout {Math.round(preview.timeoutMs / 1000)} s
          </p>
        </div>
      )}
      {denying && (
        <label className="deny-reason">
          Reason for the model (optional)
          <textarea
            ref={reasonRef}
            value={reason}
            rows={2}
            onChange={(e) => setReason(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey) {
                e.preventDefault();
                decide("deny");
              }
              if (e.key === "Escape") setDenying(false);
            }}
          />
        </label>
      )}
      <div className="approval-actions">
        <button ref={approveRef} type="button" className="primary" disabled={answering} onClick={() => decide("approve")} aria-keyshortcuts="Y">
          {review?.edited != null ? "Approve my edit" : perHunk && acceptedCount < hunks.length ? `Approve ${acceptedCount} of ${hunks.length} hunks` : "Approve"} <kbd>Y</kbd>
        </button>
        <button type="button" disabled={answering} onClick={() => decide("approveForSession")} aria-keyshortcuts="S">
          Approve for this session <kbd>S</kbd>
        </button>
        {denying ? (
          <button type="button" className="danger" disabled={answering} onClick={() => decide("deny")}>
            Deny
          </button>
        ) : (
          <button type="button" className="danger" disabled={answering} onClick={() => setDenying(true)} aria-keyshortcuts="N">
            Deny… <kbd>N</kbd>
          </button>
        )}
      </div>
    </section>
  );
}
