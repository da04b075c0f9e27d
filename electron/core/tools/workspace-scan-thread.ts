/**
 * The worker thread of workspace-scan.ts: walks the workspace with lstat and
 * readdir only (never opens a file), within the job's entry and time bounds,
 * and answers once per job.
 */
import { lstatSync, readdirSync, type Dirent, type Stats } from "node:fs";
import { parentPort } from "node:worker_threads";

type Stamp = [number, number, number, number, number];
type GitKind = "dir" | "file" | "link";
interface Limits {
  maxEntries: number;
  maxMs: number;
}
export type ScanJob = Limits &
  ({ op: "full"; root: string } | { op: "changes"; root: string; dirs: [string, number, number][]; recheck: readonly string[] });

const stampOf = (s: Stats): Stamp => [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs];

function walker(job: ScanJob) {
  const started = Date.now();
  const w = {
    entries: 0,
    complete: true,
    git: [] as [string, GitKind][],
    /** Counts the entry about to be handled; past a bound it is not handled (nor counted) and the walk stops. */
    over(): boolean {
      if (++w.entries > job.maxEntries || (w.entries % 1024 === 0 && Date.now() - started > job.maxMs)) {
        w.entries--;
        w.complete = false;
      }
      return !w.complete;
    },
    read(rel: string): Dirent[] {
      try {
        return readdirSync(rel === "" ? job.root : `${job.root}/${rel}`, { withFileTypes: true });
      } catch {
        return [];
      }
    },
    noteGit(child: string, d: Dirent): void {
      if (d.name === ".git") w.git.push([child, d.isDirectory() ? "dir" : d.isSymbolicLink() ? "link" : "file"]);
    },
  };
  return w;
}

function full(job: ScanJob & { op: "full" }) {
  const w = walker(job);
  const byInode = new Map<string, { nlink: number; names: string[]; stamp: Stamp }>();
  const dirs: [string, number, number][] = [];
  const stack = [""];
  walk: while (stack.length > 0) {
    const rel = stack.pop() as string;
    try {
      const s = lstatSync(rel === "" ? job.root : `${job.root}/${rel}`);
      dirs.push([rel, s.ino, s.ctimeMs]);
    } catch {
      continue;
    }
    for (const d of w.read(rel)) {
      if (w.over()) break walk;
      const child = rel === "" ? d.name : `${rel}/${d.name}`;
      w.noteGit(child, d);
      if (d.isDirectory()) stack.push(child);
      else if (d.isFile()) {
        let s: Stats;
        try {
          s = lstatSync(`${job.root}/${child}`);
        } catch {
          continue;
        }
        if (s.nlink < 2 || !s.isFile()) continue;
        const key = `${s.dev}:${s.ino}`;
        const seen = byInode.get(key);
        if (seen) seen.names.push(child);
        else byInode.set(key, { nlink: s.nlink, names: [child], stamp: stampOf(s) });
      }
    }
  }
  const linked: [string, Stamp][] = [];
  // All of a file's names inside the workspace: a write through one changes nothing outside.
  for (const f of byInode.values()) if (f.names.length < f.nlink) for (const n of f.names) linked.push([n, f.stamp]);
  return { linked, git: w.git, dirs, entries: w.entries, complete: w.complete };
}

function changes(job: ScanJob & { op: "changes" }) {
  const w = walker(job);
  const known = new Map(job.dirs.map(([rel, ino, ctimeMs]) => [rel, [ino, ctimeMs] as const]));
  const stack: string[] = [];
  for (const [rel, was] of known) {
    let s: Stats;
    try {
      s = lstatSync(rel === "" ? job.root : `${job.root}/${rel}`);
    } catch {
      continue;
    }
    if (!s.isDirectory() || s.ino !== was[0] || s.ctimeMs !== was[1]) stack.push(rel);
  }
  walk: while (stack.length > 0) {
    const rel = stack.pop() as string;
    for (const d of w.read(rel)) {
      if (w.over()) break walk;
      const child = rel === "" ? d.name : `${rel}/${d.name}`;
      w.noteGit(child, d);
      // A folder new here (made, or moved in from elsewhere in the workspace) is read in full.
      if (d.isDirectory() && !known.has(child)) stack.push(child);
    }
  }
  const rechecked = job.recheck.map((rel) => {
    try {
      const s = lstatSync(`${job.root}/${rel}`);
      return s.isFile() ? stampOf(s) : null;
    } catch {
      return null;
    }
  });
  return { rechecked, git: w.git, entries: w.entries, complete: w.complete };
}

const port = parentPort;
port?.on("message", (job: ScanJob) => {
  try {
    port.postMessage({ ok: true, value: job.op === "full" ? full(job) : changes(job) });
  } catch (err) {
    port.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
