/**
 * Serves the built renderer on app://workbench/ instead of file:// (checklist
 * item 18): a real origin for CSP 'self', no access to the rest of the disk,
 * and our headers on every response.
 */
import { net, protocol, type Session } from "electron";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { APP_CSP } from "./csp";
import { APP_SCHEME, appUrlToRelativePath } from "./url-policy";

/** Must run before app "ready". */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function serveRenderer(ses: Session, rendererDir: string): void {
  ses.protocol.handle(APP_SCHEME, async (request) => {
    const rel = appUrlToRelativePath(request.url);
    if (rel === null) return new Response("Not found", { status: 404 });
    let file: Response;
    try {
      file = await net.fetch(pathToFileURL(join(rendererDir, rel)).toString());
    } catch {
      return new Response("Not found", { status: 404 });
    }
    const headers = new Headers(file.headers);
    headers.set("Content-Security-Policy", APP_CSP);
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Cross-Origin-Opener-Policy", "same-origin");
    return new Response(file.body, { status: file.status, headers });
  });
}
