/**
 * Which live processes use a checkpoint repository: the owners a lock file
 * in it may still have. Our git commands name the repository in their
 * arguments (`--git-dir=<repo>`) and environment (`GIT_DIR=<repo>`); another
 * core on the same data folder (web mode beside a headless run) or the git
 * of a core that was killed counts like our own.
 *
 * Contract: never throws; zombies do not count (they hold no file). Where
 * processes cannot be listed it answers "unknown" and the caller keeps the
 * locks (a lock deleted under a live git breaks its next index write).
 */
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";

export type RepoUsers = { known: true; pids: number[] } | { known: false };

export async function repoUsers(gitDir: string): Promise<RepoUsers> {
  if (process.platform === "linux") return procUsers(gitDir);
  if (process.platform === "win32") return { known: false };
  return psUsers(gitDir);
}

async function procUsers(gitDir: string): Promise<RepoUsers> {
  let names: string[];
  try {
    names = (await readdir("/proc")).filter((n) => /^\d+$/.test(n));
  } catch {
    // No /proc mounted: cannot tell.
    return { known: false };
  }
  const arg = Buffer.from(`--git-dir=${gitDir}\0`);
  const env = Buffer.from(`\0GIT_DIR=${gitDir}\0`);
  const self = String(process.pid);
  const found = await Promise.all(
    names.map(async (pid) => {
      if (pid === self) return null;
      try {
        const stat = await readFile(`/proc/${pid}/stat`, "utf8");
        if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return null;
        const cmdline = Buffer.concat([await readFile(`/proc/${pid}/cmdline`), Buffer.from([0])]);
        if (cmdline.includes(arg)) return Number(pid);
        // A process of another user hides its environment: its arguments were the check that mattered.
        const environ = await readFile(`/proc/${pid}/environ`).catch(() => null);
        return environ && Buffer.concat([Buffer.from([0]), environ, Buffer.from([0])]).includes(env) ? Number(pid) : null;
      } catch {
        // Exited between listing and reading: not a user.
        return null;
      }
    }),
  );
  return { known: true, pids: found.filter((p): p is number => p !== null) };
}

function psUsers(gitDir: string): Promise<RepoUsers> {
  return new Promise((resolve) => {
    execFile("ps", ["-A", "-o", "pid=,stat=,args="], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err) return resolve({ known: false });
      const pids: number[] = [];
      for (const line of String(stdout).split("\n")) {
        const m = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
        if (!m || m[2].startsWith("Z") || Number(m[1]) === process.pid) continue;
        const at = m[3].indexOf(`--git-dir=${gitDir}`);
        const next = at < 0 ? "" : m[3].charAt(at + `--git-dir=${gitDir}`.length);
        if (at >= 0 && (next === "" || next === " ")) pids.push(Number(m[1]));
      }
      resolve({ known: true, pids });
    });
  });
}
