/**
 * Folders opened once and then used through their descriptor, so a folder
 * swapped for a symbolic link after it was checked cannot redirect a listing,
 * an open or a creation (docs/tool-sandbox.md).
 *
 * Node has no openat(2). On Linux the same effect comes from the
 * `/proc/self/fd/N/name` form: the kernel follows the descriptor's magic link
 * to the very folder that was opened (not to whatever its path names now)
 * and looks `name` up in it. With O_NOFOLLOW a `name` that is a link is
 * refused (ELOOP). Where /proc is missing (macOS), paths are used and each
 * step is re-verified before and after (dev/inode and realpath): a narrow
 * window remains there, which the docs say.
 *
 * Contract: functions here throw Node errors (errno codes); the sandbox turns
 * them into typed results.
 */
import { closeSync, constants as C, fstatSync, openSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";

/** True where `/proc/self/fd/N/name` resolves through the descriptor (Linux with /proc mounted). */
export const PROC_FD: boolean = (() => {
  if (process.platform !== "linux") return false;
  try {
    const fd = openSync("/", C.O_RDONLY | C.O_DIRECTORY);
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === "/" && statSync(`/proc/self/fd/${fd}/`).isDirectory();
    } finally {
      closeSync(fd);
    }
  } catch {
    // No /proc (not Linux, or not mounted): the portable checks are used instead.
    return false;
  }
})();

export interface DirEntry {
  name: string;
  kind: "file" | "directory" | "symlink" | "other";
}

const DIR_FLAGS = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;

/** Where descriptor `fd` really is (Linux), or null when that cannot be told. */
export function fdPath(fd: number): string | null {
  if (!PROC_FD) return null;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // The descriptor's path cannot be read: callers treat null as "cannot tell" and refuse.
    return null;
  }
}

/**
 * True when `fd` is the object at real path `real`: by /proc on Linux, else
 * by realpath plus device and inode.
 */
export function fdIsAt(fd: number, real: string, st: Stats = fstatSync(fd)): boolean {
  if (PROC_FD) return fdPath(fd) === real;
  try {
    if (realpathSync(real) !== real) return false;
    const now = statSync(real);
    return now.ino === st.ino && now.dev === st.dev;
  } catch {
    // Gone or unreadable: not provably the same folder, so the caller refuses.
    return false;
  }
}

export class StaleHandleError extends Error {
  readonly code = "ESTALEHANDLE";
  constructor(readonly real: string) {
    super(`${real} is not where it was opened`);
  }
}

export class DirHandle {
  private closed = false;

  private constructor(
    readonly fd: number,
    /** Real path the folder had when opened and verified. */
    readonly real: string,
    private readonly stats: Stats,
  ) {}

  /**
   * Opens the folder at real path `real` (no link followed at the last step)
   * and proves the descriptor is that folder. Throws StaleHandleError when it
   * is not, and the errno error of open otherwise.
   */
  static open(real: string): DirHandle {
    const fd = openSync(real, DIR_FLAGS);
    return DirHandle.verified(fd, real);
  }

  private static verified(fd: number, real: string): DirHandle {
    try {
      const st = fstatSync(fd);
      if (!st.isDirectory() || !fdIsAt(fd, real, st)) throw new StaleHandleError(real);
      return new DirHandle(fd, real, st);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** A path naming `name` inside this very folder (through the descriptor on Linux). */
  at(name: string): string {
    return PROC_FD ? `/proc/self/fd/${this.fd}/${name}` : join(this.real, name);
  }

  /** The folder's entries, read through the descriptor (Linux) or re-verified around the read. */
  list(): DirEntry[] {
    if (!PROC_FD) this.assertStillHere();
    const dirents = readdirSync(PROC_FD ? `/proc/self/fd/${this.fd}` : this.real, { withFileTypes: true });
    if (!PROC_FD) this.assertStillHere();
    return dirents.map((d) => ({
      name: d.name,
      kind: d.isSymbolicLink() ? "symlink" : d.isDirectory() ? "directory" : d.isFile() ? "file" : "other",
    }));
  }

  /** Opens the sub-folder `name` of this folder; a link there is refused (ELOOP). */
  openChild(name: string): DirHandle {
    if (!PROC_FD) this.assertStillHere();
    return DirHandle.verified(openSync(this.at(name), DIR_FLAGS), join(this.real, name));
  }

  /** True while the folder is still at its real path (not moved, not swapped). */
  stillHere(): boolean {
    return !this.closed && fdIsAt(this.fd, this.real, this.stats);
  }

  private assertStillHere(): void {
    if (!this.stillHere()) throw new StaleHandleError(this.real);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch {
      // Nothing was written through it.
    }
  }
}
