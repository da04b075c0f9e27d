/**
 * Opens the workbench core for the desktop app: the session database under
 * userData, loaded through the Electron-ABI better-sqlite3 binding.
 *
 * Contract: never throws; a core that cannot open comes back as a message for
 * the error dialog.
 */
import type { HostServices, Workbench } from "../core/api/workbench";

export const DB_FILE = "workbench.sqlite";

export interface OpenCoreInput {
  userDataDir: string;
  host: HostServices;
  /** Path of the Electron-ABI better_sqlite3.node, or null when it was not built. */
  nativeBinding: string | null;
  argv: readonly string[];
  isPackaged: boolean;
}

export type OpenCoreResult = { ok: true; workbench: Workbench } | { ok: false; message: string };

export async function openCore(input: OpenCoreInput): Promise<OpenCoreResult> {
  if (input.nativeBinding === null) {
    return {
      ok: false,
      message: input.isPackaged
        ? "The SQLite module for this platform is missing from the installation. Please reinstall Agent Workbench."
        : "better-sqlite3 has not been built for Electron. Run `npm run rebuild:native` (npm start does it for you) and start again.",
    };
  }
  return { ok: false, message: "The workbench core is not wired yet (createWorkbench has not landed)." };
}
