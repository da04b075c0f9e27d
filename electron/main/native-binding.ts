/**
 * Where the Electron-ABI build of better-sqlite3 lives. node_modules keeps the
 * Node-ABI build the tests use; scripts/rebuild-native.ts compiles (or fetches)
 * a second copy for Electron into out/native/electron/, and the app passes its
 * path to better-sqlite3 through the `nativeBinding` option. Packaging copies
 * that file to resources/native/ (electron-builder.yml extraResources).
 *
 * No runtime Electron import: the start script and the tests read these paths.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export const NATIVE_DIR = join("out", "native", "electron");
export const BINDING_FILE = "better_sqlite3.node";
export const STAMP_FILE = "better_sqlite3.json";
/** Folder under process.resourcesPath in a packaged app. */
export const PACKAGED_NATIVE_DIR = "native";

/** What a build was made for; a mismatch with the installed versions means "rebuild". */
export const NativeStampSchema = z.object({
  electron: z.string(),
  betterSqlite3: z.string(),
  platform: z.string(),
  arch: z.string(),
});
export type NativeStamp = z.infer<typeof NativeStampSchema>;

export function readStamp(dir: string): NativeStamp | null {
  try {
    const parsed = NativeStampSchema.safeParse(JSON.parse(readFileSync(join(dir, STAMP_FILE), "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function stampMatches(a: NativeStamp | null, b: NativeStamp): boolean {
  return a !== null && a.electron === b.electron && a.betterSqlite3 === b.betterSqlite3 && a.platform === b.platform && a.arch === b.arch;
}

export interface BindingLocation {
  isPackaged: boolean;
  /** app.getAppPath(): the project root when run unpackaged. */
  appPath: string;
  /** process.resourcesPath in a packaged app. */
  resourcesPath: string;
}

/** The Electron-ABI binding for this run, or null when it has not been built. */
export function resolveNativeBinding(loc: BindingLocation, exists: (p: string) => boolean = existsSync): string | null {
  const candidate = loc.isPackaged
    ? join(loc.resourcesPath, PACKAGED_NATIVE_DIR, BINDING_FILE)
    : join(loc.appPath, NATIVE_DIR, BINDING_FILE);
  return exists(candidate) ? candidate : null;
}
