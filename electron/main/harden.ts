/**
 * Session- and web-contents-level protections: permission handlers, the CSP
 * header, navigation and window-open limits, no <webview>. Applied to every
 * web contents the app creates (app "web-contents-created"), not only the main
 * window.
 */
import type { Session, WebContents } from "electron";
import { withCspHeader } from "./csp";
import { isPermissionAllowed } from "./permissions";
import { decideNavigation, decideWindowOpen, isAppUrl } from "./url-policy";

export type OpenExternal = (url: string) => void;

export function hardenSession(ses: Session, log: (line: string) => void): void {
  ses.setPermissionRequestHandler((contents, permission, callback, details) => {
    const allowed = isPermissionAllowed(permission, details.requestingUrl, isAppUrl);
    if (!allowed) log(`permission denied: ${permission}`);
    callback(allowed);
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isPermissionAllowed(permission, requestingOrigin, isAppUrl));
  ses.setDevicePermissionHandler(() => false);
  // CSP on every response the session sees; the app:// handler sets it too.
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCspHeader(details.responseHeaders) });
  });
}

export function hardenWebContents(contents: WebContents, openExternal: OpenExternal, log: (line: string) => void): void {
  const onNavigate = (event: { preventDefault(): void }, url: string) => {
    const decision = decideNavigation(url);
    if (decision.action === "allow") return;
    event.preventDefault();
    if (decision.openExternal !== null) openExternal(decision.openExternal);
    else log(`navigation blocked: ${safeForLog(url)}`);
  };
  contents.on("will-navigate", onNavigate);
  contents.on("will-redirect", onNavigate);
  contents.on("will-frame-navigate", (event) => {
    if (!event.isMainFrame && !isAppUrl(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    const { openExternal: target } = decideWindowOpen(url);
    if (target !== null) openExternal(target);
    else log(`window.open blocked: ${safeForLog(url)}`);
    return { action: "deny" };
  });
  contents.on("will-attach-webview", (event) => {
    event.preventDefault();
    log("webview blocked");
  });
}

/** Scheme and host only: a URL may carry tokens in its path or query. */
function safeForLog(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return "(unparseable url)";
  }
}
