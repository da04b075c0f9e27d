/**
 * Runs git against the private checkpoint repository only.
 *
 * Contract: every command gets GIT_DIR (our repository, outside the
 * workspace) and GIT_WORK_TREE (the workspace); the user's own GIT_* variables,
 * global and system config, hooks and credential helpers are kept out, so a
 * checkpoint can neither read nor write the user's repository or settings.
 * Failures reject with a `GitError` carrying git's stderr. Each git runs in its
 * own process group, guarded so it dies with the core (process/child-guard.ts),
 * and names our repository in its arguments (`--git-dir=`), so a later start
 * can tell whether a lock file still has a live owner (repo-users.ts).
 */
import { execFile, spawn } from "node:child_process";
import { devNull } from "node:os";
import { guardGroup } from "../process/child-guard";

export class GitError extends Error {
  override name = "GitError";
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/** Config every command runs with (per invocation, so an old repository picks up changes). */
const CONFIG: readonly string[] = [
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.quotePath=false",
  "core.fsmonitor=false",
  "core.preloadIndex=true",
  // Each write of the index then rewrites only the entries changed since the shared base, not all of them (docs/checkpoints.md).
  "core.splitIndex=true",
  "core.hooksPath=" + devNull,
  "gc.auto=0",
  "maintenance.auto=false",
  "advice.addEmbeddedRepo=false",
  "advice.detachedHead=false",
  "commit.gpgSign=false",
  "credential.helper=",
  "user.name=Agent Workbench",
  "user.email=checkpoints@agent-workbench.invalid",
].flatMap((c) => ["-c", c]);

export interface GitTarget {
  gitDir: string;
  workTree: string;
}

/** The arguments before every command: the repository and work tree, also in the environment. */
export function targetArgs(target: GitTarget): string[] {
  return [`--git-dir=${target.gitDir}`, `--work-tree=${target.workTree}`];
}

/**
 * glibc malloc settings for our git processes on Linux: the heap grows 8 MB at
 * a time and is backed by transparent huge pages where the system allows them
 * (ignored elsewhere, and when THP is off). Loading a 20,000-entry index then
 * takes about 250 page faults instead of 1,000, which on a virtual machine is
 * a fifth of a checkpoint's CPU time (docs/checkpoints.md). A value the user
 * set comes after ours, so theirs wins.
 */
const MALLOC_TUNABLES = "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=8388608";

function mallocTunables(): Record<string, string> {
  if (process.platform !== "linux") return {};
  const own = process.env.GLIBC_TUNABLES;
  return { GLIBC_TUNABLES: own ? `${MALLOC_TUNABLES}:${own}` : MALLOC_TUNABLES };
}

function environment(target: GitTarget, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // GIT_DIR, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY… from a parent git would point us at the user's repository.
    if (!k.startsWith("GIT_")) env[k] = v;
  }
  return {
    ...env,
    GIT_DIR: target.gitDir,
    GIT_WORK_TREE: target.workTree,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: devNull,
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    LC_ALL: "C",
    ...mallocTunables(),
    ...extra,
  };
}

export interface GitRunOptions {
  input?: string | Buffer;
  /** Exit codes that are not failures (default [0]). */
  okCodes?: number[];
  env?: Record<string, string>;
  /** Bytes of stdout to accept (default 256 MiB). */
  maxBuffer?: number;
}

/** Runs `git <args>` with the workspace as cwd; resolves stdout as a Buffer. */
export function git(target: GitTarget, args: readonly string[], options: GitRunOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // spawn, not execFile: execFile drops `detached`, and each git needs its own group to be killed with the core.
    const child = spawn("git", [...targetArgs(target), ...CONFIG, ...args], {
      cwd: target.workTree,
      env: environment(target, options.env),
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      windowsHide: true,
      detached: true,
    });
    const release = guardGroup(child.pid);
    const maxBuffer = options.maxBuffer ?? 256 * 1024 * 1024;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let failure: Error | null = null;
    child.stdout?.on("data", (c: Buffer) => {
      outBytes += c.length;
      if (outBytes > maxBuffer) {
        failure ??= new Error(`stdout passed ${maxBuffer} bytes`);
        child.kill("SIGKILL");
      } else out.push(c);
    });
    child.stderr?.on("data", (c: Buffer) => err.push(c));
    child.on("error", (e) => (failure ??= e));
    child.on("close", (exitCode) => {
      release();
      const code = failure ? null : exitCode;
      const ok = options.okCodes ?? [0];
      if (code !== null && ok.includes(code)) return resolve(Buffer.concat(out));
      const text = Buffer.concat(err).toString("utf8").trim();
      const why = text ? `: ${text.split("\n").slice(-3).join(" / ")}` : failure ? `: ${failure.message}` : "";
      reject(new GitError(`git ${args[0]} failed${why}`, code, text));
    });
    if (options.input !== undefined) {
      // EPIPE when git exits before reading it all: its exit status says what went wrong.
      child.stdin?.on("error", () => undefined);
      child.stdin?.end(options.input);
    }
  });
}

/** `git cat-file --batch` over many objects in one process. */
export function catFileBatch(target: GitTarget, ids: readonly string[]): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, Buffer>();
    if (ids.length === 0) return resolve(out);
    const child = spawn("git", [...targetArgs(target), ...CONFIG, "cat-file", "--batch"], {
      cwd: target.workTree,
      env: environment(target),
      windowsHide: true,
      detached: true,
    });
    const release = guardGroup(child.pid);
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.on("error", (err) => {
      release();
      reject(err);
    });
    child.on("close", (code) => {
      release();
      if (code !== 0) return reject(new GitError(`git cat-file failed: ${stderr.trim()}`, code, stderr));
      const all = Buffer.concat(chunks);
      let pos = 0;
      for (const id of ids) {
        const nl = all.indexOf(10, pos);
        if (nl < 0) break;
        const header = all.subarray(pos, nl).toString("utf8");
        pos = nl + 1;
        if (header.endsWith(" missing")) continue;
        const size = Number(header.split(" ")[2]);
        out.set(id, all.subarray(pos, pos + size));
        pos += size + 1;
      }
      resolve(out);
    });
    child.stdin.end(ids.join("\n") + "\n");
  });
}

let versionCheck: Promise<string | null> | null = null;

/** git's version string, or null when git cannot be run (checkpoints are then off). */
export function gitVersion(): Promise<string | null> {
  versionCheck ??= new Promise((resolve) => {
    execFile("git", ["--version"], { windowsHide: true }, (err, stdout) =>
      resolve(
        err
          ? null
          : String(stdout)
              .trim()
              .replace(/^git version /, ""),
      ),
    );
  });
  return versionCheck;
}
