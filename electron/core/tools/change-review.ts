/**
 * A reviewed write/edit: the user accepted some hunks of the proposal and
 * rejected others, or edited the proposed text before approving. The plan is
 * narrowed to what the user accepted, and the model is told exactly what was
 * applied and what was not (the rejected hunks verbatim), so it does not
 * assume its whole change landed. Design notes: docs/change-review.md.
 */
import { applyHunks, formatHunk, type ChangeReview, type HunkDecision, type ProposalHunk } from "../../../shared/hunks";
import { fileDiff } from "./diff";
import { errors, toolError } from "./errors";
import type { FileChangePlan } from "./file-change";
import { computeHunks } from "./hunks";
import { encodeText, toEol } from "./text-file";
import type { Result, ToolError } from "./types";

/** What the review changed, kept on the plan for the result text and `details`. */
export type ReviewOutcome =
  | { kind: "hunks"; decisions: HunkDecision[]; rejected: { index: number; hunk: ProposalHunk }[] }
  | { kind: "edited"; fromProposal: string };

/** The model gets at most this much of rejected hunks / edit diffs; past it, a notice. */
const MAX_SHOWN_CHARS = 16_000;

const fail = <T>(error: ToolError): Result<T> => ({ ok: false, error });
const lf = (s: string) => s.replace(/\r\n/g, "\n");
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export function capShown(text: string): string {
  if (text.length <= MAX_SHOWN_CHARS) return text;
  return `${text.slice(0, MAX_SHOWN_CHARS)}\n… [cut at ${MAX_SHOWN_CHARS} characters; read the file to see its current content]`;
}

export function formatRejected(rejected: { index: number; hunk: ProposalHunk }[], total: number): string {
  return capShown(rejected.map((r) => `Hunk ${r.index + 1} of ${total}:\n${formatHunk(r.hunk)}`).join("\n\n"));
}

function narrowed(plan: FileChangePlan, after: string, review: ReviewOutcome): FileChangePlan {
  const before = plan.before;
  const bom = plan.afterBytes.subarray(0, 3).equals(BOM);
  return {
    ...plan,
    after,
    afterBytes: encodeText(after, bom),
    diff: fileDiff(plan.snapshot.resolved.rel, before === null ? null : lf(before), lf(after)),
    review,
  };
}

/**
 * Narrows `plan` to the user's review. All hunks rejected (or an edit back to
 * the original) answers DENIED: nothing is written.
 */
export function applyReview(plan: FileChangePlan, review: ChangeReview): Result<FileChangePlan> {
  const rel = plan.snapshot.resolved.rel;
  const before = plan.before ?? "";
  if (review.kind === "hunks") {
    const hunks = computeHunks(before, plan.after);
    if (review.decisions.length !== hunks.length) {
      return fail(
        toolError(
          "CONFLICT",
          `The review answered ${review.decisions.length} hunks but the change to ${rel} has ${hunks.length}; nothing was written.`,
          "Propose the change again.",
        ),
      );
    }
    const accepted = review.decisions.map((d) => d === "accepted");
    const rejected = hunks.map((hunk, index) => ({ index, hunk })).filter((x) => !accepted[x.index]);
    if (rejected.length === hunks.length) {
      return fail(
        toolError(
          "DENIED",
          `The user rejected all ${hunks.length} hunk${hunks.length === 1 ? "" : "s"} of your proposed change to ${rel}; nothing was written.\nRejected:\n${formatRejected(rejected, hunks.length)}`,
          "None of this change landed. Do not propose it again as is; ask the user what they want, or change the approach.",
        ),
      );
    }
    if (rejected.length === 0) return { ok: true, value: { ...plan, review: { kind: "hunks", decisions: review.decisions, rejected } } };
    const after = applyHunks(before, hunks, accepted);
    if (after === null) return fail(errors.conflict(rel));
    return { ok: true, value: narrowed(plan, after, { kind: "hunks", decisions: review.decisions, rejected }) };
  }
  // The editor may hand back "\n" for a CRLF file; keep the file's line endings.
  const crlf = plan.after.includes("\r\n") && !/(^|[^\r])\n/.test(plan.after);
  const after = crlf ? toEol(review.after, "\r\n") : review.after;
  if (after === before && plan.before !== null) {
    return fail(
      toolError(
        "DENIED",
        `The user edited your proposed change to ${rel} back to the file's current content; nothing was written.`,
        "None of this change landed. Ask the user what they want.",
      ),
    );
  }
  if (after === plan.after) return { ok: true, value: plan };
  const fromProposal = hunksText(computeHunks(plan.after, after));
  return { ok: true, value: narrowed(plan, after, { kind: "edited", fromProposal }) };
}

function hunksText(hunks: ProposalHunk[]): string {
  return capShown(hunks.map(formatHunk).join("\n"));
}

/** The paragraph appended to the result text for the model. */
export function reviewText(rel: string, review: ReviewOutcome): string {
  if (review.kind === "edited") {
    return `The user edited your proposed change to ${rel} before approving it, so the file differs from your proposal. Your proposal → what was written:\n${review.fromProposal}\nRead the file before editing this region again.`;
  }
  const total = review.decisions.length;
  if (review.rejected.length === 0) return `The user reviewed and accepted all ${total} hunk${total === 1 ? "" : "s"}.`;
  const appliedIdx = review.decisions.flatMap((d, i) => (d === "accepted" ? [i + 1] : []));
  const rejectedIdx = review.rejected.map((r) => r.index + 1);
  return [
    `Applied ${appliedIdx.length} of ${total} hunks (${listOf("hunk", appliedIdx)}). The user REJECTED ${listOf("hunk", rejectedIdx)}: NOT applied, the file does not contain ${rejectedIdx.length === 1 ? "it" : "them"}.`,
    `Rejected:\n${formatRejected(review.rejected, total)}`,
    "Do not assume the rejected part landed; read the file before editing this region again.",
  ].join("\n");
}

function listOf(noun: string, n: number[]): string {
  if (n.length === 1) return `${noun} ${n[0]}`;
  return `${noun}s ${n.slice(0, -1).join(", ")} and ${n[n.length - 1]}`;
}
