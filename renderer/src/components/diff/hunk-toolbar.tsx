/**
 * The diff panel's bar for a proposal under review: which hunk is current,
 * previous / next, accept / reject it, and "Edit proposal" (the modified side
 * becomes editable; Approve then writes the user's text).
 */
import type { ProposalHunk } from "../../../../shared/hunks";
import type { HunkReview } from "../../stores/hunk-review-store";
import { useHunkReviewStore } from "../../stores/hunk-review-store";

export function HunkToolbar({
  reviewKey,
  hunks,
  review,
  onEdit,
  onStopEditing,
}: {
  reviewKey: string;
  hunks: ProposalHunk[];
  review: HunkReview;
  onEdit(): void;
  onStopEditing(): void;
}) {
  const s = useHunkReviewStore.getState;
  const editing = review.edited !== null;
  const decision = review.decisions[review.current];
  return (
    <div className="hunk-toolbar" role="toolbar" aria-label="Review hunks">
      {editing ? (
        <>
          <span className="badge warn">editing the proposal</span>
          <button type="button" onClick={onStopEditing}>
            Discard my edit
          </button>
        </>
      ) : (
        <>
          {hunks.length > 1 && (
            <>
              <button
                type="button"
                className="icon"
                aria-label="Previous hunk"
                title="Previous hunk (K)"
                onClick={() => s().move(reviewKey, -1)}
              >
                ↑
              </button>
              <span className="muted" aria-live="polite">
                Hunk {review.current + 1} of {hunks.length} · {decision}
              </span>
              <button type="button" className="icon" aria-label="Next hunk" title="Next hunk (J)" onClick={() => s().move(reviewKey, 1)}>
                ↓
              </button>
              <button
                type="button"
                aria-pressed={decision === "accepted"}
                onClick={() => s().decide(reviewKey, review.current, "accepted")}
              >
                Accept hunk
              </button>
              <button
                type="button"
                className="danger"
                aria-pressed={decision === "rejected"}
                onClick={() => s().decide(reviewKey, review.current, "rejected")}
              >
                Reject hunk
              </button>
            </>
          )}
          <button type="button" onClick={onEdit} title="Edit the proposed text before approving">
            Edit proposal
          </button>
        </>
      )}
    </div>
  );
}
