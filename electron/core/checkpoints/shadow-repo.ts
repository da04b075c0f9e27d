/**
 * One workspace's private checkpoint repository: a git object store kept
 * next to the database (never inside the workspace), with the workspace as
 * its work tree. See docs/checkpoints.md.
 *
 * Contract:
 * - A snapshot is a git tree id. `snapshot` stages the whole work tree into
 *   the private index (`git add -A`: creations, edits, deletions, renames,
 *   modes and symlinks, skipping ignored paths) and writes the tree. The index
 *   is kept between snapshots, so git only rehashes files whose stat changed.
 * - When `git add` left the index byte-identical to the one the last
 *   `write-tree` saw (same trailing checksum), the tree is the same and
 *   `write-tree` is skipped: a command that changed nothing costs one process.
 * - Nothing here deletes objects except `collect`. The caller keeps the trees
 *   it needs alive by calling `keep` with all of them before `pack` or
 *   `collect` (refs `refs/checkpoints/<tree>`, written atomically by git), so
 *   a checkpoint costs no ref update and a process killed mid-snapshot leaves
 *   every earlier object intact.
 * - `restore(tree)` must follow a `snapshot` of the current state (the index
 *   then matches the work tree): it rewrites only the files that differ and
 *   deletes files the tree does not have. Ignored files are never touched.
 * - Methods are not safe to run concurrently on one repository: the caller
 *   serializes them (CheckpointService does). A lock file is removed only
 *   when no live process uses the repository (`clearStaleLocks`).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { join } from "node:path";
import { catFileBatch, git, GitError, type GitTarget } from "./git";
import { excludeFileText } from "./excludes";
import { repoUsers } from "./repo-users";

export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const REF_PREFIX = "refs/checkpoints/";
/** How long a lock's live owner is waited for: a killed core's git is killed by its watchdog at once; another core's finishes. */
const LOCK_OWNER_WAIT_MS = 30_000;
const LOCK_OWNER_POLL_MS = 50;

/** Another live process holds the repository's locks (another core, or a git that outlived its core). */
export class RepoBusy extends Error {
  override name = "RepoBusy";
  constructor(
    gitDir: string,
    readonly pids: number[],
  ) {
    super(`the checkpoint repository ${gitDir} is in use by another git process (pid ${pids.join(", ")}); try again when it has finished`);
  }
}

export type ChangeStatus = "added" | "modified" | "deleted" | "typeChanged";

export interface TreeChange {
  path: string;
  status: ChangeStatus;
  /** git modes: 100644 file, 100755 executable, 120000 symlink; null when absent on that side. */
  oldMode: string | null;
  newMode: string | null;
  oldId: string | null;
  newId: string | null;
}

/** The repository folder for a workspace: a hash of its real path, so renaming the app data never mixes workspaces. */
export function repoDirFor(root: string, workspacePath: string): string {
  const hash = createHash("sha256").update(workspacePath).digest("hex").slice(0, 16);
  return join(root, `${hash}.git`);
}

export class ShadowRepo {
  /** The index checksum right after the last `write-tree`, and the tree it wrote. */
  private lastWrite: { checksum: string; tree: string } | null = null;

  private constructor(private readonly target: GitTarget) {}

  get gitDir(): string {
    return this.target.gitDir;
  }

  /** Opens (creating if needed) the repository; clears lock files a killed process left behind. */
  static async open(gitDir: string, workTree: string, extraExcludes: readonly string[] = []): Promise<ShadowRepo> {
    const target = { gitDir, workTree };
    const repo = new ShadowRepo(target);
    if (!existsSync(join(gitDir, "HEAD"))) {
      mkdirSync(gitDir, { recursive: true });
      await git(target, ["init", "--quiet"]);
      await git(target, ["config", "core.bare", "false"]);
      // Reflogs would keep pruned checkpoints reachable.
      await git(target, ["config", "core.logAllRefUpdates", "false"]);
      writeFileSync(join(gitDir, "workbench-workspace"), workTree + "\n");
    }
    mkdirSync(join(gitDir, "info"), { recursive: true });
    writeFileSync(join(gitDir, "info", "exclude"), excludeFileText(extraExcludes));
    await repo.clearStaleLocks();
    return repo;
  }

  /** The lock files git may leave behind in our repository. */
  private lockFiles(): string[] {
    const found = ["index.lock", "packed-refs.lock", "HEAD.lock", "shallow.lock", "config.lock"]
      .map((name) => join(this.gitDir, name))
      .filter((p) => existsSync(p));
    const refs = join(this.gitDir, "refs", "checkpoints");
    if (existsSync(refs)) for (const name of readdirSync(refs)) if (name.endsWith(".lock")) found.push(join(refs, name));
    return found;
  }

  /**
   * Removes lock files whose owner is gone: no live process uses the
   * repository (a git of ours still running after its core was killed, or
   * another core's). While one does, waits for it (bounded: `waitMs`) and
   * keeps the locks if it is still there; so does a system whose processes
   * cannot be listed (except Windows, where a held file cannot be deleted).
   * Returns the pids still using it.
   */
  async clearStaleLocks(waitMs = LOCK_OWNER_WAIT_MS): Promise<number[]> {
    if (this.lockFiles().length === 0) return [];
    const deadline = Date.now() + waitMs;
    for (;;) {
      const users = await repoUsers(this.gitDir);
      // Windows cannot list them, but refuses to delete a file a live git holds open.
      if (!users.known && process.platform !== "win32") return [];
      if (!users.known) break;
      if (users.pids.length === 0) break;
      if (Date.now() >= deadline) return users.pids;
      await new Promise((resolve) => setTimeout(resolve, LOCK_OWNER_POLL_MS));
    }
    for (const lock of this.lockFiles()) {
      try {
        rmSync(lock, { force: true });
      } catch {
        // Still held open (Windows): its owner is alive, and the command that needs it reports that.
      }
    }
    return [];
  }

  /** Stages the work tree and returns its tree id (nothing is kept until `keep`). */
  async snapshot(): Promise<string> {
    // --ignore-errors: an unreadable file is skipped (exit 1), not a failed checkpoint. No pathspec: `--all` alone is
    // the whole work tree (git runs in its top folder), and a pathspec costs a match per path (docs/checkpoints.md).
    const add = ["add", "--all", "--ignore-errors"];
    try {
      await git(this.target, add, { okCodes: [0, 1] });
    } catch (err) {
      if (!(err instanceof GitError) || !/index\.lock/.test(err.stderr)) throw err;
      const users = await this.clearStaleLocks();
      if (users.length > 0) throw new RepoBusy(this.gitDir, users);
      await git(this.target, add, { okCodes: [0, 1] });
    }
    const last = this.lastWrite;
    if (last && last.checksum === (await this.indexChecksum())) return last.tree;
    this.lastWrite = null;
    // --missing-ok: skips an existence check of every blob in the changed folders; `git add` has just stored them, and
    // nothing deletes an object the index names (`git gc` keeps them).
    const tree = (await git(this.target, ["write-tree", "--missing-ok"])).toString("utf8").trim();
    const checksum = await this.indexChecksum();
    if (checksum) this.lastWrite = { checksum, tree };
    return tree;
  }

  /**
   * The index file's trailing checksum (a hash of everything before it), or
   * null when it cannot say whether the index changed (no index, or git's
   * `index.skipHash` zeroed it).
   */
  private async indexChecksum(): Promise<string | null> {
    let file;
    try {
      file = await open(join(this.gitDir, "index"), "r");
    } catch {
      return null;
    }
    try {
      const { size } = await file.stat();
      // 32 bytes cover SHA-256 repositories; for SHA-1 the last 20 are the checksum and the rest are entries it covers.
      const tail = Buffer.alloc(Math.min(32, size));
      await file.read(tail, 0, tail.length, size - tail.length);
      const hex = tail.toString("hex");
      return /^0*$/.test(hex.slice(-40)) ? null : `${size}:${hex}`;
    } finally {
      await file.close();
    }
  }

  /**
   * Makes sure every tree in `trees` survives `pack` and `collect` (one ref
   * per distinct tree); trees whose objects are gone are skipped.
   */
  async keep(trees: Iterable<string>): Promise<void> {
    const kept = new Set(await this.keptTrees());
    const wanted = [...new Set(trees)].filter((t) => !kept.has(t));
    if (wanted.length === 0) return;
    const present = await this.existingTrees(wanted);
    if (present.length === 0) return;
    await git(this.target, ["update-ref", "--stdin"], { input: present.map((t) => `update ${REF_PREFIX}${t} ${t}\n`).join("") });
  }

  private async existingTrees(ids: readonly string[]): Promise<string[]> {
    const out = await git(this.target, ["cat-file", "--batch-check=%(objectname) %(objecttype)"], { input: ids.join("\n") + "\n" });
    return out
      .toString("utf8")
      .split("\n")
      .filter((l) => l.endsWith(" tree"))
      .map((l) => l.split(" ")[0]);
  }

  async drop(trees: readonly string[]): Promise<void> {
    if (trees.length === 0) return;
    const input = trees.map((t) => `delete ${REF_PREFIX}${t}\n`).join("");
    await git(this.target, ["update-ref", "--stdin"], { input });
  }

  async keptTrees(): Promise<string[]> {
    const out = await git(this.target, ["for-each-ref", "--format=%(refname)", REF_PREFIX]);
    return out
      .toString("utf8")
      .split("\n")
      .filter(Boolean)
      .map((r) => r.slice(REF_PREFIX.length));
  }

  async hasTree(tree: string): Promise<boolean> {
    try {
      const t = (await git(this.target, ["cat-file", "-t", tree])).toString("utf8").trim();
      return t === "tree";
    } catch {
      // git cannot find it (pruned by the size cap): not there, which callers report as unavailable.
      return false;
    }
  }

  /** Files that differ between two trees (nested repositories, recorded as gitlinks, are left out). */
  async diff(from: string, to: string): Promise<TreeChange[]> {
    if (from === to) return [];
    const out = await git(this.target, ["diff-tree", "-r", "-z", "--no-renames", "--raw", "--no-abbrev", from, to]);
    const parts = out.toString("utf8").split("\0");
    const changes: TreeChange[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const meta = parts[i];
      const path = parts[i + 1];
      if (!meta.startsWith(":")) break;
      const [oldMode, newMode, oldId, newId, letter] = meta.slice(1).split(" ");
      if (oldMode === "160000" || newMode === "160000") continue;
      const absent = (mode: string) => mode === "000000";
      const status: ChangeStatus = letter === "A" ? "added" : letter === "D" ? "deleted" : letter === "T" ? "typeChanged" : "modified";
      changes.push({
        path,
        status,
        oldMode: absent(oldMode) ? null : oldMode,
        newMode: absent(newMode) ? null : newMode,
        oldId: absent(oldMode) ? null : oldId,
        newId: absent(newMode) ? null : newId,
      });
    }
    return changes;
  }

  /** Unified diff text between two trees (for exports). */
  async patch(from: string, to: string): Promise<string> {
    if (from === to) return "";
    const out = await git(this.target, ["diff-tree", "-r", "-p", "--no-renames", "--no-color", "--binary", "--full-index", from, to]);
    return out.toString("utf8");
  }

  /** Puts the work tree in the state of `tree`. Precondition: the last call was `snapshot()` of the current state. */
  async restore(tree: string): Promise<void> {
    await git(this.target, ["read-tree", "--reset", "-u", tree]);
  }

  async blobs(ids: readonly string[]): Promise<Map<string, Buffer>> {
    return catFileBatch(this.target, [...new Set(ids)]);
  }

  /** A file's mode and blob id in a tree, or null when the tree has no such file. */
  async entry(tree: string, path: string): Promise<{ mode: string; id: string } | null> {
    const out = (await git(this.target, ["ls-tree", "-z", "--full-tree", tree, "--", path])).toString("utf8");
    const first = out.split("\0")[0];
    if (!first) return null;
    const [meta] = first.split("\t");
    const [mode, type, id] = meta.split(" ");
    return type === "blob" ? { mode, id } : null;
  }

  async fileCount(tree: string): Promise<number> {
    const out = await git(this.target, ["ls-tree", "-r", "-z", "--name-only", "--full-tree", tree]);
    return out.toString("utf8").split("\0").filter(Boolean).length;
  }

  /** Bytes on disk of the whole repository (objects, packs, index, refs). */
  async diskUsage(): Promise<number> {
    return sizeOf(this.gitDir);
  }

  /** Packs loose objects (with deltas against earlier versions), keeping unreferenced ones. */
  async pack(): Promise<void> {
    await git(this.target, ["repack", "-d", "-q"]);
  }

  /** Deletes every object no kept tree reaches, and packs the rest. */
  async collect(): Promise<void> {
    // The last snapshot's tree may have had no checkpoint to keep it.
    this.lastWrite = null;
    await git(this.target, ["gc", "--prune=now", "--quiet"]);
  }

  async looseObjectCount(): Promise<number> {
    const out = (await git(this.target, ["count-objects", "-v"])).toString("utf8");
    const m = /^count: (\d+)$/m.exec(out);
    return m ? Number(m[1]) : 0;
  }
}

async function sizeOf(path: string): Promise<number> {
  let st;
  try {
    st = await lstat(path);
  } catch {
    // Removed while measuring: it takes no space.
    return 0;
  }
  if (!st.isDirectory()) return st.size;
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(path);
  } catch {
    return 0;
  }
  for (const name of names) total += await sizeOf(join(path, name));
  return total;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // Missing or unreadable: not a folder we can use.
    return false;
  }
}
