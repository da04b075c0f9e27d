/**
 * Which URLs the app loads itself and which it hands to the system browser.
 * Pure functions: the navigation handlers and the IPC sender check both use
 * them, and the tests exercise them under plain Node.
 */

/** The privileged scheme serving the built renderer (checklist item 18: no file://). */
export const APP_SCHEME = "app";
export const APP_HOST = "workbench";
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * True for the app's own pages. Compares scheme and host rather than `origin`:
 * Node gives non-special schemes an opaque "null" origin, Chromium does not.
 */
export function isAppUrl(url: string): boolean {
  const u = parse(url);
  return u !== null && u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && u.username === "" && u.password === "";
}

/**
 * Links the user may open in the system browser: https only, no embedded
 * credentials. Everything else (http:, file:, javascript:, custom handlers such
 * as ms-msdt: or smb:) is refused — checklist item 15.
 */
export function externalUrlToOpen(url: string): string | null {
  const u = parse(url);
  if (u === null) return null;
  if (u.protocol !== "https:") return null;
  if (u.username !== "" || u.password !== "") return null;
  if (u.hostname === "") return null;
  return u.toString();
}

export type NavigationDecision = { action: "allow" } | { action: "deny"; openExternal: string | null };

/**
 * A top-level navigation: only within the app's own pages (reloads, hash
 * changes); a click on an https link goes to the system browser instead.
 */
export function decideNavigation(url: string): NavigationDecision {
  if (isAppUrl(url)) return { action: "allow" };
  return { action: "deny", openExternal: externalUrlToOpen(url) };
}

/** window.open and target=_blank: never a new Electron window. */
export function decideWindowOpen(url: string): { openExternal: string | null } {
  return { openExternal: externalUrlToOpen(url) };
}

/**
 * Resolves a request path under app://workbench/ to a relative file path inside
 * the renderer bundle, or null for anything that would leave it.
 */
export function appUrlToRelativePath(url: string): string | null {
  const u = parse(url);
  if (u === null || !isAppUrl(url)) return null;
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (path.includes("\0") || path.includes("\\")) return null;
  const segments = path.split("/").filter((s) => s !== "");
  if (segments.some((s) => s === "." || s === "..")) return null;
  if (segments.length === 0) return "index.html";
  return segments.join("/");
}
