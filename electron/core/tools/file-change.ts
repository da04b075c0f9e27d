/**
 * write and edit as plans: computed from a snapshot of the file (read, never
 * written), shown as a diff for approval, and committed only if the file is
 * still byte-for-byte the snapshot the proposal was made from.
 */
import { createHash } from "node:crypto";
import { reviewText, type ReviewOutcome } from "./change-review";
import type { ToolContext } from "./context";
import { boundedDiff, fileDiff, type FileDiff } from "./diff";
import { planEdits } from "./edit-apply";
import { computeHunks } from "./hunks";
import type { MatcherName } from "./edit-match";
import { errors, failure } from "./errors";
import { EDIT_MAX_FILE_BYTES } from "./limits";
import type { ResolvedPath } from "./sandbox";
import type { EditArgs, WriteArgs } from "./schemas";
import { decodeText, encodeText, hasLoneSurrogate, looksBinary, toEol } from "./text-file";
import type { ProposalPreview, Result, ToolError, ToolOutcome } from "./types";

export const ABSENT = "absent";

export interface Snapshot {
  resolved: ResolvedPath;
  /** null: the file does not exist yet. */
  bytes: Buffer | null;
  mode?: number;
  fingerprint: string;
}

export interface FileChangePlan {
  snapshot: Snapshot;
  before: string | null;
  after: string;
  afterBytes: Buffer;
  diff: FileDiff;
  matchers?: MatcherName[];
  replacements?: number;
  /** Set when the user accepted only some hunks or edited the proposal (change-review.ts). */
  review?: ReviewOutcome;
}

/** Past this size the UI gets the diff only, not the full before/after texts. */
const DETAILS_MAX_TEXT = 512 * 1024;

export function fingerprintOf(bytes: Buffer | null): string {
  return bytes === null ? ABSENT : `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

const fail = <T>(error: ToolError): Result<T> => ({ ok: false, error });

export async function takeSnapshot(ctx: Pick<ToolContext, "sandbox">, path: string, mustExist: boolean): Promise<Result<Snapshot>> {
  const resolved = await ctx.sandbox.resolve(path);
  if (!resolved.ok) return resolved;
  const r = resolved.value;
  if (r.kind === "directory") return fail(errors.isDirectory(r.rel));
  if (r.kind === "missing") {
    if (mustExist) return fail(errors.notFound(path));
    return { ok: true, value: { resolved: r, bytes: null, fingerprint: ABSENT } };
  }
  const size = r.stats?.size ?? 0;
  if (size > EDIT_MAX_FILE_BYTES) {
    return fail(
      errors.tooLarge(r.rel, size, EDIT_MAX_FILE_BYTES, "Change files this large with bash (e.g. a script), not with write or edit."),
    );
  }
  const buf = await ctx.sandbox.readFile(r);
  if (!buf.ok) return buf;
  if (looksBinary(buf.value)) return fail(errors.binaryFile(r.rel));
  return {
    ok: true,
    value: { resolved: r, bytes: buf.value, mode: (r.stats?.mode ?? 0o644) & 0o7777, fingerprint: fingerprintOf(buf.value) },
  };
}

const lf = (s: string) => s.replace(/\r\n/g, "\n");

function finishPlan(
  snapshot: Snapshot,
  before: string | null,
  after: string,
  afterBytes: Buffer,
  extra: Partial<FileChangePlan> = {},
): FileChangePlan {
  return {
    snapshot,
    before,
    after,
    afterBytes,
    diff: fileDiff(snapshot.resolved.rel, before === null ? null : lf(before), lf(after)),
    ...extra,
  };
}

export function planWrite(args: WriteArgs, snapshot: Snapshot): Result<FileChangePlan> {
  if (hasLoneSurrogate(args.content)) return fail(errors.loneSurrogate("content"));
  let content = args.content.startsWith("\uFEFF") ? args.content.slice(1) : args.content;
  if (snapshot.bytes === null) {
    return { ok: true, value: finishPlan(snapshot, null, content, encodeText(content, args.content.startsWith("\uFEFF"))) };
  }
  const old = decodeText(snapshot.bytes);
  // Keep the file's conventions: its line endings and its BOM.
  content = toEol(lf(content), old.eol);
  const afterBytes = encodeText(content, old.bom);
  if (afterBytes.equals(snapshot.bytes)) {
    return fail(errors.writeNoChange(snapshot.resolved.rel));
  }
  return { ok: true, value: finishPlan(snapshot, old.text, content, afterBytes) };
}

export function planEdit(args: EditArgs, snapshot: Snapshot): Result<FileChangePlan> {
  if (snapshot.bytes === null) return fail(errors.notFound(snapshot.resolved.rel));
  const old = decodeText(snapshot.bytes);
  // Re-encoding would turn every undecodable byte into U+FFFD, far from the edited region too.
  if (!old.utf8) return fail(errors.notUtf8(snapshot.resolved.rel));
  const plan = planEdits(snapshot.resolved.rel, old.text, old.eol, args.edits);
  if (!plan.ok) return plan;
  const afterBytes = encodeText(plan.value.after, old.bom);
  return {
    ok: true,
    value: finishPlan(snapshot, old.text, plan.value.after, afterBytes, {
      matchers: plan.value.matchers,
      replacements: plan.value.replacements,
    }),
  };
}

/**
 * The approval preview, bounded: texts past DETAILS_MAX_TEXT are left out
 * (`textsOmitted`; the diff and hunks still show the change), and a diff past
 * DIFF_MAX_CHARS goes in its "too large to show" form, without hunks (the
 * change is approved or denied whole).
 */
export function previewOf(plan: FileChangePlan): ProposalPreview {
  const diff = boundedDiff(plan.diff);
  const textsFit = plan.after.length <= DETAILS_MAX_TEXT && (plan.before?.length ?? 0) <= DETAILS_MAX_TEXT;
  return {
    kind: "diff",
    path: plan.snapshot.resolved.rel,
    // null still means "a new file" when the texts are left out.
    before: textsFit || plan.before === null ? plan.before : "",
    after: textsFit ? plan.after : "",
    unifiedDiff: diff.unifiedDiff,
    added: diff.added,
    removed: diff.removed,
    ...(diff.tooLarge ? { tooLarge: diff.tooLarge } : { hunks: computeHunks(plan.before ?? "", plan.after) }),
    ...(textsFit ? {} : { textsOmitted: true }),
  };
}

/**
 * Writes a plan if the file still matches `expected` (the proposal's
 * fingerprint), re-checked again right before the rename.
 */
export async function commitPlan(
  tool: "write" | "edit",
  plan: FileChangePlan,
  ctx: Pick<ToolContext, "sandbox">,
  expected: string,
): Promise<ToolOutcome> {
  const rel = plan.snapshot.resolved.rel;
  if (plan.snapshot.fingerprint !== expected) return failure(errors.conflict(rel), { path: rel });
  const precondition = async (): Promise<ToolError | null> => {
    const now = await takeSnapshot(ctx, rel, false);
    if (!now.ok) return now.error;
    return now.value.fingerprint === expected ? null : errors.conflict(rel);
  };
  const written = await ctx.sandbox.writeAtomic(plan.snapshot.resolved, plan.afterBytes, { mode: plan.snapshot.mode, precondition });
  if (!written.ok) return failure(written.error, { path: rel });
  const { added, removed } = plan.diff;
  const created = plan.snapshot.bytes === null;
  const lines = plan.after === "" ? 0 : lf(plan.after).replace(/\n$/, "").split("\n").length;
  let text: string;
  if (tool === "write") text = created ? `Created ${rel} (${lines} lines).` : `Wrote ${rel} (${lines} lines, +${added} -${removed}).`;
  else {
    const n = plan.replacements ?? 1;
    // Narrowed by the review: the proposal's replacement count no longer says what landed.
    const narrowedByReview = plan.review && (plan.review.kind === "edited" || plan.review.rejected.length > 0);
    text = narrowedByReview
      ? `Edited ${rel} (+${added} -${removed} lines).`
      : `Edited ${rel}: ${n} replacement${n === 1 ? "" : "s"} (+${added} -${removed} lines).`;
    const loose = (plan.matchers ?? []).map((m, i) => ({ m, i })).filter((x) => x.m !== "exact");
    if (loose.length > 0) {
      text += `\nNote: ${loose.map((x) => `edits[${x.i}] matched with ${x.m}`).join(", ")} (the text differed from the file); read the file before editing this region again.`;
    }
  }
  if (plan.review) text += `\n${reviewText(rel, plan.review)}`;
  const small = plan.after.length <= DETAILS_MAX_TEXT && (plan.before?.length ?? 0) <= DETAILS_MAX_TEXT;
  return {
    ok: true,
    content: [{ type: "text", text }],
    details: {
      path: rel,
      created,
      bytes: written.value.bytes,
      diff: boundedDiff(plan.diff),
      ...(small ? { before: plan.before, after: plan.after } : { contentOmitted: true }),
      ...(plan.matchers ? { matchers: plan.matchers } : {}),
      ...(plan.review ? { review: reviewDetails(plan.review) } : {}),
    },
  };
}

function reviewDetails(review: ReviewOutcome): Record<string, unknown> {
  return review.kind === "hunks" ? { kind: "hunks", decisions: review.decisions } : { kind: "edited" };
}
