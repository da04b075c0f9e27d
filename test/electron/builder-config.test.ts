/**
 * The packaging configuration, checked offline: electron-builder's own loader
 * and schema validation (the same code `electron-builder` runs before
 * packaging, which needs no Electron binary or network), plus the settings the
 * app depends on.
 */
import { getConfig, validateConfiguration } from "app-builder-lib/out/util/config/config.js";
import { DebugLogger } from "builder-util";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Configuration } from "electron-builder";
import { BINDING_FILE, NATIVE_DIR, PACKAGED_NATIVE_DIR } from "../../electron/main/native-binding";

const root = join(import.meta.dirname, "..", "..");

async function load(): Promise<Configuration> {
  return getConfig(root, join(root, "electron-builder.yml"), null);
}

function pngSize(file: string): { width: number; height: number } {
  const buf = readFileSync(join(root, file));
  expect(buf.subarray(1, 4).toString("ascii"), `${file} is a PNG`).toBe("PNG");
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

const targetsOf = (t: unknown): string[] =>
  (Array.isArray(t) ? t : [t]).map((x) => (typeof x === "string" ? x : (x as { target: string }).target));

describe("electron-builder.yml", () => {
  it("passes electron-builder's schema validation", async () => {
    const config = await load();
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it("is checked by a validator that does reject a wrong key", async () => {
    const config = { ...(await load()), asarUnpackk: ["**/*.node"] } as Configuration;
    await expect(validateConfiguration(config, new DebugLogger(false))).rejects.toThrow(/asarUnpackk/);
  });

  it("builds AppImage and deb, dmg and nsis with the app's id, name and icons", async () => {
    const c = await load();
    expect(c.appId).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(c.productName).toBe("Agent Workbench");
    expect(targetsOf(c.linux?.target)).toEqual(["AppImage", "deb"]);
    expect(targetsOf(c.mac?.target)).toEqual(["dmg"]);
    expect(targetsOf(c.win?.target)).toEqual(["nsis"]);
    expect(pngSize("resources/icon.png")).toEqual({ width: 512, height: 512 });
    expect(pngSize("resources/icons/256x256.png")).toEqual({ width: 256, height: 256 });
    expect(readFileSync(join(root, "resources/icon.icns")).subarray(0, 4).toString("ascii")).toBe("icns");
    expect(readFileSync(join(root, "resources/icon.ico")).readUInt16LE(2)).toBe(1);
  });

  it("pins the Electron version that is installed", async () => {
    const c = await load();
    const installed = JSON.parse(readFileSync(join(root, "node_modules/electron/package.json"), "utf8")) as { version: string };
    expect(c.electronVersion).toBe(installed.version);
  });

  it("ships the Electron-ABI SQLite binding outside the asar and never rebuilds node_modules in place", async () => {
    const c = await load();
    expect(c.asar).toBe(true);
    expect(c.asarUnpack).toContain("**/*.node");
    expect(c.npmRebuild).toBe(false);
    expect(c.extraResources).toContainEqual({
      from: `${NATIVE_DIR.split("\\").join("/")}/${BINDING_FILE}`,
      to: `${PACKAGED_NATIVE_DIR}/${BINDING_FILE}`,
    });
  });

  it("ships with every debugging fuse off: no --inspect, no ELECTRON_RUN_AS_NODE, no NODE_OPTIONS", async () => {
    const f = (await load()).electronFuses;
    expect(f).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it("`npm run package` builds the release config; the inspector is on only in the e2e config, which never ships", async () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.package).toMatch(/electron-builder --publish never$/);
    expect(pkg.scripts.package).not.toMatch(/--config|-c\.|electronFuses/);
    expect(pkg.scripts["package:e2e"]).toContain("--config electron-builder.e2e.yml");
    const e2e = await getConfig(root, join(root, "electron-builder.e2e.yml"), null);
    const release = await load();
    await expect(validateConfiguration(e2e, new DebugLogger(false))).resolves.toBeUndefined();
    expect(e2e.electronFuses).toEqual({ ...release.electronFuses, enableNodeCliInspectArguments: true });
    // A separate, visibly different app that cannot overwrite or pass for the release.
    expect(e2e.directories?.output).toBe("dist-e2e");
    expect(e2e.directories?.output).not.toBe(release.directories?.output);
    expect(e2e.appId).not.toBe(release.appId);
    expect(e2e.productName).toMatch(/E2E/);
    expect(e2e.publish).toBeNull();
    // The release never carries the e2e config inside it.
    expect(release.files).not.toContainEqual(expect.stringContaining("e2e"));
  });
});
