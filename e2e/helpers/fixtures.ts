/**
 * Test fixtures: a fresh host per test, and a page that fails the test on any
 * console error or uncaught exception. Every test leaves a screenshot in
 * e2e/artifacts/<test title>.png (pass or fail).
 */
import { test as base, expect, type Page, type TestInfo } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { startHost, type E2EHost } from "./host";

export const ARTIFACTS = join(process.cwd(), "e2e", "artifacts");

export function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 80);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

export const test = base.extend<{ host: E2EHost; browserErrors: string[] }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  host: async ({}, use) => {
    const host = await startHost();
    await use(host);
    await host.stop();
  },
  browserErrors: [
    // Depends on the host so that the host outlives the page: a page whose server
    // went away logs connection errors, which would be blamed on the test.
    async ({ page, host }, use, testInfo) => {
      void host;
      await failOnBrowserErrors(page, testInfo, use);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Collects console errors and uncaught exceptions while the test runs, saves a
 * screenshot named after the test, and fails the test if anything was logged.
 */
export async function failOnBrowserErrors(page: Page, testInfo: TestInfo, use: (errors: string[]) => Promise<void>): Promise<void> {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console.error: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`uncaught: ${err.message}`));
  await use(errors);
  if (!page.isClosed()) await screenshot(page, slug(testInfo.title)).catch(() => undefined);
  const seen = [...errors];
  await page.close();
  expect(seen, "the browser logged errors").toEqual([]);
}
