/**
 * The two-ABI scheme for better-sqlite3: node_modules keeps the Node build the
 * tests use, the Electron build goes to out/native/electron/ and is loaded
 * through the `nativeBinding` option. The compile itself needs Electron's
 * headers (network), so the rebuild step is replaced by a stand-in here; the
 * staging, ABI check, stamp and loading path are real.
 */
import Database from "better-sqlite3";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BINDING_FILE, NATIVE_DIR, readStamp, resolveNativeBinding } from "../../electron/main/native-binding";
import { checkAbi, ensureElectronNative, type Rebuilder } from "../../scripts/rebuild-native";

const require = createRequire(import.meta.url);
const nodeBuild = join(dirname(require.resolve("better-sqlite3/package.json")), "build", "Release", BINDING_FILE);

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "wb-native-"));
  const pkg = (name: string, version: string) => {
    mkdirSync(join(root, "node_modules", name), { recursive: true });
    writeFileSync(join(root, "node_modules", name, "package.json"), JSON.stringify({ name, version }));
  };
  pkg("electron", "40.10.2");
  writeFileSync(join(root, "node_modules", "electron", "abi_version"), "143\n");
  pkg("better-sqlite3", "12.0.0");
  // A stale Node-ABI build in the source package must never be taken as the result.
  mkdirSync(join(root, "node_modules", "better-sqlite3", "build", "Release"), { recursive: true });
  writeFileSync(join(root, "node_modules", "better-sqlite3", "build", "Release", BINDING_FILE), "node_register_module_v115");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Stand-in for @electron/rebuild: writes a binary exporting the given ABI's register symbol. */
const fakeRebuild =
  (abi: string, seen: string[] = []): Rebuilder =>
  async ({ stageDir, electronVersion }) => {
    seen.push(electronVersion);
    const pkgDir = join(stageDir, "node_modules", "better-sqlite3");
    expect(existsSync(join(pkgDir, "build")), "the Node build is not staged").toBe(false);
    mkdirSync(join(pkgDir, "build", "Release"), { recursive: true });
    writeFileSync(join(pkgDir, "build", "Release", BINDING_FILE), `\0node_register_module_v${abi}\0`);
  };

describe("Electron build of better-sqlite3", () => {
  it("builds into out/native/electron/ and leaves node_modules untouched", async () => {
    const seen: string[] = [];
    const res = await ensureElectronNative({ root, rebuilder: fakeRebuild("143", seen) });
    expect(res).toEqual({ ok: true, bindingPath: join(root, NATIVE_DIR, BINDING_FILE), rebuilt: true });
    expect(seen).toEqual(["40.10.2"]);
    expect(readFileSync(join(root, "node_modules", "better-sqlite3", "build", "Release", BINDING_FILE), "utf8")).toBe(
      "node_register_module_v115",
    );
    expect(readStamp(join(root, NATIVE_DIR))).toEqual({
      electron: "40.10.2",
      betterSqlite3: "12.0.0",
      platform: process.platform,
      arch: process.arch,
    });
    expect(existsSync(join(root, NATIVE_DIR, "stage"))).toBe(false);
  });

  it("does nothing on the next start while the versions are unchanged", async () => {
    await ensureElectronNative({ root, rebuilder: fakeRebuild("143") });
    const seen: string[] = [];
    const again = await ensureElectronNative({ root, rebuilder: fakeRebuild("143", seen) });
    expect(again.ok && again.rebuilt).toBe(false);
    expect(seen).toEqual([]);
  });

  it("rebuilds after Electron is upgraded", async () => {
    await ensureElectronNative({ root, rebuilder: fakeRebuild("143") });
    writeFileSync(join(root, "node_modules", "electron", "package.json"), JSON.stringify({ name: "electron", version: "41.0.0" }));
    writeFileSync(join(root, "node_modules", "electron", "abi_version"), "145\n");
    const seen: string[] = [];
    const res = await ensureElectronNative({ root, rebuilder: fakeRebuild("145", seen) });
    expect(res.ok && res.rebuilt).toBe(true);
    expect(seen).toEqual(["41.0.0"]);
  });

  it("rejects a build made against Node's headers instead of Electron's", async () => {
    const res = await ensureElectronNative({ root, rebuilder: fakeRebuild("115") });
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.message).toMatch(/NODE_MODULE_VERSION 115, Electron needs 143/);
    expect(existsSync(join(root, NATIVE_DIR, BINDING_FILE))).toBe(false);
  });

  it("reports a failed compile as one line and keeps no half-built output", async () => {
    const res = await ensureElectronNative({
      root,
      rebuilder: async () => {
        throw new Error("gyp ERR! network\nstack…");
      },
    });
    expect(res).toEqual({ ok: false, message: "building better-sqlite3 for Electron failed: gyp ERR! network" });
    expect(existsSync(join(root, NATIVE_DIR, "stage"))).toBe(false);
  });

  it("reads the ABI of the real Node build of better-sqlite3", () => {
    expect(checkAbi(nodeBuild, process.versions.modules)).toEqual({ ok: true });
    expect(checkAbi(nodeBuild, "143").ok).toBe(false);
  });
});

describe("loading through nativeBinding", () => {
  it("opens a database with a binding outside node_modules, as the app does", () => {
    const binding = join(root, NATIVE_DIR, BINDING_FILE);
    mkdirSync(dirname(binding), { recursive: true });
    copyFileSync(nodeBuild, binding);
    const db = new Database(":memory:", { nativeBinding: binding });
    try {
      expect(db.prepare("select sqlite_version() as v").get()).toHaveProperty("v");
    } finally {
      db.close();
    }
  });

  it("finds the binding in the project when unpackaged and in resources when packaged", () => {
    const exists = (p: string) => p.endsWith(BINDING_FILE);
    expect(resolveNativeBinding({ isPackaged: false, appPath: "/proj", resourcesPath: "/res" }, exists)).toBe(
      join("/proj", NATIVE_DIR, BINDING_FILE),
    );
    expect(resolveNativeBinding({ isPackaged: true, appPath: "/res/app.asar", resourcesPath: "/res" }, exists)).toBe(
      join("/res", "native", BINDING_FILE),
    );
    expect(resolveNativeBinding({ isPackaged: false, appPath: "/proj", resourcesPath: "/res" }, () => false)).toBeNull();
  });
});
