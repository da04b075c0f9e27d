/**
 * The workspace sandbox: the only code that touches the file system for the
 * tools (bash excepted, which is gated by approval instead).
 *
 * Contract:
 * - `resolve` turns a path from the model into a real path inside the
 *   workspace or a typed error. `..` is resolved lexically first; then every
 *   existing component is walked with lstat and symbolic links are followed
 *   (also dangling ones, also for a file that does not exist yet); the result
 *   must stay inside the workspace's real root.
 * - `readFile`, `readHead`, `readCapped` and `readFileSync` open the real path with
 *   O_NOFOLLOW, fstat the descriptor and check the opened file is the one that
 *   was checked (via /proc/self/fd on Linux, dev/inode + realpath elsewhere)
 *   before reading a byte: a swap between check and use is refused, not
 *   followed.
 * - Folders are opened once and used through their descriptor (DirHandle):
 *   `readDir`/`openDir` list what was verified, the walker opens sub-folders
 *   through their parent, and a folder swapped for a link is refused.
 * - `writeAtomic` creates missing folders one at a time, each inside the
 *   previous one's verified descriptor, creates the temporary file (O_EXCL,
 *   O_NOFOLLOW) and renames it through the target folder's descriptor, keeps
 *   the old file's mode, and re-checks the precondition and the folder right
 *   before the rename. Nothing is ever created through a link.
 * - Nothing here throws: failures come back as `Result` errors.
 */
import {
  closeSync,
  constants as C,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  read as readCallback,
  readlinkSync,
  readSync,
  realpathSync,
  rmdirSync,
  statSync,
  type Stats,
} from "node:fs";
import { lstat, open, readlink, realpath, rename, stat, unlink, type FileHandle } from "node:fs/promises";
import { promisify } from "node:util";
import { randomBytes } from "node:crypto";
import { basename, dirname, isAbsolute, join, posix, relative, resolve as resolvePath, sep } from "node:path";
import { DirHandle, PROC_FD, type DirEntry } from "./dir-handle";
import { errnoCode, errors } from "./errors";
import type { Result, ToolError } from "./types";

export type EntryKind = "file" | "directory" | "missing";

export type { DirEntry };

export interface ResolvedPath {
  /** Real absolute path (inside the workspace). For a missing file: where it would be created. */
  real: string;
  /** Workspace-relative, forward slashes; "." for the root. What the model is shown. */
  rel: string;
  kind: EntryKind;
  /** lstat of `real` when it exists. */
  stats?: Stats;
}

const MAX_SYMLINK_HOPS = 40;
const SLASH_LOOKALIKES = /[\u2215\u2044\u29F8\uFF0F\u2571\uFE68\uFF3C\u29F5\u29F9]/u;
const HAS_PROC_FD = process.platform === "linux";
/**
 * Why resolving and opening are synchronous: the core runs in Electron's main
 * process (docs/architecture.md#layers), so a blocking call holds up IPC. But a
 * metadata call (lstat, readlink, open, fstat, close) on a local disk takes
 * microseconds, while each async one is a thread-pool round trip costing more
 * CPU and ~0.1 ms of wall time (bench:loop: a small `read` went from twelve
 * hops to none). File contents are read synchronously only up to this size
 * (a few tens of microseconds from the page cache); larger files are read off
 * the main thread. The list tool and the built-in grep already work this way.
 */
export const SYNC_READ_MAX_BYTES = 256 * 1024;
const readAsync = promisify(readCallback);

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const fail = <T>(error: ToolError): Result<T> => ({ ok: false, error });

export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return candidate.startsWith(prefix);
}

function kindOf(st: Stats): string | null {
  if (st.isFile() || st.isDirectory()) return null;
  if (st.isFIFO()) return "named pipe (FIFO)";
  if (st.isSocket()) return "socket";
  if (st.isCharacterDevice()) return "character device";
  if (st.isBlockDevice()) return "block device";
  return "special file";
}

/** Refusals decided from the text alone, before any file system access. */
function lexicalCheck(input: string): ToolError | null {
  if (input.length === 0) return errors.emptyPath();
  if (input.includes("\0")) return errors.nulInPath();
  if (input.startsWith("~")) return errors.outsideWorkspace(input);
  if (/^[a-zA-Z]:/.test(input)) return errors.outsideWorkspace(input);
  if (input.startsWith("\\\\") || input.startsWith("//")) return errors.outsideWorkspace(input);
  if (input.includes("\\")) return errors.backslashPath(input);
  if (SLASH_LOOKALIKES.test(input)) return errors.confusablePath(input);
  for (const seg of input.split("/")) {
    const folded = seg.normalize("NFKC");
    if (folded !== seg && (folded.includes("..") || folded === "." || folded.includes("/"))) return errors.confusablePath(input);
  }
  return null;
}

export class Sandbox {
  private constructor(
    /** The workspace root as the user gave it (absolute). */
    readonly givenRoot: string,
    /** Its real path: the boundary. */
    readonly root: string,
  ) {}

  static async open(workspaceRoot: string): Promise<Result<Sandbox>> {
    const given = resolvePath(workspaceRoot);
    try {
      const real = await realpath(given);
      const st = await stat(real);
      if (!st.isDirectory()) return fail(errors.notADirectory(workspaceRoot));
      return ok(new Sandbox(given, real));
    } catch (err) {
      return fail(errnoCode(err) === "ENOENT" ? errors.dirNotFound(workspaceRoot) : errors.io(workspaceRoot, errnoCode(err)));
    }
  }

  /** Workspace-relative display form of a real path inside the root. */
  display(real: string): string {
    const rel = relative(this.root, real);
    return rel === "" ? "." : rel.split(sep).join("/");
  }

  /** Resolves a model-supplied path; device files, FIFOs and sockets are refused. */
  resolve(input: string): Promise<Result<ResolvedPath>> {
    // The executor turns a throw into a rejection, as an async method would.
    return new Promise((done) => done(this.resolveSync(input)));
  }

  /** `resolve`, synchronously (see SYNC_READ_MAX_BYTES for why that is fine). */
  resolveSync(input: string): Result<ResolvedPath> {
    const lexical = lexicalCheck(input);
    if (lexical) return fail(lexical);
    // Lexical check first: `..` that climbs out of the root is refused outright.
    let rest: string[];
    if (isAbsolute(input)) {
      const abs = resolvePath(input);
      const base = isInside(this.givenRoot, abs) ? this.givenRoot : isInside(this.root, abs) ? this.root : null;
      if (base === null) return fail(errors.outsideWorkspace(input));
      rest = input.startsWith(`${base}/`) ? input.slice(base.length + 1).split("/") : relative(base, abs).split(sep);
    } else {
      if (!isInside(this.root, resolvePath(this.root, input))) return fail(errors.outsideWorkspace(input));
      rest = input.split("/");
    }
    // Then the walk, with `..` taken physically as the kernel does (after a link, `..` is the link target's parent).
    const walked = this.walkFrom(
      this.root,
      rest.filter((s) => s !== "" && s !== "."),
      input,
      0,
    );
    if (!walked.ok) return walked;
    const { real, exists } = walked.value;
    if (!isInside(this.root, real)) return fail(errors.symlinkOutside(input));
    if (!exists) return ok({ real, rel: this.display(real), kind: "missing" });
    // The walk's own lstat of the last component, when it made one (not for the root or after `..`).
    let st = walked.value.stats;
    if (st === undefined) {
      try {
        st = lstatSync(real);
      } catch (err) {
        if (errnoCode(err) === "ENOENT") return ok({ real, rel: this.display(real), kind: "missing" });
        return fail(errors.io(input, errnoCode(err)));
      }
    }
    const special = kindOf(st);
    if (special) return fail(errors.specialFile(input, special));
    return ok({ real, rel: this.display(real), kind: st.isDirectory() ? "directory" : "file", stats: st });
  }

  /**
   * A path another program (ripgrep) reported, taken only when it is already
   * in normal form (relative, no `.`, `..` or empty segment): no walk, since
   * the descriptor check of `readLinesPrefixSync` proves that what was opened
   * is exactly `root/rel`, and a link anywhere on the path makes that fail.
   */
  reportedFile(rel: string): ResolvedPath | null {
    if (rel === "" || isAbsolute(rel) || lexicalCheck(rel) !== null) return null;
    if (rel.split("/").some((seg) => seg === "" || seg === "." || seg === "..")) return null;
    return { real: join(this.root, rel), rel, kind: "file" };
  }

  /**
   * Walks `segments` from `start` with lstat, following symbolic links (their
   * targets walked from the file system root) and taking `..` physically.
   * Returns where the path really lands, with the lstat of that last component
   * when the walk made one; a missing tail is appended as is.
   */
  private walkFrom(
    start: string,
    segments: string[],
    input: string,
    hops: number,
  ): Result<{ real: string; exists: boolean; stats?: Stats }> {
    let cur = start;
    let last: Stats | undefined;
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i];
      if (seg === "..") {
        cur = dirname(cur);
        last = undefined;
        continue;
      }
      if (seg === ".") continue;
      const next = join(cur, seg);
      let st: Stats;
      try {
        st = lstatSync(next);
      } catch (err) {
        const code = errnoCode(err);
        if (code === "ENOENT") return ok({ real: join(next, ...segments.slice(i + 1)), exists: false });
        if (code === "ENOTDIR") return fail(errors.notADirectory(this.display(cur)));
        return fail(errors.io(input, code));
      }
      if (st.isSymbolicLink()) {
        if (hops >= MAX_SYMLINK_HOPS) return fail(errors.io(input, "ELOOP"));
        let target: string;
        try {
          target = readlinkSync(next);
        } catch (err) {
          return fail(errors.io(input, errnoCode(err)));
        }
        const targetAbs = resolvePath(cur, target);
        // The target is walked from the file system root: it may leave the workspace.
        const parts = targetAbs.split(sep).filter((s) => s !== "");
        const walked = this.walkFrom(sep, [...parts, ...segments.slice(i + 1)], input, hops + 1);
        if (!walked.ok) return walked;
        // Only where the link finally lands matters: that is what the kernel would open.
        if (!isInside(this.root, walked.value.real)) return fail(errors.symlinkOutside(input));
        return walked;
      }
      if (i < segments.length - 1 && !st.isDirectory()) return fail(errors.notADirectory(this.display(next)));
      cur = next;
      last = st;
    }
    return ok({ real: cur, exists: true, stats: last });
  }

  /**
   * Opens a checked regular file for reading and proves the descriptor is
   * that file (see the contract above). The caller must close it.
   */
  private openVerifiedSync(resolved: ResolvedPath): Result<{ fd: number; stats: Stats }> {
    let fd: number;
    try {
      fd = openSync(resolved.real, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK | C.O_NOCTTY);
    } catch (err) {
      const code = errnoCode(err);
      if (code === "ENOENT") return fail(errors.notFound(resolved.rel));
      if (code === "ELOOP") return fail(errors.changedDuringUse(resolved.rel));
      if (code === "EISDIR") return fail(errors.isDirectory(resolved.rel));
      return fail(errors.io(resolved.rel, code));
    }
    let verified: Result<Stats>;
    try {
      verified = this.verifyFdSync(fd, resolved);
    } catch (err) {
      verified = fail(errors.io(resolved.rel, errnoCode(err)));
    }
    if (!verified.ok) {
      closeQuietly(fd);
      return verified;
    }
    return ok({ fd, stats: verified.value });
  }

  private verifyFdSync(fd: number, resolved: ResolvedPath): Result<Stats> {
    const st = fstatSync(fd);
    if (st.isDirectory()) return fail(errors.isDirectory(resolved.rel));
    const special = kindOf(st);
    if (special) return fail(errors.specialFile(resolved.rel, special));
    let where: string | null = null;
    if (HAS_PROC_FD) {
      try {
        where = readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        // /proc not mounted: fall through to the portable check.
      }
    }
    if (where === null) {
      try {
        const real = realpathSync(resolved.real);
        const pst = statSync(resolved.real);
        where = real === resolved.real && pst.ino === st.ino && pst.dev === st.dev ? real : null;
      } catch {
        // Cannot be verified: null makes the caller refuse the operation.
        where = null;
      }
    }
    if (where !== resolved.real) return fail(errors.changedDuringUse(resolved.rel));
    return ok(st);
  }

  /**
   * The same checks as `readFile`, synchronously and whatever the size: for
   * bulk readers (the built-in grep) that read thousands of small files. The
   * caller yields to the event loop between batches.
   */
  readFileSync(resolved: ResolvedPath, maxBytes: number): Result<Buffer> {
    const opened = this.openVerifiedSync(resolved);
    if (!opened.ok) return opened;
    const { fd, stats } = opened.value;
    try {
      if (stats.size > maxBytes)
        return fail(errors.tooLarge(resolved.rel, stats.size, maxBytes, "Use grep to find the lines you need in it."));
      return ok(readAllSync(fd, stats.size));
    } catch (err) {
      return fail(errors.io(resolved.rel, errnoCode(err)));
    } finally {
      closeQuietly(fd);
    }
  }

  /**
   * The bytes of a checked file up to the end of line `lastLine` (1-based),
   * through one verified descriptor, read in chunks: for re-reading lines
   * another program (ripgrep) reported, whatever the file's size.
   */
  readLinesPrefixSync(resolved: ResolvedPath, lastLine: number): Result<Buffer> {
    const opened = this.openVerifiedSync(resolved);
    if (!opened.ok) return opened;
    const { fd, stats } = opened.value;
    try {
      const chunks: Buffer[] = [];
      let seen = 0;
      let pos = 0;
      for (;;) {
        // Sized to the file (most are small); one byte more so the end is seen in the same read.
        const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, Math.max(stats.size - pos + 1, 4096)));
        const n = readSync(fd, chunk, 0, chunk.length, pos);
        if (n === 0) break;
        pos += n;
        const got = chunk.subarray(0, n);
        chunks.push(got);
        for (let i = got.indexOf(10); i !== -1; i = got.indexOf(10, i + 1)) seen++;
        if (seen >= lastLine) break;
      }
      return ok(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    } catch (err) {
      return fail(errors.io(resolved.rel, errnoCode(err)));
    } finally {
      closeQuietly(fd);
    }
  }

  /** Where an open handle really is. */
  private async handlePath(fh: FileHandle, expected: string): Promise<string | null> {
    if (HAS_PROC_FD) {
      try {
        return await readlink(`/proc/self/fd/${fh.fd}`);
      } catch {
        // /proc not mounted: fall through to the portable check.
      }
    }
    try {
      const [real, st, fst] = await Promise.all([realpath(expected), stat(expected), fh.stat()]);
      return real === expected && st.ino === fst.ino && st.dev === fst.dev ? expected : null;
    } catch {
      // Cannot be verified: null makes the caller refuse the operation.
      return null;
    }
  }

  /**
   * Reads a whole checked regular file through one verified descriptor;
   * TOO_LARGE past `maxBytes`. `check` sees the first bytes (up to 16) and
   * the size before the rest is read, and may refuse (the read tool: images
   * and text have different limits). Synchronous up to SYNC_READ_MAX_BYTES.
   */
  async readFile(
    resolved: ResolvedPath,
    maxBytes = Number.POSITIVE_INFINITY,
    check?: (head: Buffer, size: number) => ToolError | null,
  ): Promise<Result<Buffer>> {
    const opened = this.openVerifiedSync(resolved);
    if (!opened.ok) return opened;
    const { fd, stats } = opened.value;
    const { size } = stats;
    try {
      if (size <= SYNC_READ_MAX_BYTES && size <= maxBytes) {
        // Small: one read, and the check looks at its first bytes.
        const data = readAllSync(fd, size);
        const refused = check?.(data.subarray(0, 16), size);
        return refused ? fail(refused) : ok(data);
      }
      if (check) {
        const head = Buffer.alloc(16);
        const refused = check(head.subarray(0, readSync(fd, head, 0, 16, 0)), size);
        if (refused) return fail(refused);
      }
      if (size > maxBytes) return fail(errors.tooLarge(resolved.rel, size, maxBytes, "Use grep to find the lines you need in it."));
      // A file growing meanwhile is read as it was at the fstat.
      return ok(await readAllAsync(fd, size));
    } catch (err) {
      return fail(errors.io(resolved.rel, errnoCode(err)));
    } finally {
      closeQuietly(fd);
    }
  }

  /**
   * The first `max` bytes of a checked file and its size, through one verified
   * descriptor, the bytes read off the main thread: for files that reach the
   * prompt without a tool call (prompt-files/), cut rather than refused.
   */
  async readCapped(resolved: ResolvedPath, max: number): Promise<Result<{ data: Buffer; size: number }>> {
    const opened = this.openVerifiedSync(resolved);
    if (!opened.ok) return opened;
    const { fd, stats } = opened.value;
    try {
      return ok({ data: await readAllAsync(fd, Math.min(stats.size, max)), size: stats.size });
    } catch (err) {
      return fail(errors.io(resolved.rel, errnoCode(err)));
    } finally {
      closeQuietly(fd);
    }
  }

  /** Reads up to `max` bytes from the start of a checked file. */
  async readHead(resolved: ResolvedPath, max: number): Promise<Result<Buffer>> {
    const opened = this.openVerifiedSync(resolved);
    if (!opened.ok) return opened;
    const { fd } = opened.value;
    try {
      const buf = Buffer.alloc(max);
      const n = max <= SYNC_READ_MAX_BYTES ? readSync(fd, buf, 0, max, 0) : (await readAsync(fd, buf, 0, max, 0)).bytesRead;
      return ok(buf.subarray(0, n));
    } catch (err) {
      return fail(errors.io(resolved.rel, errnoCode(err)));
    } finally {
      closeQuietly(fd);
    }
  }

  /** Lists a checked directory through a verified descriptor. */
  readDir(resolved: ResolvedPath): Promise<Result<DirEntry[]>> {
    return new Promise((done) => done(this.readDirSync(resolved)));
  }

  /** Lists a checked directory through a verified descriptor (see DirHandle). */
  readDirSync(resolved: ResolvedPath): Result<DirEntry[]> {
    const opened = this.openDir(resolved);
    if (!opened.ok) return opened;
    try {
      return ok(opened.value.list());
    } catch (err) {
      return fail(this.dirError(resolved.rel, err));
    } finally {
      opened.value.close();
    }
  }

  /**
   * Opens a checked directory and proves the descriptor is that directory;
   * readers then list it and open its children through the handle. The
   * caller must close it.
   */
  openDir(resolved: ResolvedPath): Result<DirHandle> {
    if (resolved.kind !== "directory")
      return fail(resolved.kind === "missing" ? errors.dirNotFound(resolved.rel) : errors.notADirectory(resolved.rel));
    if (!isInside(this.root, resolved.real)) return fail(errors.outsideWorkspace(resolved.rel));
    try {
      return ok(DirHandle.open(resolved.real));
    } catch (err) {
      return fail(this.dirError(resolved.rel, err));
    }
  }

  /** Opens sub-folder `name` of an open directory (a link there is refused, not followed). */
  openChildDir(parent: DirHandle, child: ResolvedPath, name: string): Result<DirHandle> {
    try {
      return ok(parent.openChild(name));
    } catch (err) {
      return fail(this.dirError(child.rel, err));
    }
  }

  private dirError(rel: string, err: unknown): ToolError {
    const code = errnoCode(err);
    if (code === "ENOENT") return errors.dirNotFound(rel);
    if (code === "ENOTDIR") return errors.notADirectory(rel);
    if (code === "ELOOP" || code === "ESTALEHANDLE") return errors.changedDuringUse(rel);
    return errors.io(rel, code);
  }

  /**
   * A directory entry found by `readDir` under a checked directory. Links are
   * not followed: the caller gets kind "symlink" and decides (tools skip them).
   */
  child(parent: ResolvedPath, name: string, kind: "file" | "directory"): ResolvedPath {
    return { real: `${parent.real}${sep}${name}`, rel: joinRel(parent.rel, name), kind };
  }

  /** True when the real path still resolves to itself (no component swapped for a link). */
  async stillAt(resolved: ResolvedPath): Promise<boolean> {
    try {
      const real = await realpath(resolved.real);
      return real === resolved.real && isInside(this.root, real);
    } catch {
      // Cannot be resolved any more: not still there, the caller refuses.
      return false;
    }
  }

  /**
   * Opens the folder `resolved` goes in, creating the missing ones one at a
   * time, each inside the previous one's verified descriptor: a folder swapped
   * for a link meanwhile is refused (ELOOP), never followed. Where folders
   * cannot be used through descriptors (no /proc), a folder created while its
   * parent moved away is removed again.
   */
  private ensureParent(resolved: ResolvedPath): Result<DirHandle> {
    const segments = relative(this.root, dirname(resolved.real))
      .split(sep)
      .filter((s) => s !== "");
    let cur: DirHandle;
    try {
      cur = DirHandle.open(this.root);
    } catch (err) {
      return fail(this.dirError(".", err));
    }
    for (const seg of segments) {
      const childReal = join(cur.real, seg);
      let created = false;
      try {
        mkdirSync(cur.at(seg));
        created = true;
      } catch (err) {
        if (errnoCode(err) !== "EEXIST") {
          cur.close();
          return fail(errors.io(this.display(childReal), errnoCode(err)));
        }
      }
      if (created && !PROC_FD && !cur.stillHere()) removeStrayDir(childReal);
      let next: DirHandle;
      try {
        next = cur.openChild(seg);
      } catch (err) {
        cur.close();
        return fail(this.dirError(resolved.rel, err));
      }
      cur.close();
      cur = next;
    }
    return ok(cur);
  }

  /**
   * Writes `data` to a checked path atomically. `precondition` runs right
   * before the rename (e.g. the fingerprint re-check) and may veto it.
   */
  async writeAtomic(
    resolved: ResolvedPath,
    data: Buffer,
    options: { mode?: number; precondition?: () => Promise<ToolError | null> } = {},
  ): Promise<Result<{ bytes: number; created: boolean }>> {
    if (resolved.kind === "directory") return fail(errors.isDirectory(resolved.rel));
    const parentResult = this.ensureParent(resolved);
    if (!parentResult.ok) return parentResult;
    const parent = parentResult.value;
    const name = basename(resolved.real);
    const target = join(parent.real, name);
    const tmpName = `.${name}.${randomBytes(6).toString("hex")}.tmp`;
    const tmp = join(parent.real, tmpName);
    let fh: FileHandle | null = null;
    let createdTmp = false;
    let renamed = false;
    try {
      if (!isInside(this.root, target)) return fail(errors.outsideWorkspace(resolved.rel));
      if (!parent.stillHere()) return fail(errors.changedDuringUse(resolved.rel));
      // Created inside the verified folder (through its descriptor on Linux), never through a link.
      fh = await open(parent.at(tmpName), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, options.mode ?? 0o666);
      createdTmp = true;
      if ((await this.handlePath(fh, tmp)) !== tmp) return fail(errors.changedDuringUse(resolved.rel));
      await fh.writeFile(data);
      if (options.mode !== undefined) await fh.chmod(options.mode);
      await fh.datasync();
      await fh.close();
      fh = null;
      if (options.precondition) {
        const veto = await options.precondition();
        if (veto) return fail(veto);
      }
      // The folder must still be where it was checked (not moved out of the workspace).
      if (!parent.stillHere()) return fail(errors.changedDuringUse(resolved.rel));
      let created = true;
      try {
        const st = await lstat(parent.at(name));
        created = false;
        if (st.isDirectory()) return fail(errors.isDirectory(resolved.rel));
        const special = kindOf(st);
        if (special && !st.isSymbolicLink()) return fail(errors.specialFile(resolved.rel, special));
      } catch (err) {
        if (errnoCode(err) !== "ENOENT") return fail(errors.io(resolved.rel, errnoCode(err)));
      }
      await rename(parent.at(tmpName), parent.at(name));
      renamed = true;
      return ok({ bytes: data.length, created });
    } catch (err) {
      return fail(errors.io(resolved.rel, errnoCode(err)));
    } finally {
      // Closing after the outcome is decided (an error here was already returned above).
      if (fh) await fh.close().catch(() => undefined);
      // Our own temp file next to the target: a failed cleanup leaves a stray temp file, never a changed target.
      if (createdTmp && !renamed) await unlink(parent.at(tmpName)).catch(() => undefined);
      parent.close();
    }
  }
}

/** An empty folder that may have been created outside while its parent moved (no /proc): removed again. */
function removeStrayDir(path: string): void {
  try {
    rmdirSync(realpathSync(path));
  } catch {
    // Not empty or already gone: it was not ours.
  }
}

/** Joins workspace-relative display paths. */
export function joinRel(dir: string, name: string): string {
  return dir === "." ? name : posix.join(dir, name);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Nothing was written through it; a failed close loses nothing.
  }
}

/** Reads `size` bytes from the start (fewer if the file shrank). */
function readAllSync(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const n = readSync(fd, buf, filled, size - filled, filled);
    if (n === 0) break;
    filled += n;
  }
  return filled < size ? buf.subarray(0, filled) : buf;
}

async function readAllAsync(fd: number, size: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await readAsync(fd, buf, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled < size ? buf.subarray(0, filled) : buf;
}
