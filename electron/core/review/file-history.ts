/**
 * Workspace files as they stood at a replay step, rebuilt from the write/edit
 * results' `details` (see tools/file-change.ts `commitPlan`): each file's
 * content before the session touched it and as of the step. Pure.
 *
 * Past 512 KiB the tools omit the full texts and keep only the diff; the
 * content is then rebuilt by applying the diff to the previous known content,
 * or reported as unknown (also when the diff itself was too large to keep). bash runs are listed separately: they may change
 * files without a trace in the details.
 */
import { applyPatch } from "diff";
import { z } from "zod";
import type { StoredEntry } from "../../../shared/protocol";
import type { FileState, FileStates } from "../../../shared/review";

/** The success details of write and edit. */
const FileChangeDetailsSchema = z
  .object({
    path: z.string().min(1),
    created: z.boolean(),
    diff: z
      .object({ unifiedDiff: z.string(), added: z.number().int(), removed: z.number().int(), tooLarge: z.object({}).loose().optional() })
      .loose(),
    before: z.string().nullable().optional(),
    after: z.string().optional(),
    contentOmitted: z.boolean().optional(),
  })
  .loose();

const ErrorDetailsSchema = z.object({ errorCode: z.string().optional(), synthesized: z.boolean().optional() }).loose();

/** Ours, and Claude Code's as imported (importers/claude-code.ts gives their results the same details). */
export const FILE_CHANGE_TOOLS: readonly string[] = ["write", "edit", "Write", "Edit"];
export const COMMAND_TOOLS: readonly string[] = ["bash"];

export function fileStatesAt(entries: readonly StoredEntry[], seq: number): FileStates {
  const files = new Map<string, FileState>();
  const untracked: FileStates["untracked"] = [];
  const commands = new Map<string, string[]>();

  for (const { seq: s, entry } of entries) {
    if (s > seq) break;
    if (entry.type !== "message") continue;
    const m = entry.message;
    if (m.role === "assistant") {
      for (const b of m.content) {
        if (b.type !== "toolCall" || !COMMAND_TOOLS.includes(b.name)) continue;
        const command = typeof b.arguments.command === "string" ? b.arguments.command : (b.rawArguments ?? "");
        const list = commands.get(b.id) ?? [];
        list.push(command);
        commands.set(b.id, list);
      }
      continue;
    }
    if (m.role !== "toolResult") continue;

    if (COMMAND_TOOLS.includes(m.toolName)) {
      const command = commands.get(m.toolCallId)?.shift() ?? "";
      if (ranCommand(m.isError, m.details)) untracked.push({ seq: s, toolCallId: m.toolCallId, command });
      continue;
    }
    if (m.isError || !FILE_CHANGE_TOOLS.includes(m.toolName)) continue;
    const parsed = FileChangeDetailsSchema.safeParse(m.details);
    if (!parsed.success) continue;
    const d = parsed.data;
    const prev = files.get(d.path);
    const state: FileState = prev ?? {
      path: d.path,
      before: d.created ? null : (d.before ?? null),
      after: null,
      beforeKnown: d.created || typeof d.before === "string",
      afterKnown: false,
      created: d.created,
      lastDiff: "",
      changes: [],
    };
    const next = afterOf(state, d);
    state.after = next;
    state.afterKnown = next !== null;
    state.lastDiff = d.diff.unifiedDiff;
    state.changes.push({ seq: s, toolCallId: m.toolCallId, toolName: m.toolName, added: d.diff.added, removed: d.diff.removed });
    files.set(d.path, state);
  }
  return { seq, files: [...files.values()], untracked };
}

function afterOf(state: FileState, d: z.infer<typeof FileChangeDetailsSchema>): string | null {
  if (typeof d.after === "string") return d.after;
  const base =
    state.changes.length === 0 ? (d.created ? "" : state.beforeKnown ? state.before : null) : state.afterKnown ? state.after : null;
  // A diff too large to keep (tools/diff.ts) cannot be applied: the content is unknown.
  if (base === null || d.diff.tooLarge) return null;
  return applyUnified(base, d.diff.unifiedDiff);
}

/** Diffs are computed on LF text; files may use CRLF. */
function applyUnified(base: string, patch: string): string | null {
  const direct = applyPatch(base, patch);
  if (typeof direct === "string") return direct;
  if (base.includes("\r\n")) {
    const lf = applyPatch(base.replace(/\r\n/g, "\n"), patch);
    if (typeof lf === "string") return lf.replace(/\n/g, "\r\n");
  }
  return null;
}

/** A denied or never-started command changed nothing. */
function ranCommand(isError: boolean, details: unknown): boolean {
  if (!isError) return true;
  const d = ErrorDetailsSchema.safeParse(details);
  if (!d.success) return true;
  if (d.data.synthesized) return false;
  return d.data.errorCode !== "DENIED" && d.data.errorCode !== "TOOL_BUDGET_EXCEEDED" && d.data.errorCode !== "INVALID_ARGUMENTS";
}
