/**
 * Builds better-sqlite3 for Electron's ABI into out/native/electron/ without
 * touching node_modules (which keeps the Node-ABI build the tests load).
 *
 * How: copy the package (without its build/) into a staging folder, run
 * @electron/rebuild there (prebuilt binary first via prebuild-install, else a
 * node-gyp compile against Electron's headers), keep the resulting
 * better_sqlite3.node and a stamp of what it was built for. The app passes the
 * file to better-sqlite3's `nativeBinding` option (electron/main/native-binding.ts).
 *
 * Needs network the first time (prebuilt download or Electron headers); a
 * matching stamp makes later runs a no-op.
 *
 * Usage: npx tsx scripts/rebuild-native.ts [--force]
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { BINDING_FILE, NATIVE_DIR, STAMP_FILE, readStamp, stampMatches, type NativeStamp } from "../electron/main/native-binding";

const PackageVersion = z.object({ version: z.string() });

export interface RebuildRequest {
  /** Staging folder: package.json + node_modules/better-sqlite3 (without build/). */
  stageDir: string;
  electronVersion: string;
  arch: string;
}
/** Leaves build/Release/better_sqlite3.node inside the staged package, or throws. */
export type Rebuilder = (req: RebuildRequest) => Promise<void>;

export type EnsureResult = { ok: true; bindingPath: string; rebuilt: boolean } | { ok: false; message: string };

export interface EnsureOptions {
  root: string;
  force?: boolean;
  arch?: string;
  rebuilder?: Rebuilder;
  log?: (line: string) => void;
}

function versionOf(root: string, pkg: string): string {
  return PackageVersion.parse(JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"), "utf8"))).version;
}

/** npm settings that make node-gyp compile against Node's headers instead of Electron's. */
const NODE_HEADER_OVERRIDES = ["npm_config_nodedir", "NPM_CONFIG_NODEDIR", "npm_config_target", "npm_config_runtime", "npm_config_disturl"];

export const electronRebuild: Rebuilder = async (req) => {
  // A global `nodedir` (set on machines that build offline against /usr/include/node)
  // would silently yield a Node-ABI binary; the ABI check below catches it, this avoids it.
  for (const key of NODE_HEADER_OVERRIDES) delete process.env[key];
  const { rebuild } = await import("@electron/rebuild");
  await rebuild({
    buildPath: req.stageDir,
    electronVersion: req.electronVersion,
    arch: req.arch,
    onlyModules: ["better-sqlite3"],
    force: true,
    mode: "sequential",
  });
};

/** NODE_MODULE_VERSION of the installed Electron (node_modules/electron/abi_version). */
export function electronAbi(root: string): string {
  return readFileSync(join(root, "node_modules", "electron", "abi_version"), "utf8").trim();
}

/**
 * Non-N-API addons export `node_register_module_v<ABI>`: reading it tells which
 * runtime a binary was built for without loading it. No such symbol means an
 * ABI-stable N-API build, which any runtime loads.
 */
export function checkAbi(file: string, expected: string): { ok: true } | { ok: false; message: string } {
  const text = readFileSync(file).toString("latin1");
  const found = new Set([...text.matchAll(/node_register_module_v(\d+)/g)].map((m) => m[1]));
  if (found.size === 0 || found.has(expected)) return { ok: true };
  return {
    ok: false,
    message: `the build targets NODE_MODULE_VERSION ${[...found].join(", ")}, Electron needs ${expected} (was a Node nodedir forced?)`,
  };
}

export async function ensureElectronNative(options: EnsureOptions): Promise<EnsureResult> {
  const { root } = options;
  const log = options.log ?? (() => undefined);
  let stamp: NativeStamp;
  try {
    stamp = {
      electron: versionOf(root, "electron"),
      betterSqlite3: versionOf(root, "better-sqlite3"),
      platform: process.platform,
      arch: options.arch ?? process.arch,
    };
  } catch (e) {
    return { ok: false, message: `cannot read installed versions: ${e instanceof Error ? e.message : String(e)}` };
  }
  const outDir = join(root, NATIVE_DIR);
  const bindingPath = join(outDir, BINDING_FILE);
  if (!options.force && existsSync(bindingPath) && stampMatches(readStamp(outDir), stamp)) {
    return { ok: true, bindingPath, rebuilt: false };
  }

  const stageDir = join(outDir, "stage");
  const stagedPkg = join(stageDir, "node_modules", "better-sqlite3");
  const sourcePkg = join(root, "node_modules", "better-sqlite3");
  rmSync(stageDir, { recursive: true, force: true });
  mkdirSync(stagedPkg, { recursive: true });
  cpSync(sourcePkg, stagedPkg, {
    recursive: true,
    // The Node-ABI build must not be mistaken for the result.
    filter: (src) => {
      const rel = relative(sourcePkg, src);
      return rel !== "build" && !rel.startsWith(`build${sep}`);
    },
  });
  writeFileSync(
    join(stageDir, "package.json"),
    `${JSON.stringify({ name: "workbench-native-stage", version: "0.0.0", private: true, dependencies: { "better-sqlite3": stamp.betterSqlite3 } }, null, 2)}\n`,
  );

  log(`native: building better-sqlite3 ${stamp.betterSqlite3} for Electron ${stamp.electron} (${stamp.platform}-${stamp.arch})`);
  try {
    await (options.rebuilder ?? electronRebuild)({ stageDir, electronVersion: stamp.electron, arch: stamp.arch });
  } catch (e) {
    rmSync(stageDir, { recursive: true, force: true });
    const first = (e instanceof Error ? e.message : String(e)).split("\n")[0];
    return { ok: false, message: `building better-sqlite3 for Electron failed: ${first}` };
  }
  const built = join(stagedPkg, "build", "Release", BINDING_FILE);
  if (!existsSync(built)) {
    rmSync(stageDir, { recursive: true, force: true });
    return { ok: false, message: `the rebuild left no ${BINDING_FILE} in the staging folder` };
  }
  const abi = checkAbi(built, electronAbi(root));
  if (!abi.ok) {
    rmSync(stageDir, { recursive: true, force: true });
    return { ok: false, message: abi.message };
  }
  cpSync(built, bindingPath);
  writeFileSync(join(outDir, STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`);
  rmSync(stageDir, { recursive: true, force: true });
  return { ok: true, bindingPath, rebuilt: true };
}

async function main(): Promise<void> {
  const result = await ensureElectronNative({
    root: process.cwd(),
    force: process.argv.includes("--force"),
    log: (line) => console.log(line),
  });
  if (!result.ok) {
    console.error(`native: ${result.message}`);
    process.exit(1);
  }
  console.log(result.rebuilt ? `native: built ${result.bindingPath}` : `native: up to date (${result.bindingPath})`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
