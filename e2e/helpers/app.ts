/** Page helpers for the workbench UI, by role and label (what a user sees). */
import { expect, type Locator, type Page } from "@playwright/test";

export async function openWorkspace(page: Page, path: string): Promise<void> {
  await page.getByLabel("Workspace folder path").fill(path);
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await expect(page.getByRole("region", { name: "Sessions" })).toBeVisible();
}

export function modelButton(page: Page): Locator {
  return page.getByRole("button", { name: /^Model: / });
}

/** Opens the switcher and picks the first model of a provider group; returns the model's label. */
export async function chooseModel(page: Page, providerLabel: string): Promise<string> {
  await modelButton(page).click();
  const option = page
    .getByRole("listbox", { name: "Models" })
    .getByRole("group", { name: providerLabel, exact: true })
    .getByRole("option")
    .first();
  const label = (await option.getAttribute("aria-label")) ?? "";
  await option.click();
  return label.replace(/ \(.*$/, "");
}

export async function newSession(page: Page): Promise<void> {
  const before = await page.getByRole("list", { name: "Session list" }).getByRole("listitem").count();
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByRole("list", { name: "Session list" }).getByRole("listitem")).toHaveCount(before + 1);
}

export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
  await expect(box).toHaveValue("");
}

export function transcript(page: Page): Locator {
  return page.getByRole("log", { name: "Transcript" });
}

export function approvalCard(page: Page): Locator {
  return page.getByRole("region", { name: "Approval required" });
}

export function toolCards(page: Page, tool: string): Locator {
  return transcript(page).getByRole("article", { name: new RegExp(`^Tool call ${tool}:`) });
}

export function diffView(page: Page): Locator {
  return page.getByRole("complementary", { name: "Diff view" });
}

/** Waits until the turn is over (no Stop button, composer idle). */
export async function waitIdle(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
}

/**
 * The whole transcript as text, row by row: the list is virtualised, so this
 * scrolls through it and collects each row once.
 */
export async function transcriptText(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const log = document.querySelector('[role="log"][aria-label="Transcript"]');
    if (!(log instanceof HTMLElement)) return [];
    const rows = new Map<number, string>();
    const frame = () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
    const collect = () => {
      for (const el of log.querySelectorAll<HTMLElement>("[data-index]")) rows.set(Number(el.dataset.index), el.innerText.trim());
    };
    // Right after a load the list may still settle at the bottom once its rows are measured: start when the top stays.
    for (let tries = 0; tries < 50; tries++) {
      log.scrollTop = 0;
      await frame();
      if (log.scrollTop === 0 && log.querySelector('[data-index="0"]')) break;
    }
    for (let guard = 0; guard < 500; guard++) {
      collect();
      if (log.scrollTop + log.clientHeight >= log.scrollHeight - 1) break;
      log.scrollTop += Math.max(100, log.clientHeight / 2);
      await frame();
    }
    collect();
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
  });
}
