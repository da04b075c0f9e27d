/**
 * Hunks of a proposed write/edit, as the core computed them (with the `diff`
 * package, electron/core/tools/hunks.ts) and as the UI shows them for
 * per-hunk accept/reject. Applying a selection is pure string splicing on the
 * exact texts, so the result is byte-exact (line endings, no final newline).
 * Design notes: docs/change-review.md.
 */
import { z } from "zod";

export const HunkKindSchema = z.enum([
  "change",
  /** Only spaces/tabs differ. */
  "whitespace",
  /** Only line endings differ (CRLF ↔ LF, or the final newline). */
  "lineEnding",
]);
export type HunkKind = z.infer<typeof HunkKindSchema>;

export const ProposalHunkSchema = z.object({
  /** 1-based line numbers and counts, as in a unified diff header. */
  oldStart: z.number().int().nonnegative(),
  oldLines: z.number().int().nonnegative(),
  newStart: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
  /** Character offset of `oldText` in the text before (BOM excluded). */
  oldOffset: z.number().int().nonnegative(),
  /** The exact text replaced (line endings included) and its replacement. */
  oldText: z.string(),
  newText: z.string(),
  kind: HunkKindSchema,
});
export type ProposalHunk = z.infer<typeof ProposalHunkSchema>;

export const HunkDecisionSchema = z.enum(["accepted", "rejected"]);
export type HunkDecision = z.infer<typeof HunkDecisionSchema>;

/**
 * `before` with the accepted hunks applied. `accepted[i]` answers hunk i.
 * Contract: hunks are in order and do not overlap; returns null when a hunk
 * does not sit where it says (the texts do not belong together).
 */
export function applyHunks(before: string, hunks: readonly ProposalHunk[], accepted: readonly boolean[]): string | null {
  let out = "";
  let cursor = 0;
  for (let i = 0; i < hunks.length; i++) {
    const h = hunks[i];
    if (h.oldOffset < cursor || before.slice(h.oldOffset, h.oldOffset + h.oldText.length) !== h.oldText) return null;
    out += before.slice(cursor, h.oldOffset) + (accepted[i] ? h.newText : h.oldText);
    cursor = h.oldOffset + h.oldText.length;
  }
  return out + before.slice(cursor);
}

const splitLines = (text: string): string[] => {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
};

/** A hunk as unified-diff text ("@@ -a,b +c,d @@" then -/+ lines), for the model and the UI. */
export function formatHunk(h: ProposalHunk): string {
  const show = (mark: string, text: string) =>
    splitLines(text)
      .map((l) => `${mark}${l.replace(/\r$/, "")}`)
      .join("\n");
  const parts = [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`];
  if (h.oldText) parts.push(show("-", h.oldText));
  if (h.newText) parts.push(show("+", h.newText));
  if (h.kind === "lineEnding") parts.push("(line endings only)");
  else if (h.kind === "whitespace") parts.push("(whitespace only)");
  return parts.join("\n");
}

/** Lines added and removed by one hunk. */
export function hunkCounts(h: ProposalHunk): { added: number; removed: number } {
  return { added: h.newLines, removed: h.oldLines };
}

/**
 * The reviewer's answer to a proposed write/edit beyond approve/deny: a
 * decision per hunk (in the preview's order), or their own text for the file.
 */
export const ChangeReviewSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("hunks"), decisions: z.array(HunkDecisionSchema).max(100_000) }).strict(),
  z.object({ kind: z.literal("edited"), after: z.string().max(16 * 1024 * 1024) }).strict(),
]);
export type ChangeReview = z.infer<typeof ChangeReviewSchema>;
