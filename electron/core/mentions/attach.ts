/**
 * @-mentioned files become text blocks of the user message, read through the
 * sandbox (the same boundary as the read tool): the whole file, or a line
 * range (`@src/a.ts:10-40`), capped with a visible note.
 *
 * The block starts with an `<attached-file …>` tag, which the transcript shows
 * as a chip (shared/mentions.ts parses it) and the model reads as the file.
 */
import type { Mention } from "../../../shared/api";
import { attachedFileBlock } from "../../../shared/mentions";
import { KB } from "../tools/limits";
import { Sandbox } from "../tools/sandbox";
import { decodeText, looksBinary } from "../tools/text-file";

export const MENTION_MAX_BYTES = 100 * 1024;
const MENTION_MAX_FILE_BYTES = 10 * 1024 * 1024;

export type AttachResult = { ok: true; blocks: { type: "text"; text: string }[] } | { ok: false; message: string };

export async function attachMentions(workspaceRoot: string, mentions: readonly Mention[]): Promise<AttachResult> {
  if (mentions.length === 0) return { ok: true, blocks: [] };
  const sandbox = await Sandbox.open(workspaceRoot);
  if (!sandbox.ok) return { ok: false, message: sandbox.error.message };
  const blocks: { type: "text"; text: string }[] = [];
  for (const m of mentions) {
    const resolved = await sandbox.value.resolve(m.path);
    if (!resolved.ok) return { ok: false, message: `@${m.path}: ${resolved.error.message}` };
    if (resolved.value.kind !== "file") return { ok: false, message: `@${m.path}: not a file` };
    const buf = await sandbox.value.readFile(resolved.value, MENTION_MAX_FILE_BYTES);
    if (!buf.ok) return { ok: false, message: `@${m.path}: ${buf.error.message}` };
    if (looksBinary(buf.value.subarray(0, 8192))) return { ok: false, message: `@${m.path}: a binary file cannot be attached as text` };
    const lines = decodeText(buf.value).text.split(/\r?\n/);
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
    blocks.push({
      type: "text",
      text: attachedFileBlock({ path: resolved.value.rel, ...(ranged ? { startLine: start, endLine: end } : {}) }, body, note),
    });
  }
  return { ok: true, blocks };
}
