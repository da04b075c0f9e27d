/**
 * Web mode's folder browser: the sub-folders of one folder, so a user picks a
 * workspace by clicking instead of typing a path (Electron has the native
 * dialog). Only folder names leave the core, never file names or contents;
 * links are followed to folders only; a folder the user may not read is
 * listed but marked, and listing it fails with a clear error.
 */
import { constants } from "node:fs";
import { access, readdir, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import type { FolderListing } from "../../../shared/api";
import { ApiFailure, NotFound } from "./errors";

/** Folders listed at most; the listing says when there were more. */
export const FOLDER_LISTING_MAX = 2000;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

async function mayEnter(path: string): Promise<boolean> {
  try {
    await access(path, constants.R_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function listFolders(path: string | undefined, showHidden: boolean, home = homedir()): Promise<FolderListing> {
  const wanted = path ?? home;
  if (!isAbsolute(wanted)) throw new ApiFailure("INVALID_REQUEST", `not an absolute path: ${wanted}`);
  let real: string;
  try {
    real = await realpath(wanted);
    if (!(await stat(real)).isDirectory()) throw new NotFound(`not a folder: ${wanted}`);
  } catch (error) {
    if (error instanceof NotFound) throw error;
    throw new NotFound(`no folder ${wanted}`);
  }
  let entries;
  try {
    entries = await readdir(real, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new ApiFailure("CONFLICT", `cannot read ${real} (${code === "EACCES" || code === "EPERM" ? "permission denied" : code})`);
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (!showHidden && entry.name.startsWith(".")) continue;
    if (entry.isDirectory()) names.push(entry.name);
    else if (entry.isSymbolicLink()) {
      // A link counts if it leads to a folder; a dangling or file link is left out.
      const target = await stat(join(real, entry.name)).catch(() => null);
      if (target?.isDirectory()) names.push(entry.name);
    }
  }
  names.sort(collator.compare);
  const shown = names.slice(0, FOLDER_LISTING_MAX);
  const folders = await Promise.all(
    shown.map(async (name) => {
      const child = join(real, name);
      return { name, path: child, readable: await mayEnter(child) };
    }),
  );
  const parent = dirname(real);
  return { path: real, parent: parent === real ? null : parent, home, folders, truncated: names.length > shown.length };
}
