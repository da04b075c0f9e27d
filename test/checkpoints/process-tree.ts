/**
 * Killing a child "core" the ways a laptop does, and seeing what is left:
 * its whole process tree at once (the OOM killer on a cgroup, a session
 * logout), the core alone (`kill -9 <pid>`), or the core and everything of
 * it except its git (a git that outlives its core). Linux /proc only.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { buildSync } from "esbuild";
import { isAlive } from "../tools/host-processes";

const REPO = resolve(__dirname, "../..");

/** Bundles a fixture once (a bundled child starts in a fraction of tsx's time); returns the runnable file and its cleanup. */
export function bundleFixture(entry: string): { file: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "wb-fixture-"));
  // The native module stays outside the bundle and is found through this link.
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  const file = join(dir, "child.mjs");
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: file,
    external: ["better-sqlite3"],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: "error",
  });
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunningChild {
  child: ChildProcessByStdio<null, Readable, Readable>;
  pid: number;
  /** Every line printed so far. */
  lines: string[];
  stderr(): string;
  /** Resolves with the first line (past or future) matching. */
  line(re: RegExp): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startChild(file: string, args: readonly string[]): RunningChild {
  const child = spawn(process.execPath, [file, ...args], { stdio: ["ignore", "pipe", "pipe"], detached: true });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let buf = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => {
    buf += c.toString();
    const parts = buf.split("\n");
    buf = parts.pop() ?? "";
    lines.push(...parts);
    for (const w of [...waiters]) w();
  });
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on("exit", (code, signal) => {
      for (const w of [...waiters]) w();
      done({ code, signal });
    }),
  );
  const line = (re: RegExp) =>
    new Promise<string>((done, fail) => {
      const check = () => {
        const found = lines.find((l) => re.test(l));
        if (found !== undefined) {
          waiters.delete(check);
          done(found);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          waiters.delete(check);
          fail(new Error(`child exited before printing ${re}: ${err}`));
        }
      };
      waiters.add(check);
      check();
    });
  return { child, pid: child.pid!, lines, stderr: () => err, line, exited };
}

function parentOf(pid: string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    // Gone while we looked.
    return null;
  }
}

/** Every live descendant of `pid` (children, theirs, …). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(name);
    if (parent === null) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out.filter(isAlive);
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** SIGKILL to the core and every process under it, frozen first so it starts no more. */
export function killTree(pid: number): void {
  process.kill(pid, "SIGSTOP");
  const all = descendants(pid);
  kill(pid);
  for (const p of all) kill(p);
}

/** SIGKILL to the core alone: its children live on unless something kills them. */
export function killCore(pid: number): void {
  kill(pid);
}

/** SIGKILL to the core and all under it but `spare` (its git): the git outlives its core. */
export function killAllBut(pid: number, spare: (pid: number) => boolean): number[] {
  process.kill(pid, "SIGSTOP");
  const all = descendants(pid);
  const spared = all.filter(spare);
  kill(pid);
  for (const p of all) if (!spared.includes(p)) kill(p);
  return spared;
}

/** Live processes using a checkpoint repository, seen from outside: its path in their arguments or GIT_DIR. */
export function repoProcesses(gitDir: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      const environ = readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
      if ((cmdline.includes(`--git-dir=${gitDir}`) || environ.includes(`GIT_DIR=${gitDir}`)) && isAlive(Number(name)))
        found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}
