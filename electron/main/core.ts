/**
 * Starts the workbench core for the desktop app: the session database under
 * userData, opened through the Electron-ABI better-sqlite3 binding, with the
 * Electron HostServices (dialog, safeStorage, notices).
 *
 * Contract: never throws; a core that cannot start comes back as a message
 * for the error dialog.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { WorkbenchOptions } from "../core/api/create-workbench";
import type { HostServices, Workbench } from "../core/api/workbench";
import { startCore } from "../core/host/start-core";

export const DB_FILE = "workbench.sqlite";

export interface OpenCoreInput {
  userDataDir: string;
  host: HostServices;
  version: string;
  /** Path of the Electron-ABI better_sqlite3.node, or null when it was not built. */
  nativeBinding: string | null;
  isPackaged: boolean;
  workspace?: string;
  demo: boolean;
  /** Electron's net.fetch for the provider SDK clients (see network.ts). */
  providerFetch?: WorkbenchOptions["providerFetch"];
}

export type OpenCoreResult =
  { ok: true; workbench: Workbench; dbPath: string; close: () => Promise<void> } | { ok: false; message: string };

export async function openCore(input: OpenCoreInput): Promise<OpenCoreResult> {
  if (input.nativeBinding === null) {
    return {
      ok: false,
      message: input.isPackaged
        ? "The SQLite module for this platform is missing from the installation. Please reinstall Agent Workbench."
        : "better-sqlite3 has not been built for Electron. Run `npm run rebuild:native` (npm start does it for you) and start again.",
    };
  }
  const dbPath = join(input.userDataDir, DB_FILE);
  try {
    mkdirSync(input.userDataDir, { recursive: true });
    const options = {
      dbPath,
      host: input.host,
      version: input.version,
      demo: input.demo ? true : ("auto" as const),
      initialWorkspace: input.workspace,
      nativeBinding: input.nativeBinding,
      providerFetch: input.providerFetch,
    };
    const core = await startCore(options);
    return { ok: true, workbench: core.workbench, dbPath, close: () => core.close() };
  } catch (e) {
    return { ok: false, message: `The session database ${dbPath} could not be opened: ${e instanceof Error ? e.message : String(e)}` };
  }
}
