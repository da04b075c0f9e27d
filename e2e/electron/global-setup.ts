/**
 * Before the Electron specs: print the one skip line when Electron cannot run
 * here; otherwise build the bundles and better-sqlite3 for Electron's ABI.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ensureElectronNative } from "../../scripts/rebuild-native";
import { ROOT, electronSkipReason } from "./electron-env";
import { MODELS_URL_ENV } from "../../electron/core/providers/catalog/live-catalog";

export default async function globalSetup(): Promise<void> {
  // The app under test fetches no model catalog from the network (its env is this process's).
  process.env[MODELS_URL_ENV] ??= "off";
  const skip = electronSkipReason();
  if (skip !== null) {
    console.log(skip);
    return;
  }
  const native = await ensureElectronNative({ root: ROOT, log: (line) => console.log(line) });
  if (!native.ok) throw new Error(`Electron e2e: ${native.message}`);
  const build = spawnSync(process.execPath, [join(ROOT, "node_modules", "electron-vite", "bin", "electron-vite.js"), "build"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("Electron e2e: electron-vite build failed");
}
