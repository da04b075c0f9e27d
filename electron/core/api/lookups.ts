/** The folder a request opens as a workspace, or NotFound. */
import { realpathSync, statSync } from "node:fs";
import type { SessionStore } from "../store";
import { NotFound } from "./errors";

export function openWorkspaceFolder(store: SessionStore, path: string) {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new NotFound(`no folder ${path}`);
  }
  if (!statSync(real).isDirectory()) throw new NotFound(`not a folder: ${path}`);
  return store.addWorkspace(real);
}
