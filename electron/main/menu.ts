/**
 * The application menu: the platform's usual roles and shortcuts. Built as a
 * plain template (no runtime Electron import) so it can be inspected in tests.
 */
import type { MenuItemConstructorOptions } from "electron";

export interface MenuInput {
  platform: NodeJS.Platform;
  appName: string;
  /** Reload and DevTools only in unpackaged builds. */
  developer: boolean;
}

export function buildMenuTemplate(input: MenuInput): MenuItemConstructorOptions[] {
  const isMac = input.platform === "darwin";
  const template: MenuItemConstructorOptions[] = [];
  if (isMac) {
    template.push({
      label: input.appName,
      submenu: [
        { role: "about" },
        { type: "separator" },
        { role: "services" },
        { type: "separator" },
        { role: "hide" },
        { role: "hideOthers" },
        { role: "unhide" },
        { type: "separator" },
        { role: "quit" },
      ],
    });
  }
  template.push({ label: "File", submenu: [isMac ? { role: "close" } : { role: "quit" }] });
  template.push({
    label: "Edit",
    submenu: [
      { role: "undo" },
      { role: "redo" },
      { type: "separator" },
      { role: "cut" },
      { role: "copy" },
      { role: "paste" },
      ...(isMac ? ([{ role: "pasteAndMatchStyle" }] as const) : []),
      { role: "delete" },
      { role: "selectAll" },
    ],
  });
  template.push({
    label: "View",
    submenu: [
      ...(input.developer
        ? ([{ role: "reload" }, { role: "forceReload" }, { role: "toggleDevTools" }, { type: "separator" }] as const)
        : []),
      { role: "resetZoom" },
      { role: "zoomIn" },
      { role: "zoomOut" },
      { type: "separator" },
      { role: "togglefullscreen" },
    ],
  });
  template.push({
    label: "Window",
    submenu: isMac
      ? [{ role: "minimize" }, { role: "zoom" }, { type: "separator" }, { role: "front" }]
      : [{ role: "minimize" }, { role: "close" }],
  });
  if (!isMac) template.push({ role: "help", submenu: [{ role: "about" }] });
  return template;
}
