/**
 * @-mentioned files become text blocks of the user message, read through the
 * prompt-file reader (prompt-files/reader.ts: the read tool's checks): the
 * whole file, or a line range (`@src/a.ts:10-40`), capped with a visible note.
 *
 * The block starts with an `<attached-file …>` tag, which the transcript shows
 * as a chip (shared/mentions.ts parses it) and the model reads as the file.
 */
import type { Mention } from "../../../shared/api";
import { attachedFileBlock } from "../../../shared/mentions";
import { PromptFileReader } from "../prompt-files/reader";
import { KB } from "../tools/limits";
import { decodeText, looksBinary } from "../tools/text-file";

export const MENTION_MAX_BYTES = 100 * 1024;
const MENTION_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Where an attached block came from, for "what the model saw". */
export interface MentionSource {
  path: string;
  /** The file's size on disk. */
  bytes: number;
  /** True when the block holds less than the range asked for (cut at MENTION_MAX_BYTES). */
  truncated: boolean;
  lines?: string;
}

export interface AttachedMention {
  block: { type: "text"; text: string };
  source: MentionSource;
}

export type AttachResult = { ok: true; attached: AttachedMention[] } | { ok: false; message: string };

export async function attachMentions(workspaceRoot: string, mentions: readonly Mention[]): Promise<AttachResult> {
  if (mentions.length === 0) return { ok: true, attached: [] };
  const reader = await PromptFileReader.open(workspaceRoot, "workspace");
  if (!reader) return { ok: false, message: `the workspace folder ${workspaceRoot} cannot be opened` };
  const attached: AttachedMention[] = [];
  for (const m of mentions) {
    const read = await reader.read(m.path, { maxBytes: MENTION_MAX_FILE_BYTES, over: "refuse" });
    if (!read.ok) return { ok: false, message: `@${m.path}: ${read.missing ? "not a file in the workspace" : read.reason}` };
    const { file } = read;
    if (looksBinary(file.data.subarray(0, 8192))) return { ok: false, message: `@${m.path}: a binary file cannot be attached as text` };
    const lines = decodeText(file.data).text.split(/\r?\n/);
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const start = m.startLine ?? 1;
    const end = Math.min(m.endLine ?? m.startLine ?? lines.length, lines.length);
    if (start > lines.length) return { ok: false, message: `@${m.path}: line ${start} is past the end (${lines.length} lines)` };
    if (end < start) return { ok: false, message: `@${m.path}: the range ${start}-${end} is empty` };
    let body = lines.slice(start - 1, end).join("\n");
    let note: string | undefined;
    if (Buffer.byteLength(body) > MENTION_MAX_BYTES) {
      body = Buffer.from(body)
        .subarray(0, MENTION_MAX_BYTES)
        .toString("utf8")
        .replace(/\uFFFD+$/, "");
      const shownLines = body.split("\n").length;
      note = `[Cut at ${KB(MENTION_MAX_BYTES)}: lines ${start}-${start + shownLines - 1} of ${start}-${end} shown. Use the read tool with an offset for the rest.]`;
    }
    const ranged = m.startLine !== undefined;
    attached.push({
      block: {
        type: "text",
        text: attachedFileBlock({ path: file.path, ...(ranged ? { startLine: start, endLine: end } : {}) }, body, note),
      },
      source: { path: file.path, bytes: file.bytes, truncated: note !== undefined, ...(ranged ? { lines: `${start}-${end}` } : {}) },
    });
  }
  return { ok: true, attached };
}
