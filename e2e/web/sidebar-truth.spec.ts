/**
 * The sidebar tells sessions apart and the first screen says what to do: a
 * fork shows which session it came from and both titles read further than a
 * dozen characters; with no workspace open, "Open folder…" is the primary
 * action and the path field is usable at 900 px wide.
 */
import { newSession, openWorkspace, send, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

const TITLE = "Explain the option parser please [quiet]";

test("a fork names its original in the list, and both titles read past a dozen characters", async ({ page, host }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, TITLE);
  await waitIdle(page);
  const list = page.getByRole("list", { name: "Session list" });
  await list
    .getByRole("button", { name: `Fork session ${TITLE}` })
    .first()
    .click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  const fork = list.getByRole("listitem").filter({ hasText: "fork of" });
  await expect(fork).toHaveCount(1);
  await expect(fork).toContainText(`fork of “${TITLE}”`);
  // Each title shows at least its first 30 characters: the name box hides none of that.
  for (const name of await list.locator(".session-name").all()) {
    const shown = await name.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const box = el.getBoundingClientRect();
      // The characters whose glyphs lie inside the name's box.
      let count = 0;
      const text = el.firstChild;
      if (!text) return 0;
      for (let i = 0; i < (text.textContent ?? "").length; i++) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const r = range.getBoundingClientRect();
        if (r.width === 0) continue; // a space where the line wraps
        if (r.bottom <= box.bottom + 0.5 && r.right <= box.right + 0.5) count++;
        else break;
      }
      return count;
    });
    expect(shown).toBeGreaterThanOrEqual(30);
  }
  await screenshot(page, "sidebar-truth-fork");
});

test("with no workspace, Open folder… is the primary action and the path field is usable at 900 px", async ({ page, host }) => {
  await page.setViewportSize({ width: 900, height: 700 });
  await page.goto(host.url);
  const primary = page.getByRole("main").getByRole("button", { name: "Open folder…" });
  await expect(primary).toBeVisible();
  await expect(primary).toHaveClass(/primary/);
  const field = page.getByLabel("Workspace folder path");
  expect((await field.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(160);
  await screenshot(page, "sidebar-truth-first-screen");
  await primary.click();
  const browser = page.getByRole("dialog");
  await expect(browser.getByLabel("Folder path")).toBeVisible();
  await browser.getByRole("button", { name: "Cancel" }).click();
  await expect(browser).toHaveCount(0);
  await field.fill(host.workspace);
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await expect(page.getByRole("region", { name: "Sessions" })).toBeVisible();
});
