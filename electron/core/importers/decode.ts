/** Bytes of a session file → text: zstd frames decompressed with a cap (a small file may expand enormously), UTF-8 checked. */
import { Decompress } from "fzstd";
import { FOREIGN_LIMITS, ForeignImportError } from "./types";

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const PUSH = 64 * 1024;

export function decodeText(bytes: Uint8Array, path: string, limit = FOREIGN_LIMITS.fileBytes): string {
  const raw = ZSTD_MAGIC.every((b, i) => bytes[i] === b) ? unzstd(bytes, path, limit) : bytes;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(raw);
  } catch {
    throw new ForeignImportError("IMPORT_INVALID", `${path} is not UTF-8 text`);
  }
}

function unzstd(bytes: Uint8Array, path: string, limit: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > limit) throw new ForeignImportError("IMPORT_TOO_LARGE", `${path} expands past ${limit} bytes`);
    chunks.push(chunk);
  });
  try {
    for (let at = 0; at < bytes.length; at += PUSH) stream.push(bytes.subarray(at, at + PUSH), at + PUSH >= bytes.length);
  } catch (e) {
    if (e instanceof ForeignImportError) throw e;
    throw new ForeignImportError("IMPORT_INVALID", `${path} is not a readable zstd file (${e instanceof Error ? e.message : String(e)})`);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
