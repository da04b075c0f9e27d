/**
 * The main window's options, in a module without runtime Electron imports so a
 * plain-Node test (test/electron/window-security.test.ts) can read exactly what
 * the app passes to `new BrowserWindow`.
 */
import type { BrowserWindowConstructorOptions, WebPreferences } from "electron";

/**
 * The security-relevant web preferences, spelled out even where they equal
 * Electron's defaults, so a default flipped by a future version or a careless
 * edit is caught by the test rather than shipped.
 */
export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  safeDialogs: true,
} as const;

export interface WindowOptionsInput {
  /** Absolute path of the bundled, CommonJS preload (out/preload/index.cjs). */
  preloadPath: string;
  /** DevTools only in unpackaged builds. */
  devTools: boolean;
  /** Window icon on Linux/Windows (macOS takes it from the bundle). */
  iconPath?: string;
}

export function createWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  const webPreferences: WebPreferences = {
    ...SECURE_WEB_PREFERENCES,
    preload: input.preloadPath,
    devTools: input.devTools,
    spellcheck: true,
  };
  return {
    width: 1280,
    height: 840,
    minWidth: 720,
    minHeight: 480,
    title: "Agent Workbench",
    // Shown on ready-to-show: no white flash before the renderer paints.
    show: false,
    backgroundColor: "#1e1e1e",
    ...(input.iconPath === undefined ? {} : { icon: input.iconPath }),
    webPreferences,
  };
}
