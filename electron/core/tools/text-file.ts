/**
 * Text decoding that remembers how the file was written (BOM, line endings)
 * so writes can put the same conventions back.
 */
import { isUtf8 } from "node:buffer";
import { BINARY_SNIFF_BYTES } from "./limits";

export type Eol = "\n" | "\r\n";

export interface DecodedText {
  /** Content without the BOM, line endings untouched. */
  text: string;
  bom: boolean;
  /** The file's dominant line ending ("\n" when it has none). */
  eol: Eol;
  /** False when some bytes are not UTF-8 (Latin-1, Windows-1252 …): `text` shows them as U+FFFD. */
  utf8: boolean;
}

const BOM = "\uFEFF";

export function decodeText(buf: Buffer): DecodedText {
  let text = buf.toString("utf8");
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  return { text, bom, eol: detectEol(text), utf8: isUtf8(buf) };
}

export function detectEol(text: string): Eol {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? "\r\n" : "\n";
}

/** Converts bare "\n" to the given style; existing "\r\n" stays as is. */
export function toEol(text: string, eol: Eol): string {
  if (eol === "\n") return text;
  return text.replace(/\r?\n/g, "\r\n");
}

export function encodeText(text: string, bom: boolean): Buffer {
  return Buffer.from(bom ? BOM + text : text, "utf8");
}

/**
 * Binary when the head has a NUL byte, is not valid UTF-8 with many control
 * characters, or is mostly non-text. UTF-16 files with a BOM count as binary
 * here (we only edit UTF-8).
 */
export function looksBinary(head: Buffer): boolean {
  const sample = head.subarray(0, BINARY_SNIFF_BYTES);
  if (sample.length === 0) return false;
  if (sample.includes(0)) return true;
  let control = 0;
  for (const byte of sample) {
    if (byte < 9 || (byte > 13 && byte < 32) || byte === 127) control++;
  }
  return control / sample.length > 0.1;
}

export type ImageMime = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** Image type from the magic bytes (the extension is not trusted). */
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function sniffImage(head: Buffer): ImageMime | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(PNG_MAGIC)) return "image/png";
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (head.length >= 6 && (head.subarray(0, 6).toString("latin1") === "GIF87a" || head.subarray(0, 6).toString("latin1") === "GIF89a"))
    return "image/gif";
  if (head.length >= 12 && head.subarray(0, 4).toString("latin1") === "RIFF" && head.subarray(8, 12).toString("latin1") === "WEBP")
    return "image/webp";
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `text` has half of a surrogate pair, which UTF-8 cannot encode. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
