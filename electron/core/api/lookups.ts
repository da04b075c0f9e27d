/** The session, workspace or folder a request names, or NOT_FOUND (dispatch maps NotFound to it). */
import { realpathSync, statSync } from "node:fs";
import type { SessionStore } from "../store";

export function requireSession(store: SessionStore, id: string) {
  const s = store.getSession(id);
  if (!s) throw new NotFound(`no session ${id}`);
  return s;
}

export function requireWorkspace(store: SessionStore, id: string) {
  const w = store.getWorkspace(id);
  if (!w) throw new NotFound(`no workspace ${id}`);
  return w;
}

export class NotFound extends Error {
  override name = "NotFound";
}

export function openWorkspaceFolder(store: SessionStore, path: string) {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new NotFound(`folder not found: ${path}`);
  }
  if (!statSync(real).isDirectory()) throw new NotFound(`not a folder: ${path}`);
  return store.addWorkspace(real);
}
