/**
 * Output caps. Head truncation (read) never cuts a line in two; tail
 * truncation (bash) keeps the end, where errors usually are.
 */

export interface Truncated {
  text: string;
  truncated: boolean;
  /** Lines kept and lines in the input. */
  keptLines: number;
  totalLines: number;
  /** Tail truncation: the one kept line is only the end of its line (it alone was over the byte cap). */
  firstLineCut: boolean;
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Keeps whole lines from the start until `maxLines` or `maxBytes` is reached. */
export function truncateHead(lines: readonly string[], maxLines: number, maxBytes: number): { kept: string[]; truncated: boolean } {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    if (kept.length >= maxLines) break;
    const size = Buffer.byteLength(line, "utf8") + 1;
    if (bytes + size > maxBytes && kept.length > 0) break;
    kept.push(line);
    bytes += size;
  }
  return { kept, truncated: kept.length < lines.length };
}

/** Keeps the last `maxLines` lines within `maxBytes`; the first kept line may be cut. */
export function truncateTail(text: string, maxLines: number, maxBytes: number): Truncated {
  const lines = splitLines(text);
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const line = lines[i];
    const size = Buffer.byteLength(line, "utf8") + 1;
    if (bytes + size > maxBytes) {
      const room = maxBytes - bytes;
      if (room > 0 && kept.length === 0) kept.unshift(tailBytes(line, room));
      break;
    }
    kept.unshift(line);
    bytes += size;
  }
  const firstLineCut = kept.length > 0 && kept[0] !== lines[lines.length - kept.length];
  const truncated = kept.length < lines.length || firstLineCut;
  return { text: kept.join("\n"), truncated, keptLines: kept.length, totalLines: text === "" ? 0 : lines.length, firstLineCut };
}

/** The last `max` bytes of a string, cut at a character boundary. */
function tailBytes(line: string, max: number): string {
  const buf = Buffer.from(line, "utf8");
  let start = buf.length - max;
  while (start < buf.length && (buf[start] & 0xc0) === 0x80) start++;
  return buf.subarray(start).toString("utf8");
}

/** Cuts one line to `max` characters with a visible marker. */
export function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}… [line cut at ${max} characters]`;
}
