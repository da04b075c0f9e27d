/**
 * The Chromium that e2e tests and bench:ui drive loads only the page under
 * test: its own address-bar popup pages (WebUI, in a renderer of their own)
 * would otherwise load during the first navigation and take a core of a
 * 2-core machine from the app being measured.
 */
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, findChromium } from "../../scripts/chromium-path";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const executablePath = findChromium();

describe.skipIf(!executablePath)("Chromium launch flags (skipped when no Chromium is installed)", () => {
  it(
    "leave no browser UI page loading beside the page under test",
    async () => {
      const browser = await chromium.launch({ executablePath: executablePath ?? undefined, args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage();
        await page.goto("data:text/html,<p>under test</p>");
        // The popup pages are created with the browser's first window, before its first page has loaded.
        const cdp = await browser.newBrowserCDPSession();
        const { targetInfos } = (await cdp.send("Target.getTargets")) as { targetInfos: Array<{ type: string; url: string }> };
        expect(targetInfos.filter((t) => t.type !== "page").map((t) => t.url)).toEqual([]);
        expect(targetInfos.filter((t) => t.type === "page")).toHaveLength(1);
      } finally {
        await browser.close();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
