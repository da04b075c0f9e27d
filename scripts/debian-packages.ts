/**
 * Installing the Debian packages the tests need, one way for all of them
 * (ensure-chromium.ts, ensure-test-tools.ts): as root with apt, `apt-get
 * install`; otherwise the caller stops with one line saying what to install.
 * Never a stack trace.
 */
import { spawnSync } from "node:child_process";

export function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

/** Root on a machine with apt: the scripts may install what is missing. */
export function canInstallWithApt(): boolean {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  return isRoot && spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
}

/** `apt-get update` then `apt-get install` of the packages; true when both succeeded. */
export function aptInstall(packages: readonly string[]): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  if (update.status !== 0) return false;
  return spawnSync("apt-get", ["install", "-y", "-qq", ...packages], { stdio: "inherit", env }).status === 0;
}
