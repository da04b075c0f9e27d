/**
 * What this browser remembers between page loads: the session open last, per
 * workspace and overall.
 */

const LAST_SESSION_KEY = "workbench.lastSession.";
const LAST_OPEN_KEY = "workbench.lastOpen";

/** The last open session per workspace survives a reload (localStorage is per origin). */
export function rememberSession(workspaceId: string, sessionId: string | null): void {
  try {
    if (sessionId) localStorage.setItem(LAST_SESSION_KEY + workspaceId, sessionId);
    else localStorage.removeItem(LAST_SESSION_KEY + workspaceId);
    localStorage.setItem(LAST_OPEN_KEY, JSON.stringify({ workspaceId, sessionId }));
  } catch {
    // Storage may be unavailable (private mode); remembering is a convenience.
  }
}

/** The workspace and session open when the app last ran (to start loading it before anything else). */
export function lastOpen(): { workspaceId: string; sessionId: string | null } | null {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(LAST_OPEN_KEY) ?? "null");
    if (typeof raw !== "object" || raw === null || !("workspaceId" in raw) || typeof raw.workspaceId !== "string") return null;
    const sessionId = "sessionId" in raw && typeof raw.sessionId === "string" ? raw.sessionId : null;
    return { workspaceId: raw.workspaceId, sessionId };
  } catch {
    return null;
  }
}

export function rememberedSession(workspaceId: string): string | null {
  try {
    return localStorage.getItem(LAST_SESSION_KEY + workspaceId);
  } catch {
    return null;
  }
}

/**
 * The newest entries, asked for first and validated synchronously before the
 * first paint: more than a tall window shows (a row is at least ~60 px), few
 * enough that validating and building them stays a small part of that paint.
 */
export const TAIL_ENTRIES = 80;
