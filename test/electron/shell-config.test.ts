/**
 * Small pure parts of the shell: command-line flags and the application menu.
 */
import { describe, expect, it } from "vitest";
import type { MenuItemConstructorOptions } from "electron";
import { parseAppArgs } from "../../electron/main/args";
import { buildMenuTemplate } from "../../electron/main/menu";

describe("command-line flags", () => {
  it("reads the same --workspace and --demo flags as web mode, ignoring Chromium switches", () => {
    const args = parseAppArgs(
      ["/x/electron", "/proj", "--inspect=0", "--remote-debugging-port=0", "--no-sandbox", "--workspace", "repo", "--demo"],
      false,
      "/home/u",
    );
    expect(args).toEqual({ workspace: "/home/u/repo", demo: true, userDataDir: undefined });
  });

  it("skips only the executable when packaged", () => {
    expect(parseAppArgs(["/opt/app", "--user-data=/tmp/wb"], true, "/")).toEqual({
      workspace: undefined,
      demo: false,
      userDataDir: "/tmp/wb",
    });
  });
});

function roles(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((i) => [...(i.role ? [i.role] : []), ...(Array.isArray(i.submenu) ? roles(i.submenu) : [])]);
}

describe("application menu", () => {
  it("has the usual editing shortcuts on every platform", () => {
    for (const platform of ["darwin", "linux", "win32"] as const) {
      const r = roles(buildMenuTemplate({ platform, appName: "Agent Workbench", developer: false }));
      for (const role of [
        "undo",
        "redo",
        "cut",
        "copy",
        "paste",
        "selectAll",
        "zoomIn",
        "zoomOut",
        "resetZoom",
        "togglefullscreen",
        "minimize",
      ]) {
        expect(r, `${platform} ${role}`).toContain(role);
      }
      expect(r).toContain(platform === "darwin" ? "close" : "quit");
    }
  });

  it("offers reload and DevTools only in development builds", () => {
    const shipped = roles(buildMenuTemplate({ platform: "linux", appName: "A", developer: false }));
    expect(shipped).not.toContain("toggleDevTools");
    expect(shipped).not.toContain("reload");
    const dev = roles(buildMenuTemplate({ platform: "linux", appName: "A", developer: true }));
    expect(dev).toContain("toggleDevTools");
  });
});
