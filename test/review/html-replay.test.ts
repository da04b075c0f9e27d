/**
 * The HTML export opened in a real Chromium from a file, with every network
 * request recorded: it must render the transcript, step with keys and
 * buttons, filter, and never fetch anything or trip its own CSP.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, findChromium } from "../../scripts/chromium-path";
import { exportSession } from "../../electron/core/review/export-session";
import { createRedactor } from "../../electron/core/review/redact";
import { T0, buildSession, resolveModel } from "./fixture";

const executablePath = findChromium();
let browser: Browser | null = null;
const dir = mkdtempSync(join(tmpdir(), "review-html-"));

beforeAll(async () => {
  if (executablePath) browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Skipped only where no Chromium exists at all (install Debian's `chromium`).
describe.skipIf(!executablePath)("HTML replay in Chromium, offline (skipped when no Chromium is installed)", () => {
  it("shows the transcript, steps and filters without a single network request or CSP violation", async () => {
    const f = buildSession();
    f.clock.set(T0 + 40_000);
    f.store.addNote({ sessionId: f.sessionId, seq: 11, author: "rita", verdict: "problem", text: "Rate limited." });
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: {
        role: "user",
        content: [
          { type: "text", text: '<img src="https://example.com/x.png"> </script><script>window.pwned = 1</script>' },
          {
            type: "image",
            mimeType: "image/png",
            data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
          },
        ],
        timestamp: T0 + 45_000,
      },
    });
    const r = exportSession(f.store, f.sessionId, "html", createRedactor(), (ref) => resolveModel(ref)?.model.name);
    if (!r.ok) throw new Error(r.error.message);
    const file = join(dir, r.value.filename);
    writeFileSync(file, r.value.content);
    const url = pathToFileURL(file).href;

    if (!browser) throw new Error("no browser");
    const context = await browser.newContext({ offline: true });
    const page = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (req) => {
      if (req.url() !== url && !req.url().startsWith("data:")) requests.push(req.url());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await page.addInitScript(() => {
      const w = window as unknown as { cspViolations: string[] };
      w.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]");

    expect(await page.textContent("#title")).toBe("Rename greet");
    // Opens at the last step with the whole transcript shown.
    expect(await page.textContent("#step")).toBe("Step 29 of 29 · User");
    expect(await page.locator("#transcript .entry:visible").count()).toBe(23);
    expect(await page.locator("#transcript").textContent()).toContain("Renamed greet to hello.");
    expect(await page.locator(".entry.error .note").textContent()).toContain("Rate limited.");
    expect(await page.locator("#transcript img.image").count()).toBe(1);
    // Kinds and models by their names, not "toolCall" or provider/id.
    expect(await page.locator("#timeline li .kind").allTextContents()).toContain("Tool call");
    expect(await page.locator("#timeline li .kind").allTextContents()).not.toContain("toolCall");
    expect(await page.locator("#filter-model option").allTextContents()).toContain("Claude Sonnet 4.5 (latest)");
    expect(await page.locator("#facts").textContent()).toMatch(/Approvals: \d+ approved, \d+ denied/);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    await page.keyboard.press("Home");
    expect(await page.textContent("#step")).toBe("Step 1 of 29 · User");
    expect(await page.locator("#transcript .entry:visible").count()).toBe(1);
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowRight");
    expect(await page.textContent("#step")).toBe("Step 5 of 29 · Tool result");
    expect(await page.locator("#transcript .entry:visible").count()).toBe(3);
    await page.click("#prev");
    expect(await page.textContent("#step")).toBe("Step 4 of 29 · Tool call");
    await page.click("#next");
    await page.click("#next");
    expect(await page.textContent("#step")).toBe("Step 6 of 29 · Tool result");

    await page.check("#filter-errors");
    expect(await page.locator("#timeline li").count()).toBe(3);
    await page.keyboard.press("ArrowRight");
    expect(await page.textContent("#step")).toBe("Step 14 of 29 · Error");
    // Home and End keep to the filtered steps, like the buttons: never a step the timeline hides.
    await page.click("#last");
    const lastError = await page.textContent("#step");
    await page.click("#first");
    const firstError = await page.textContent("#step");
    expect(firstError).not.toMatch(/^Step 1 of/);
    expect(lastError).not.toMatch(/^Step 29 of/);
    await page.keyboard.press("End");
    expect(await page.textContent("#step")).toBe(lastError);
    await page.keyboard.press("Home");
    expect(await page.textContent("#step")).toBe(firstError);
    await page.uncheck("#filter-errors");
    await page.selectOption("#filter-tool", "bash");
    expect(await page.locator("#timeline li").count()).toBe(3);

    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    await context.close();
  });
  it("renders a session whose stored entries hold a time no date can hold", async () => {
    const f = buildSession();
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: "from the past" }], timestamp: -1e20 },
    });
    const r = exportSession(f.store, f.sessionId, "html", createRedactor());
    if (!r.ok) throw new Error(r.error.message);
    const file = join(dir, `bad-time-${r.value.filename}`);
    writeFileSync(file, r.value.content);
    if (!browser) throw new Error("no browser");
    const context = await browser.newContext({ offline: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("body[data-ready=true]");
    expect(await page.locator("#transcript .entry:visible").last().textContent()).toContain("from the past");
    expect(errors).toEqual([]);
    await context.close();
  });
});
