/**
 * The Electron side of HostServices: the native folder dialog, the safeStorage
 * key store and the start-up notices.
 */
import { dialog, safeStorage, type BrowserWindow, type OpenDialogOptions } from "electron";
import { join } from "node:path";
import type { HostServices } from "../core/api/workbench";
import { createSafeStorageSecretStore, storageBackendNotice } from "./secret-store";

export const SECRETS_FILE = "secrets.json";

export interface HostServicesInput {
  userDataDir: string;
  /** The window the dialog belongs to (modal on it), if any. */
  parentWindow: () => BrowserWindow | null;
  log: (line: string) => void;
}

export function createHostServices(input: HostServicesInput): HostServices {
  const notices: string[] = [];
  // getSelectedStorageBackend exists on Linux only, and is meaningful only after "ready".
  const backend = process.platform === "linux" ? safeStorage.getSelectedStorageBackend() : undefined;
  const backendNotice = storageBackendNotice(process.platform, backend);
  if (backendNotice !== null) notices.push(backendNotice);
  const secrets = createSafeStorageSecretStore({
    safeStorage,
    filePath: join(input.userDataDir, SECRETS_FILE),
    onProblem: (message) => input.log(`secrets: ${message}`),
  });
  return {
    mode: "electron",
    secrets,
    secretsWhere: "the operating system's keychain",
    notices,
    async pickFolder() {
      const parent = input.parentWindow();
      const options: OpenDialogOptions = { title: "Open Workspace", properties: ["openDirectory", "createDirectory"] };
      const picked = parent === null ? await dialog.showOpenDialog(options) : await dialog.showOpenDialog(parent, options);
      if (picked.canceled || picked.filePaths.length === 0) return null;
      return picked.filePaths[0] ?? null;
    },
  };
}
