/**
 * Where a Chromium for Playwright is: $CHROMIUM_PATH, Debian's `chromium` (or
 * another Chrome) on PATH, or a browser Playwright has already downloaded.
 * Pure lookup, no installs; used by playwright.config.ts and the UI benchmark.
 */
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { createRequire } from "node:module";

const CANDIDATES = ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome"];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** An executable named `name` on PATH, or null. */
export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const full = join(dir, name);
    if (existsSync(full) && executable(full)) return full;
  }
  return null;
}

function playwrightBrowser(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const { chromium } = require("playwright-core") as { chromium: { executablePath(): string } };
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

export function findChromium(): string | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  for (const name of CANDIDATES) {
    const found = onPath(name);
    if (found) return found;
  }
  return playwrightBrowser();
}

/**
 * Launch flags for a headless Chromium in containers and CI (no sandbox as
 * root, no GPU, no background traffic). Chromium also preloads its own
 * address-bar popup (a WebUI page, chrome://omnibox-popup.top-chrome) in a
 * second renderer during the first navigation: ~400 ms of CPU that, on a
 * 2-core machine, ran beside the page under test and was charged to it.
 * Neither the desktop app nor a browser that is already running pays it.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI",
];
