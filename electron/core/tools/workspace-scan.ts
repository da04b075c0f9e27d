/**
 * One walk of the workspace before and after a sandboxed command
 * (docs/tool-sandbox.md#what-a-write-can-still-reach): the regular files
 * that have a name outside the workspace (more hard links than the walk
 * found inside), and every `.git` entry (repositories, worktree and
 * submodule pointers). The walk runs in a worker thread with synchronous
 * calls (5× faster than the promise API, and the main process stays free),
 * does not follow links, and stops at a bound on entries and time, saying so.
 *
 * Contract: `scanWorkspace` never rejects; a failed or aborted walk comes
 * back as `complete: false` with what it found.
 */
import { Worker } from "node:worker_threads";

/** What identifies a file's contents and metadata without reading it: any write or chmod moves ctime. */
export interface FileStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface GitEntry {
  /** Workspace-relative path of the `.git` entry ("/"-separated). */
  rel: string;
  kind: "dir" | "file" | "link";
}

export interface WorkspaceScan {
  /** Workspace-relative paths of regular files with a hard link outside the workspace. */
  linked: Map<string, FileStamp>;
  git: GitEntry[];
  entries: number;
  /** False when the walk stopped at its bound or failed: files past that point are not covered. */
  complete: boolean;
  /** The stamps of the `recheck` paths, in order (null: gone, or no longer a regular file). */
  rechecked: (FileStamp | null)[];
}

export interface ScanLimits {
  maxEntries: number;
  maxMs: number;
}

/** ~1 s of walking on a quiet machine (43 k entries took 130 ms); a bigger workspace is covered partly and the card says so. */
export const SCAN_LIMITS: ScanLimits = { maxEntries: 300_000, maxMs: 5_000 };

// Plain JavaScript evaluated in the worker: no module to locate in a bundled app.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { readdirSync, lstatSync } = require("node:fs");
const { root, maxEntries, maxMs, recheck } = workerData;
const started = Date.now();
const byInode = new Map();
const git = [];
let entries = 0;
let complete = true;
const stack = [""];
walk: while (stack.length > 0) {
  const rel = stack.pop();
  let dirents;
  try {
    dirents = readdirSync(rel === "" ? root : root + "/" + rel, { withFileTypes: true });
  } catch {
    continue;
  }
  for (const d of dirents) {
    if (++entries > maxEntries || (entries % 1024 === 0 && Date.now() - started > maxMs)) {
      complete = false;
      break walk;
    }
    const child = rel === "" ? d.name : rel + "/" + d.name;
    if (d.name === ".git") git.push([child, d.isDirectory() ? "dir" : d.isSymbolicLink() ? "link" : "file"]);
    if (d.isDirectory()) stack.push(child);
    else if (d.isFile()) {
      let s;
      try {
        s = lstatSync(root + "/" + child);
      } catch {
        continue;
      }
      if (s.nlink < 2 || !s.isFile()) continue;
      const key = s.dev + ":" + s.ino;
      const seen = byInode.get(key);
      if (seen) seen.names.push(child);
      else byInode.set(key, { nlink: s.nlink, names: [child], stamp: [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs] });
    }
  }
}
const linked = [];
// All of a file's names inside the workspace: a write through one changes nothing outside.
for (const f of byInode.values()) if (f.names.length < f.nlink) for (const n of f.names) linked.push([n, ...f.stamp]);
// Files found before, looked at again whatever the walk reached this time.
const stamps = recheck.map((rel) => {
  try {
    const s = lstatSync(root + "/" + rel);
    return s.isFile() ? [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs] : null;
  } catch {
    return null;
  }
});
parentPort.postMessage({ linked, git, entries, complete, stamps });
`;

type Stamp = [number, number, number, number, number];
type Reply = {
  linked: [string, ...Stamp][];
  git: [string, GitEntry["kind"]][];
  entries: number;
  complete: boolean;
  stamps: (Stamp | null)[];
};

const failed = (): WorkspaceScan => ({ linked: new Map(), git: [], entries: 0, complete: false, rechecked: [] });
const stampOf = ([dev, ino, size, mtimeMs, ctimeMs]: Stamp): FileStamp => ({ dev, ino, size, mtimeMs, ctimeMs });

/** Walks `root`; `recheck` are workspace-relative files to stamp again (a previous scan's `linked`). */
export function scanWorkspace(
  root: string,
  options: { signal?: AbortSignal; limits?: ScanLimits; recheck?: readonly string[] } = {},
): Promise<WorkspaceScan> {
  const { signal, limits = SCAN_LIMITS, recheck = [] } = options;
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(failed());
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { root, ...limits, recheck } });
    let done = false;
    const finish = (scan: WorkspaceScan) => {
      if (done) return;
      done = true;
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      resolve(scan);
    };
    const onAbort = () => finish(failed());
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (m: Reply) => {
      const linked = new Map<string, FileStamp>();
      for (const [rel, ...stamp] of m.linked) linked.set(rel, stampOf(stamp));
      finish({
        linked,
        git: m.git.map(([rel, kind]) => ({ rel, kind })),
        entries: m.entries,
        complete: m.complete,
        rechecked: m.stamps.map((s) => (s ? stampOf(s) : null)),
      });
    });
    worker.on("error", () => finish(failed()));
    worker.on("exit", () => finish(failed()));
  });
}

export const sameStamp = (a: FileStamp, b: FileStamp): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
