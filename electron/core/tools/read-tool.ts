/** read: numbered lines from a text file, or an image block. */
import { basename, posix } from "node:path";
import { errors, failure } from "./errors";
import type { ToolContext } from "./context";
import { IMAGE_MAX_BYTES, OUTPUT_MAX_BYTES, READ_MAX_FILE_BYTES, READ_MAX_LINE_CHARS, READ_MAX_LINES } from "./limits";
import type { ReadArgs } from "./schemas";
import { joinRel, type ResolvedPath, type Sandbox } from "./sandbox";
import { decodeText, looksBinary, sniffImage, type ImageMime } from "./text-file";
import { cutLine, truncateHead } from "./truncate";
import type { ToolOutcome } from "./types";

export async function runRead(args: ReadArgs, ctx: ToolContext): Promise<ToolOutcome> {
  const { sandbox } = ctx;
  const resolved = await sandbox.resolve(args.path);
  if (!resolved.ok) return failure(resolved.error);
  const file = resolved.value;
  if (file.kind === "missing") return failure(errors.notFound(args.path, await suggest(sandbox, args.path)));
  if (file.kind === "directory") return failure(errors.isDirectory(file.rel));

  // One verified descriptor for the sniff and the read: images and text have different limits.
  let mime: ImageMime | null = null;
  let size = 0;
  const buf = await sandbox.readFile(file, Number.POSITIVE_INFINITY, (head, bytes) => {
    size = bytes;
    mime = sniffImage(head);
    if (mime) {
      return bytes > IMAGE_MAX_BYTES
        ? errors.tooLarge(file.rel, bytes, IMAGE_MAX_BYTES, "Images this large cannot be shown; ask the user for a smaller version.")
        : null;
    }
    return bytes > READ_MAX_FILE_BYTES
      ? errors.tooLarge(file.rel, bytes, READ_MAX_FILE_BYTES, "Use grep to find the lines you need in it.")
      : null;
  });
  if (!buf.ok) return failure(buf.error);
  if (mime) return imageOutcome(file, mime, buf.value);
  if (looksBinary(buf.value)) return failure(errors.binaryFile(file.rel));

  const { text, utf8 } = decodeText(buf.value);
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const total = lines.length;
  const offset = args.offset ?? 1;
  if (offset > 1 && offset > total) return failure(errors.offsetPastEnd(file.rel, offset, total));
  if (total === 0) {
    return {
      ok: true,
      content: [{ type: "text", text: `(${file.rel} is empty)` }],
      details: { path: file.rel, bytes: size, totalLines: 0 },
    };
  }
  const limit = args.limit ?? READ_MAX_LINES;
  const window = lines.slice(offset - 1, offset - 1 + limit);
  let cutLines = 0;
  const numbered = window.map((line, i) => {
    if (line.length > READ_MAX_LINE_CHARS) cutLines++;
    return `${offset + i}\t${cutLine(line, READ_MAX_LINE_CHARS)}`;
  });
  const { kept } = truncateHead(numbered, limit, OUTPUT_MAX_BYTES);
  const end = offset + kept.length - 1;
  const notes: string[] = [];
  if (end < total) notes.push(`[Showing lines ${offset}-${end} of ${total}. Use offset=${end + 1} to continue.]`);
  if (cutLines > 0) notes.push(`[${cutLines} line(s) longer than ${READ_MAX_LINE_CHARS} characters were cut.]`);
  if (!utf8)
    notes.push(
      `[${file.rel} is not valid UTF-8: the bytes shown as "\uFFFD" are in another encoding (e.g. Latin-1). edit refuses this file; change it with bash.]`,
    );
  const body = kept.join("\n") + (notes.length > 0 ? `\n\n${notes.join("\n")}` : "");
  return {
    ok: true,
    content: [{ type: "text", text: body }],
    details: { path: file.rel, bytes: size, startLine: offset, endLine: end, totalLines: total, truncated: end < total },
  };
}

function imageOutcome(file: ResolvedPath, mimeType: ImageMime, data: Buffer): ToolOutcome {
  return {
    ok: true,
    content: [
      { type: "text", text: `Image ${file.rel} (${mimeType}, ${data.length} bytes):` },
      { type: "image", data: data.toString("base64"), mimeType },
    ],
    details: { path: file.rel, bytes: data.length, mimeType },
  };
}

/** Close matches for a missing file: siblings with a similar name in the nearest existing folder. */
async function suggest(sandbox: Sandbox, input: string): Promise<string[]> {
  const wanted = basename(input).toLowerCase();
  let dir = posix.dirname(input);
  for (let guard = 0; guard < 32; guard++) {
    const resolved = await sandbox.resolve(dir === "" ? "." : dir);
    if (resolved.ok && resolved.value.kind === "directory") {
      const listed = await sandbox.readDir(resolved.value);
      if (!listed.ok) return [];
      return listed.value
        .map((e) => ({ name: e.name, score: similarity(wanted, e.name.toLowerCase()) }))
        .filter((e) => e.score >= 0.5)
        .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1))
        .slice(0, 3)
        .map((e) => joinRel(resolved.value.rel, e.name));
    }
    if (dir === "." || dir === "/" || dir === "") return [];
    dir = posix.dirname(dir);
  }
  return [];
}

/** 1 - normalised edit distance, with a bonus for a shared stem (foo.ts vs foo.tsx). */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const stem = (s: string) => s.replace(/\.[^.]*$/, "");
  if (stem(a) === stem(b) && stem(a) !== "") return 0.9;
  const d = levenshtein(a, b);
  return 1 - d / Math.max(a.length, b.length, 1);
}

export function levenshtein(a: string, b: string): number {
  if (a.length > 200 || b.length > 200) return Math.max(a.length, b.length);
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
