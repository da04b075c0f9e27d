/**
 * The built renderer, read into memory once before the web host listens.
 *
 * Served from a read stream, a file took several event-loop turns (a read per
 * 64 KB chunk through the thread pool): on a cold start the app's chunk then
 * waited behind the core's first answers (docs/performance.md#first-paint-of-a-long-session-cold).
 * From memory a request is answered in the turn it is read. A rebuilt renderer
 * is served after a restart of the host.
 */
import { readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".ttf": "font/ttf",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
};

export interface StaticAsset {
  body: Buffer;
  contentType: string;
}

/** Every file under `root`, keyed by its URL path ("/index.html", "/assets/x.js"). Symbolic links are not followed. */
export function loadStaticAssets(root: string): Map<string, StaticAsset> {
  const assets = new Map<string, StaticAsset>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const urlPath = "/" + relative(root, full).split(sep).join("/");
        assets.set(urlPath, { body: readFileSync(full), contentType: MIME[extname(full)] ?? "application/octet-stream" });
      }
    }
  };
  walk(root);
  return assets;
}
