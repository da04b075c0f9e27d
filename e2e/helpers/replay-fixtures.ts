/**
 * Fixtures for the replay specs: a host with the seeded session per test, and
 * a page that fails the test on any console error or uncaught exception. Each
 * test leaves a screenshot in e2e/artifacts/<test title>.png.
 */
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { failOnBrowserErrors } from "./fixtures";
import { startReplayHost, type ReplayHost } from "./replay-host";

export const test = base.extend<{ replayHost: ReplayHost; browserErrors: string[] }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  replayHost: async ({}, use) => {
    const host = await startReplayHost();
    await use(host);
    await host.stop();
  },
  browserErrors: [
    // Depends on the host so that the host outlives the page (a page whose server
    // went away logs connection errors that are not the test's).
    async ({ page, replayHost }, use, testInfo) => {
      void replayHost;
      await failOnBrowserErrors(page, testInfo, use);
    },
    { auto: true },
  ],
});

export { expect };

// ---------------------------------------------------------------- page helpers

export function replayView(page: Page): Locator {
  return page.getByRole("main", { name: "Replay" });
}

export function timeline(page: Page): Locator {
  return page.getByRole("listbox", { name: "Timeline" });
}

/** Timeline rows (only those rendered: the list is virtualised, the seeded session fits). */
export function steps(page: Page): Locator {
  return timeline(page).getByRole("option");
}

export function currentStep(page: Page): Locator {
  return timeline(page).locator('[role="option"][aria-selected="true"]');
}

export function stepCounter(page: Page): Locator {
  return page.getByLabel("Current step");
}

/** Opens the seeded session in replay mode from the session list. */
export async function openReplayFromList(page: Page, host: ReplayHost): Promise<void> {
  await page.goto(host.url);
  const list = page.getByRole("list", { name: "Session list" });
  await expect(list.getByText(host.title)).toBeVisible();
  await list.getByRole("button", { name: `Replay session ${host.title}` }).click();
  await expect(replayView(page)).toBeVisible();
  await expect(stepCounter(page)).toHaveText(/^Step 1 of \d+$/);
}

/** Clicks the first timeline row whose label matches. */
export async function jumpTo(page: Page, label: RegExp): Promise<void> {
  await timeline(page).getByRole("option", { name: label }).first().click();
}
