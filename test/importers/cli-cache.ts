/**
 * The agents' real CLIs from npm, installed once per pinned version into a
 * cache outside the repo (AGENT_CLI_CACHE, else <tmpdir>/agent-workbench-cli-cache),
 * each into a folder of its own that appears only when its install finished.
 * Returns null with the reason when the install cannot be done here.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CLI_CACHE = process.env.AGENT_CLI_CACHE ?? join(tmpdir(), "agent-workbench-cli-cache");

export interface InstalledCli {
  dir: string;
  /** ms the install took (0: it was cached). */
  installMs: number;
}

export async function ensureCli(pkg: string, version: string): Promise<InstalledCli | { error: string }> {
  const dir = join(CLI_CACHE, `${pkg.replace(/[@/]/g, "_")}-${version}`);
  if (existsSync(join(dir, ".installed"))) return { dir, installMs: 0 };
  mkdirSync(CLI_CACHE, { recursive: true });
  const staging = mkdtempSync(join(CLI_CACHE, ".installing-"));
  const started = Date.now();
  const result = await new Promise<string | null>((resolve) => {
    execFile(
      "npm",
      ["install", "--no-save", "--no-audit", "--no-fund", "--no-package-lock", "--prefix", staging, `${pkg}@${version}`],
      { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
      (err, _stdout, stderr) => resolve(err ? `${err.message}\n${stderr}`.slice(0, 2000) : null),
    );
  });
  if (result !== null) {
    rmSync(staging, { recursive: true, force: true });
    return { error: `npm install ${pkg}@${version} failed: ${result}` };
  }
  writeFileSync(join(staging, ".installed"), `${pkg}@${version}\n`);
  try {
    renameSync(staging, dir);
  } catch {
    // Another test process installed it first: use theirs.
    rmSync(staging, { recursive: true, force: true });
  }
  return { dir, installMs: Date.now() - started };
}
