/**
 * Whether the Electron binary is installed. Its download is skipped at npm
 * install (package.json allowScripts), so on offline machines it is absent.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Path of the Electron executable, or null when node_modules/electron/dist has no binary. */
export function electronBinary(projectRoot: string): string | null {
  const dir = join(projectRoot, "node_modules", "electron");
  let rel: string;
  try {
    rel = readFileSync(join(dir, "path.txt"), "utf8").trim();
  } catch {
    return null;
  }
  const exe = join(dir, "dist", rel);
  return existsSync(exe) ? exe : null;
}
