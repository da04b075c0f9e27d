/**
 * The files and images that reached a request without a tool call, for "what
 * the model saw" (docs/prompt-files.md): the system prompt's instruction files
 * (with those left out and why), and for each user message still in the
 * request, its templates and @-mentions (recorded when it was stored) and its
 * images. Pure given its inputs.
 */
import type { InstructionFile, SkippedPromptFile } from "../../../shared/api";
import type { StoredEntry } from "../../../shared/protocol";
import type { PromptSource } from "../../../shared/review";
import { latestCompaction } from "../agent/context";

export interface PromptSourcesInput {
  instructions: { files: readonly InstructionFile[]; skipped: readonly SkippedPromptFile[] };
  /** Sources recorded when the session's user messages were stored (seq set). */
  recorded: readonly PromptSource[];
}

export function promptSourcesBefore(before: readonly StoredEntry[], input: PromptSourcesInput): PromptSource[] {
  const out: PromptSource[] = [
    ...input.instructions.files.map((f): PromptSource => ({
      kind: "instructions",
      path: f.path,
      seq: null,
      bytes: f.bytes,
      truncated: f.truncated,
      detail: f.scope,
    })),
    ...input.instructions.skipped.map((s): PromptSource => ({
      kind: "instructions",
      path: s.path,
      seq: null,
      bytes: 0,
      truncated: false,
      skipped: s.reason,
    })),
  ];
  // Only the messages the request carried: from the latest compaction on.
  const first = latestCompaction(before)?.firstKeptSeq ?? 0;
  for (const { seq, entry } of before) {
    if (seq < first || entry.type !== "message" || entry.message.role !== "user") continue;
    out.push(...input.recorded.filter((r) => r.seq === seq));
    for (const block of entry.message.content) {
      if (block.type !== "image") continue;
      out.push({ kind: "image", path: null, seq, bytes: base64Bytes(block.data), truncated: false, detail: block.mimeType });
    }
  }
  return out;
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
