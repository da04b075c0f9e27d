/**
 * Applies several edits to one original text: each located independently,
 * none overlapping, all or nothing. Error texts tell the model what to do.
 */
import { locate, type MatcherName, type Range } from "./edit-match";
import { errors } from "./errors";
import { READ_MAX_LINE_CHARS } from "./limits";
import { cutLine } from "./truncate";
import type { EditOp } from "./schemas";
import { hasLoneSurrogate, type Eol } from "./text-file";
import type { Result, ToolError } from "./types";

export interface EditPlan {
  after: string;
  /** Which matcher found each edit, for the UI and the audit. */
  matchers: MatcherName[];
  /** Replacements made (more than edits.length with replaceAll). */
  replacements: number;
}

const label = (i: number, count: number) => (count === 1 ? "oldText" : `edits[${i}].oldText`);
const editLabel = (i: number, count: number) => (count === 1 ? null : `edits[${i}]`);

export function planEdits(rel: string, content: string, eol: Eol, edits: readonly EditOp[]): Result<EditPlan> {
  const placed: { range: Range; replacement: string; index: number }[] = [];
  const matchers: MatcherName[] = [];
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i];
    // Half a surrogate pair would match inside an emoji and leave the other half as U+FFFD.
    if (hasLoneSurrogate(edit.oldText)) return fail(errors.loneSurrogate(label(i, edits.length)));
    if (hasLoneSurrogate(edit.newText)) return fail(errors.loneSurrogate(label(i, edits.length).replace("oldText", "newText")));
    if (edit.oldText === edit.newText) return fail(errors.noChange(editLabel(i, edits.length)));
    const found = locate(content, eol, edit.oldText, edit.newText, edit.replaceAll ?? false);
    if (found.kind === "ambiguous") return fail(errors.editAmbiguous(rel, label(i, edits.length), found.lines));
    // Copied from a read that shortened a long line: re-reading shows the same cut, so say what to do instead.
    if (found.kind === "notFound" && edit.oldText.includes(CUT_MARKER))
      return fail(errors.editCutLine(rel, label(i, edits.length), CUT_MARKER));
    if (found.kind === "notFound") return fail(errors.editNotFound(rel, label(i, edits.length), found.nearest));
    matchers.push(found.matcher);
    for (const range of found.ranges) placed.push({ range, replacement: found.replacement, index: i });
  }
  placed.sort((a, b) => a.range.start - b.range.start);
  for (let k = 1; k < placed.length; k++) {
    const prev = placed[k - 1];
    const cur = placed[k];
    if (cur.range.start < prev.range.end) {
      const [a, b] = [prev.index, cur.index].sort((x, y) => x - y);
      return fail(errors.editOverlap(rel, a, b));
    }
  }
  let after = "";
  let cursor = 0;
  for (const p of placed) {
    after += content.slice(cursor, p.range.start) + p.replacement;
    cursor = p.range.end;
  }
  after += content.slice(cursor);
  if (after === content) return fail(errors.editsChangeNothing(rel));
  return { ok: true, value: { after, matchers, replacements: placed.length } };
}

/** The marker read appends to a line it cut ("… [line cut at 2000 characters]"). */
const CUT_MARKER = cutLine("x".repeat(READ_MAX_LINE_CHARS + 1), READ_MAX_LINE_CHARS)
  .slice(READ_MAX_LINE_CHARS)
  .replace(/^…\s*/, "");

const fail = <T>(error: ToolError): Result<T> => ({ ok: false, error });
