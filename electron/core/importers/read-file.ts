/**
 * Reads a foreign session file for import: opened read-only, never written,
 * refused when it is not a regular file inside the agent's folder (a link or
 * a `..` name pointing elsewhere), or larger than the limit.
 */
import { open, readdir, realpath, lstat } from "node:fs/promises";
import { basename, dirname, join, sep } from "node:path";
import { FOREIGN_LIMITS, ForeignImportError } from "./types";

export async function insideRoot(root: string, path: string): Promise<string> {
  let realRoot: string;
  let real: string;
  try {
    realRoot = await realpath(root);
    real = await realpath(path);
  } catch {
    throw new ForeignImportError("NOT_FOUND", `no session file at ${path}`);
  }
  if (!real.startsWith(realRoot + sep)) throw new ForeignImportError("IMPORT_INVALID", `${path} is not inside ${root}`);
  return real;
}

export async function readForeignText(path: string, limit = FOREIGN_LIMITS.fileBytes): Promise<Buffer> {
  const st = await lstat(path).catch(() => null);
  if (st === null) throw new ForeignImportError("NOT_FOUND", `no session file at ${path}`);
  if (!st.isFile()) throw new ForeignImportError("IMPORT_INVALID", `${path} is not a regular file`);
  if (st.size > limit) throw new ForeignImportError("IMPORT_TOO_LARGE", `${path} has ${st.size} bytes (at most ${limit})`);
  const handle = await open(path, "r");
  try {
    const buf = Buffer.alloc(st.size);
    let at = 0;
    while (at < st.size) {
      const { bytesRead } = await handle.read(buf, at, st.size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return buf.subarray(0, at);
  } finally {
    await handle.close();
  }
}

/** Claude Code's sub-agent transcripts of `<id>.jsonl`: `<id>/subagents/*.jsonl`, regular files only. */
export async function claudeSubagentFiles(sessionPath: string): Promise<string[]> {
  const dir = join(dirname(sessionPath), basename(sessionPath, ".jsonl"), "subagents");
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith(".jsonl")) continue;
    const st = await lstat(join(dir, name)).catch(() => null);
    if (st?.isFile()) out.push(join(dir, name));
  }
  return out;
}
