/**
 * Seeing a command's processes from the host side. Inside the bash sandbox
 * (its own PID namespace) `$$` and `$!` are namespace pids that mean nothing
 * to the host, so tests find processes by a unique command line instead and
 * check them with host pids, which is what "the command was killed" means to
 * the user whether or not a sandbox runs it.
 */
import { readdirSync, readFileSync } from "node:fs";

/** A `sleep` duration unique to one test: a marker in the command line. */
export function uniqueSleep(): string {
  return `${300 + Math.floor(Math.random() * 10_000)}.${1 + Math.floor(Math.random() * 98)}`;
}

/** Host pids of live (non-zombie) processes whose argv is exactly `argv`. */
export function hostPids(argv: readonly string[]): number[] {
  const want = argv.join("\0") + "\0";
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8") !== want) continue;
      if (isAlive(Number(name))) found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** Alive and not a zombie (a container's PID 1 may not reap orphans). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
