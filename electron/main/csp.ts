/**
 * The Content-Security-Policy of the app's own pages. Sent as a response header
 * by the app:// protocol handler and forced by the session on every response;
 * renderer/index.html carries a matching meta tag (both apply: the stricter wins).
 *
 * - scripts only from the app bundle: no inline script, no eval, no remote code;
 * - styles allow 'unsafe-inline' because Monaco injects <style> elements at run
 *   time (inline styles cannot run code);
 * - images from the bundle plus data:/blob: for pasted images in the transcript;
 * - workers from the bundle or blob: (Monaco's language workers);
 * - no plugins, frames, forms, base-URI changes or framing by others.
 */
export const APP_CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  "default-src": ["'none'"],
  "script-src": ["'self'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:", "blob:"],
  "font-src": ["'self'", "data:"],
  "connect-src": ["'self'"],
  "worker-src": ["'self'", "blob:"],
  "object-src": ["'none'"],
  "frame-src": ["'none'"],
  "base-uri": ["'none'"],
  "form-action": ["'none'"],
  "frame-ancestors": ["'none'"],
};

export function serializeCsp(directives: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

export const APP_CSP = serializeCsp(APP_CSP_DIRECTIVES);

/**
 * Response headers with our CSP in place of any the response declared: only the
 * app's own pages ever load in its windows, so ours is the one that applies.
 */
export function withCspHeader(
  headers: Readonly<Record<string, string | string[]>> | undefined,
  csp: string = APP_CSP,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (k.toLowerCase() !== "content-security-policy") out[k] = v;
  }
  out["Content-Security-Policy"] = [csp];
  return out;
}
