/**
 * The errors a handler throws, and the lookups every handler shares: dispatch
 * turns an ApiFailure into the typed ApiError of its code. "Not found" is
 * always NotFound, spelled "no <thing> <id>".
 */
import type { ApiError } from "../../../shared/api";
import type { SessionStore } from "../store";

export class ApiFailure extends Error {
  constructor(
    readonly code: ApiError["code"],
    message: string,
  ) {
    super(message);
    this.name = "ApiFailure";
  }
}

export class NotFound extends ApiFailure {
  constructor(message: string) {
    super("NOT_FOUND", message);
    this.name = "NotFound";
  }
}

/** The session a request names, or NotFound. */
export function requireSession(store: Pick<SessionStore, "getSession">, id: string) {
  const s = store.getSession(id);
  if (!s) throw new NotFound(`no session ${id}`);
  return s;
}

/** The workspace a request names, or NotFound. */
export function requireWorkspace(store: Pick<SessionStore, "getWorkspace">, id: string) {
  const w = store.getWorkspace(id);
  if (!w) throw new NotFound(`no workspace ${id}`);
  return w;
}
