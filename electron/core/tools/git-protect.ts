/**
 * What of each git repository in the workspace a sandboxed command must not
 * change, because the user's own git, run later outside any sandbox, would
 * run what it says (docs/tool-sandbox.md#git-config-and-hooks): the config
 * (core.fsmonitor, aliases, diff.external, filters, core.hooksPath …), the
 * hooks, info/ (attributes), commondir (where the config is read from),
 * config.worktree, modules/ and worktrees/ (the git folders of submodules and
 * linked worktrees), `.gitmodules`, and a worktree's `.git` pointer file.
 *
 * An existing file or folder becomes read-only; the git folder and the
 * folders above it are pinned (bound onto themselves, so they cannot be
 * renamed away with the read-only parts inside and rebuilt). A path that does
 * not exist, or is a symbolic link, cannot be mounted over: it is watched,
 * and a change is reported after the run.
 */
import { lstat, open, realpath } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { isInside } from "./sandbox";
import { sameStamp, type FileStamp, type GitEntry } from "./workspace-scan";

/** In a git folder: what makes git run programs or read config from elsewhere. */
export const GIT_CONTROL = ["config", "config.worktree", "commondir", "hooks", "info", "modules", "worktrees"] as const;

/** Repositories protected by mounts; more are only watched (bubblewrap takes at most 9000 arguments). */
export const MAX_PROTECTED_REPOS = 32;

export interface Watched {
  /** Absolute path. */
  path: string;
  /** Its lstat before the run, or null when it did not exist. */
  before: PathStamp | null;
  /** What it is, for the report. */
  why: string;
  /** The workspace root's `.git`, absent before the run: a repository may be created there (git init), and is reported. */
  newRepository?: true;
}

export interface PathStamp extends FileStamp {
  kind: "file" | "dir" | "link" | "other";
}

export interface GitProtection {
  /** Folders bound onto themselves, outermost first. */
  pin: string[];
  /** Existing files and folders bound read-only. */
  readOnly: string[];
  /** What no mount could protect: compared after the run. */
  watch: Watched[];
}

export async function stampOf(path: string): Promise<PathStamp | null> {
  try {
    const s = await lstat(path);
    const kind = s.isSymbolicLink() ? "link" : s.isDirectory() ? "dir" : s.isFile() ? "file" : "other";
    return { kind, dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
  } catch {
    return null;
  }
}

export const samePathStamp = (a: PathStamp | null, b: PathStamp | null): boolean =>
  a === null || b === null ? a === b : a.kind === b.kind && sameStamp(a, b);

/** `gitdir: <path>` or `<path>` (commondir), resolved against `base`; null when unreadable. */
async function pointerTarget(file: string, base: string, prefix: "gitdir:" | ""): Promise<string | null> {
  try {
    const handle = await open(file, "r");
    try {
      const buf = Buffer.alloc(4096);
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      const line = buf.subarray(0, bytesRead).toString("utf8").split("\n")[0].trim();
      if (!line.startsWith(prefix)) return null;
      const target = line.slice(prefix.length).trim();
      return target ? await realpath(resolve(base, target)) : null;
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/**
 * The protection for the `.git` entries a scan found. The workspace root's
 * own `.git` is watched when absent: a repository created there is reported.
 */
export async function planGitProtection(root: string, entries: readonly GitEntry[]): Promise<GitProtection> {
  const pin = new Set<string>();
  const readOnly = new Set<string>();
  const watch = new Map<string, Watched>();
  const done = new Set<string>();
  const underReadOnly = (p: string) => [...readOnly].some((r) => isInside(r, p));

  const watchPath = async (path: string, why: string, newRepository?: true) => {
    if (!watch.has(path)) watch.set(path, { path, before: await stampOf(path), why, ...(newRepository ? { newRepository } : {}) });
  };
  /** Read-only if it is a real file or folder; a link is watched, and what it leads to inside the workspace is protected too. */
  const protectPath = async (path: string, why: string): Promise<string | null> => {
    const stamp = await stampOf(path);
    if (stamp && (stamp.kind === "file" || stamp.kind === "dir")) {
      if (!underReadOnly(path)) readOnly.add(path);
      return path;
    }
    await watchPath(path, why);
    if (stamp?.kind !== "link") return null;
    const target = await realpath(path).catch(() => null);
    if (target && isInside(root, target) && target !== root && !underReadOnly(target)) readOnly.add(target);
    return null;
  };
  const pinFolders = (dir: string) => {
    // Every folder from just below the root down to `dir`: none of them can be renamed away.
    const parts = relative(root, dir).split(sep);
    for (let i = 1; i <= parts.length; i++) pin.add(join(root, ...parts.slice(0, i)));
  };
  const protectGitDir = async (gitDir: string, repos: { n: number }) => {
    if (done.has(gitDir) || underReadOnly(gitDir) || !isInside(root, gitDir) || gitDir === root) return;
    done.add(gitDir);
    const rel = relative(root, gitDir);
    if (repos.n++ >= MAX_PROTECTED_REPOS) {
      for (const name of ["config", "hooks", "commondir"]) await watchPath(join(gitDir, name), `git ${name} of ${rel}`);
      return;
    }
    pinFolders(gitDir);
    for (const name of GIT_CONTROL) await protectPath(join(gitDir, name), `git ${name}`);
    const common = await pointerTarget(join(gitDir, "commondir"), gitDir, "");
    if (common) await protectGitDir(common, repos);
  };

  const repos = { n: 0 };
  if (!entries.some((e) => e.rel === ".git")) await watchPath(join(root, ".git"), "a new git repository", true);
  // Shallow first: the root's repository is the one the user's git runs in most.
  const sorted = [...entries].sort((a, b) => a.rel.split("/").length - b.rel.split("/").length);
  for (const entry of sorted) {
    const path = join(root, ...entry.rel.split("/"));
    const worktree = dirname(path);
    await protectPath(join(worktree, ".gitmodules"), "submodule list");
    if (entry.kind === "dir") {
      await protectGitDir(path, repos);
      continue;
    }
    if (entry.kind === "link") {
      await watchPath(path, "git folder link");
      const target = await realpath(path).catch(() => null);
      if (target) await protectGitDir(target, repos);
      continue;
    }
    // A worktree's or submodule's pointer: `gitdir: <folder>`.
    if (worktree !== root) pinFolders(worktree);
    await protectPath(path, "git folder pointer");
    const target = await pointerTarget(path, worktree, "gitdir:");
    if (target) await protectGitDir(target, repos);
  }
  const depth = (p: string) => p.split(sep).length;
  return {
    pin: [...pin].filter((p) => !underReadOnly(p)).sort((a, b) => depth(a) - depth(b)),
    readOnly: [...readOnly].sort((a, b) => depth(a) - depth(b)),
    watch: [...watch.values()],
  };
}
