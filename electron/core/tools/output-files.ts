/**
 * bash's output files: written while the command runs, kept when its output
 * was cut (the model is told the path), bounded, and cleaned up with the
 * session's lifecycle. See docs/tool-sandbox.md#output-files.
 *
 * Contract:
 * - A running command writes `bash-<time>-<random>.<pid>.partial` in its
 *   session's folder; `keep` renames it to `bash-<time>-<random>.log`,
 *   `discard` deletes it. A `.partial` whose process is gone belongs to a
 *   core that was killed and is deleted by the next sweep.
 * - A file keeps the first BASH_OUTPUT_FILE_MAX_BYTES of the output. After a
 *   keep, the session's kept files are cut back to BASH_OUTPUT_SESSION_MAX_BYTES
 *   (oldest first) and the caller's `onKept` bounds all sessions together.
 * - `ToolOutputs` (the app's root folder, one folder per session): removes a
 *   session's files when it is deleted, and at start the folders of sessions
 *   that no longer exist, dead `.partial` files and the oldest kept files
 *   past BASH_OUTPUT_TOTAL_MAX_BYTES. Only files named as above are touched.
 * - Nothing here throws: a file that cannot be written, renamed or deleted
 *   costs the spill file, never the command's result.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { BASH_OUTPUT_FILE_MAX_BYTES, BASH_OUTPUT_SESSION_MAX_BYTES, BASH_OUTPUT_TOTAL_MAX_BYTES } from "./limits";

const KEPT = /^bash-\d+-[0-9a-f]{8}\.log$/;
const PARTIAL = /^bash-\d+-[0-9a-f]{8}\.(\d+)\.partial$/;
/** Session ids are UUIDs; nothing else in the root is a session's folder. */
const SESSION_DIR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OutputLimits {
  fileBytes: number;
  sessionBytes: number;
  totalBytes: number;
}

export const OUTPUT_LIMITS: OutputLimits = {
  fileBytes: BASH_OUTPUT_FILE_MAX_BYTES,
  sessionBytes: BASH_OUTPUT_SESSION_MAX_BYTES,
  totalBytes: BASH_OUTPUT_TOTAL_MAX_BYTES,
};

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive but another user's.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface FileInfo {
  path: string;
  bytes: number;
  mtimeMs: number;
}

async function keptFiles(dir: string): Promise<FileInfo[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const infos = await Promise.all(
    names
      .filter((n) => KEPT.test(n))
      .map(async (n) => {
        const st = await stat(join(dir, n)).catch(() => null);
        return st ? { path: join(dir, n), bytes: st.size, mtimeMs: st.mtimeMs } : null;
      }),
  );
  return infos.filter((i): i is FileInfo => i !== null);
}

/** Deletes the oldest files until the rest fit in `max` bytes; `spare` is never deleted. */
async function cutBack(files: FileInfo[], max: number, spare?: string): Promise<void> {
  let total = files.reduce((sum, f) => sum + f.bytes, 0);
  for (const f of [...files].sort((a, b) => a.mtimeMs - b.mtimeMs)) {
    if (total <= max) return;
    if (f.path === spare) continue;
    await unlink(f.path).catch(() => undefined);
    total -= f.bytes;
  }
}

export class OutputFile {
  private written = 0;
  /** Output past the file's cap was not written to it. */
  capped = false;

  private constructor(
    /** Where the output is once kept. */
    readonly path: string,
    private readonly partial: string,
    private stream: WriteStream | null,
    private readonly limits: OutputLimits,
  ) {}

  /** Opens the file for a command starting now (without one when it cannot be made). */
  static async open(dir: string, now: number, limits: OutputLimits = OUTPUT_LIMITS): Promise<OutputFile> {
    const base = `bash-${now}-${randomBytes(4).toString("hex")}`;
    const partial = join(dir, `${base}.${process.pid}.partial`);
    let stream: WriteStream | null;
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      stream = createWriteStream(partial, { mode: 0o600 });
    } catch {
      // No spill file: the result still carries the capped output.
      stream = null;
    }
    const file = new OutputFile(join(dir, `${base}.log`), partial, stream, limits);
    stream?.on("error", () => {
      file.stream = null;
    });
    return file;
  }

  /** False when there is no file (it could not be made, or failed). */
  get usable(): boolean {
    return this.stream !== null;
  }

  write(chunk: Buffer): void {
    if (!this.stream) return;
    const room = this.limits.fileBytes - this.written;
    if (room <= 0) {
      this.capped = true;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.capped = true;
    this.written += part.length;
    this.stream.write(part);
  }

  private async close(): Promise<boolean> {
    const stream = this.stream;
    if (!stream) return false;
    await new Promise<void>((done) => stream.end(() => done()));
    return this.stream !== null;
  }

  /** Keeps the file for the session; returns its path, or null when there is none. `onKept` bounds all sessions. */
  async keep(onKept?: () => Promise<void>): Promise<string | null> {
    const ok = await this.close();
    if (!ok) {
      await unlink(this.partial).catch(() => undefined);
      return null;
    }
    try {
      await rename(this.partial, this.path);
    } catch {
      // The spill file is lost, the result is not.
      await unlink(this.partial).catch(() => undefined);
      return null;
    }
    const dir = join(this.path, "..");
    await cutBack(await keptFiles(dir), this.limits.sessionBytes, this.path);
    await onKept?.().catch(() => undefined);
    return this.path;
  }

  /** The output is not needed (not cut, or the call was stopped): nothing is left behind. */
  async discard(): Promise<void> {
    await this.close();
    await unlink(this.partial).catch(() => undefined);
  }
}

/** The app's output folders: one per session under `root`. */
export class ToolOutputs {
  constructor(
    readonly root: string,
    private readonly limits: OutputLimits = OUTPUT_LIMITS,
  ) {}

  dirFor(sessionId: string): string {
    return join(this.root, sessionId);
  }

  /** The session was deleted: its output files go with it. */
  async removeSession(sessionId: string): Promise<void> {
    if (!SESSION_DIR.test(sessionId)) return;
    await rm(this.dirFor(sessionId), { recursive: true, force: true }).catch(() => undefined);
  }

  /** All sessions' kept files together within the total cap, oldest removed first. */
  async boundTotal(): Promise<void> {
    const dirs = (await readdir(this.root).catch(() => [] as string[])).filter((n) => SESSION_DIR.test(n));
    const files = (await Promise.all(dirs.map((d) => keptFiles(join(this.root, d))))).flat();
    await cutBack(files, this.limits.totalBytes);
  }

  /**
   * At start: removes the folders of sessions that no longer exist, the
   * `.partial` files of processes that are gone (killed calls), then bounds
   * the total. Returns how many files and folders were removed.
   */
  async sweep(sessionExists: (id: string) => boolean): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.root).catch(() => [] as string[])) {
      if (!SESSION_DIR.test(name)) continue;
      const dir = join(this.root, name);
      if (!sessionExists(name)) {
        await rm(dir, { recursive: true, force: true }).catch(() => undefined);
        removed++;
        continue;
      }
      for (const file of await readdir(dir).catch(() => [] as string[])) {
        const m = PARTIAL.exec(file);
        if (m && !pidAlive(Number(m[1]))) {
          await unlink(join(dir, file)).catch(() => undefined);
          removed++;
        }
      }
    }
    await this.boundTotal();
    return removed;
  }
}

/**
 * Before sessions had folders, cut output went to `<tmp>/agent-workbench-tool-output/`
 * and stayed there: files there older than a day are removed.
 */
export async function sweepLegacyOutputs(dir: string, now: number): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!KEPT.test(name)) continue;
    const st = await stat(join(dir, name)).catch(() => null);
    if (st && now - st.mtimeMs > 24 * 60 * 60 * 1000) await unlink(join(dir, name)).catch(() => undefined);
  }
}
