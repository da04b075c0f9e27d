/**
 * The Electron main process: one hardened window over the workbench core.
 * Everything the agent does happens in electron/core (plain Node); this file
 * only wires windows, menus, dialogs, safeStorage and IPC around it.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell } from "electron";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { registerAppScheme, serveRenderer } from "./app-protocol";
import { parseAppArgs } from "./args";
import { openCore } from "./core";
import { hardenSession, hardenWebContents } from "./harden";
import { installProcessGuard } from "../core/host/process-guard";
import { createHostServices } from "./host-services";
import { registerWorkbenchIpc } from "./ipc";
import { buildMenuTemplate } from "./menu";
import { desktopProviderFetch } from "./network";
import { resolveNativeBinding } from "./native-binding";
import { APP_ENTRY_URL, externalUrlToOpen } from "./url-policy";
import { createWindowOptions } from "./window-options";

const here = fileURLToPath(new URL(".", import.meta.url));
const log = (line: string) => console.log(`[main] ${line}`);
// First: a missed catch in the core or here is logged and reported, never the end of the app (process-guard.ts).
const guard = installProcessGuard(log);

const args = parseAppArgs(process.argv, app.isPackaged, process.cwd());
// Before "ready" and before anything reads userData (safeStorage, the database, Chromium's profile).
if (args.userDataDir !== undefined) app.setPath("userData", args.userDataDir);

// Renderer processes are sandboxed even if a window is ever created without the option.
app.enableSandbox();
registerAppScheme();

let mainWindow: BrowserWindow | null = null;
let closeCore: (() => Promise<void>) | null = null;

function openExternal(url: string): void {
  // Re-checked here: every caller goes through the same allow-list (checklist item 15).
  const safe = externalUrlToOpen(url);
  if (safe === null) return;
  shell.openExternal(safe).catch(() => log("could not open a link in the system browser"));
}

function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow(
    createWindowOptions({
      preloadPath: join(here, "../preload/index.cjs"),
      devTools: !app.isPackaged,
      iconPath: join(app.getAppPath(), "resources", "icon.png"),
    }),
  );
  win.once("ready-to-show", () => win.show());
  win.on("closed", () => {
    if (mainWindow === win) mainWindow = null;
  });
  win.loadURL(APP_ENTRY_URL).catch(() => log("the renderer failed to load"));
  return win;
}

function focusMainWindow(): void {
  if (mainWindow === null) {
    // Before the core is up there is nothing to show; start() opens the window then.
    if (closeCore !== null) mainWindow = createMainWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

async function start(): Promise<void> {
  app.on("web-contents-created", (_event, contents) => hardenWebContents(contents, openExternal, log));
  app.on("second-instance", () => focusMainWindow());
  await app.whenReady();

  hardenSession(session.defaultSession, log);
  serveRenderer(session.defaultSession, join(here, "../renderer"));
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(buildMenuTemplate({ platform: process.platform, appName: app.name, developer: !app.isPackaged })),
  );

  const userDataDir = app.getPath("userData");
  const host = createHostServices({ userDataDir, parentWindow: () => mainWindow, log });
  const nativeBinding = resolveNativeBinding({
    isPackaged: app.isPackaged,
    appPath: app.getAppPath(),
    resourcesPath: process.resourcesPath,
  });
  const opened = await openCore({
    userDataDir,
    host,
    version: app.getVersion(),
    nativeBinding,
    isPackaged: app.isPackaged,
    workspace: args.workspace,
    demo: args.demo,
    // Chromium's network stack: system proxy and PAC, the OS certificate store (plus the Settings CA file).
    providerFetch: desktopProviderFetch(session.defaultSession, log),
  });
  if (!opened.ok) {
    dialog.showErrorBox("Agent Workbench could not start", opened.message);
    app.exit(1);
    return;
  }
  closeCore = opened.close;
  guard.reportTo((message) => opened.workbench.notice?.("error", message));
  log(`sessions: ${opened.dbPath}`);
  registerWorkbenchIpc({
    ipcMain,
    workbench: opened.workbench,
    trustedContentsIds: () => new Set(BrowserWindow.getAllWindows().map((w) => w.webContents.id)),
    eventTargets: () => BrowserWindow.getAllWindows().map((w) => w.webContents),
    log,
  });

  mainWindow = createMainWindow();
  app.on("activate", () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow();
  });
}

app.on("window-all-closed", () => {
  if (process.platform !== "darwin") app.quit();
});

// Close the core (aborts turns, closes SQLite) before the process goes away.
let closing = false;
app.on("will-quit", (event) => {
  if (closeCore === null || closing) return;
  closing = true;
  event.preventDefault();
  const close = closeCore;
  closeCore = null;
  close()
    .catch(() => log("closing the core failed"))
    .finally(() => app.quit());
});

if (!app.requestSingleInstanceLock()) {
  // Another instance owns the database; it gets focus through "second-instance".
  app.quit();
} else {
  start().catch((err: unknown) => {
    dialog.showErrorBox("Agent Workbench could not start", err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
}
