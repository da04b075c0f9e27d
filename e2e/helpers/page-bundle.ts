/**
 * Renderer code in a real browser without the app around it: bundles a
 * harness module (e2e/harness/) with esbuild into one script a blank page runs,
 * for what only a browser can check (DOMPurify needs a DOM; React's error
 * boundaries need a client render) but needs inputs no live session produces.
 */
import type { Page } from "@playwright/test";
import { buildSync } from "esbuild";
import { join } from "node:path";

const bundles = new Map<string, string>();

export function bundleForPage(entry: string): string {
  const hit = bundles.get(entry);
  if (hit !== undefined) return hit;
  const result = buildSync({
    entryPoints: [join(process.cwd(), entry)],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: ["es2022"],
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    charset: "utf8",
    logLevel: "silent",
  });
  const script = result.outputFiles[0].text;
  bundles.set(entry, script);
  return script;
}

/** A blank page running the harness; resolves once it has set `window.harness`. */
export async function openHarness(page: Page, entry: string): Promise<void> {
  await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body><div id="root"></div></body></html>');
  await page.addScriptTag({ content: bundleForPage(entry) });
  await page.waitForFunction(() => "harness" in window);
}
