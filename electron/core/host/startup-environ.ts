/**
 * Wipes values out of the process's start-up environment, the block of
 * memory the kernel shows as /proc/<pid>/environ. Deleting from process.env
 * only unlinks the variable (unsetenv); the bytes stay there, and an
 * unsandboxed command running as the same user reads them through
 * /proc/$PPID/environ. The kernel reads that file from the live memory range
 * env_start..env_end (fields 50 and 51 of /proc/self/stat), so overwriting
 * the values there through /proc/self/mem removes them for good, as
 * setproctitle does for argv (docs/tool-sandbox.md#keys-out-of-reach-of-tools).
 *
 * Contract: never throws. Call it after the names were deleted from
 * process.env (nothing may read them from the C environment afterwards).
 */
import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { takeKeysFromEnv } from "../api/keys";

export type ScrubResult = { ok: true; wiped: string[] } | { ok: false; reason: string };

/** Where the start-up environment lives in this process's memory. */
function environRange(): { start: number; end: number } | null {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // Fields after the command name start at field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return null;
  return { start, end };
}

/** Overwrites with NUL bytes the value of every `NAME=value` entry whose NAME is in `names`. */
export function scrubStartupEnvironment(names: readonly string[]): ScrubResult {
  if (process.platform !== "linux") return { ok: false, reason: `no /proc/self/mem on ${process.platform}` };
  if (names.length === 0) return { ok: true, wiped: [] };
  let fd: number | null = null;
  try {
    const range = environRange();
    if (!range) return { ok: false, reason: "the environment's address range is not in /proc/self/stat" };
    fd = openSync("/proc/self/mem", "r+");
    const block = Buffer.alloc(range.end - range.start);
    readSync(fd, block, 0, block.length, range.start);
    const wanted = new Set(names);
    const wiped: string[] = [];
    let entry = 0;
    while (entry < block.length) {
      let stop = block.indexOf(0, entry);
      if (stop === -1) stop = block.length;
      const eq = block.indexOf(0x3d, entry); // "="
      if (eq !== -1 && eq < stop) {
        const name = block.toString("utf8", entry, eq);
        if (wanted.has(name) && stop > eq + 1) {
          writeSync(fd, Buffer.alloc(stop - eq - 1), 0, stop - eq - 1, range.start + eq + 1);
          wiped.push(name);
        }
      }
      entry = stop + 1;
    }
    return { ok: true, wiped };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Takes the provider keys out of this process for good: deleted from
 * process.env (no child inherits them) and wiped from the start-up
 * environment (no /proc/<pid>/environ shows them). Returns the copy the key
 * ring reads.
 */
export function takeKeysFromProcess(names: readonly string[]): Record<string, string | undefined> {
  const copy = takeKeysFromEnv(process.env, names);
  scrubStartupEnvironment(names.filter((name) => copy[name] !== undefined));
  return copy;
}
