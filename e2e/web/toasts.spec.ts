/** Notices and errors (toasts) never cover a control or a dialog, and a start notice is shown once, not on every load. */
import { startHost, type E2EHost } from "../helpers/host";
import { openWorkspace } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

const NOTICE = "No API key is configured: the offline demo model is selected.";

test("a toast covers no control, sits under a dialog, and a start notice does not come back on reload", async ({ page }) => {
  const host: E2EHost = await startHost({ notices: [NOTICE] });
  try {
    await page.goto(host.url);
    const toast = page.getByRole("status").filter({ hasText: NOTICE });
    await expect(toast).toBeVisible();
    await openWorkspace(page, host.workspace);
    // An error too: a folder that does not exist.
    await page
      .getByRole("button", { name: "Change…" })
      .click()
      .catch(() => undefined);
    const path = page.getByLabel("Workspace folder path");
    if (await path.isVisible()) {
      await path.fill(`${host.workspace}/no-such-folder`);
      await page.getByRole("button", { name: "Open", exact: true }).click();
      await expect(page.getByRole("alert").filter({ hasText: "Could not open the workspace" })).toBeVisible();
    }
    await screenshot(page, "toasts");

    // No visible control outside the toasts overlaps them.
    const overlaps = await page.evaluate(() => {
      const region = document.querySelector(".toasts");
      if (!region) return ["no toast region"];
      const boxes = [...region.querySelectorAll(".toast")].map((t) => t.getBoundingClientRect());
      const hits: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>("button, input, textarea, select, [role=option], a[href]")) {
        if (region.contains(el) || el.offsetParent === null) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        for (const b of boxes) {
          if (r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom)
            hits.push(el.getAttribute("aria-label") ?? el.textContent ?? el.tagName);
        }
      }
      return hits;
    });
    expect(overlaps).toEqual([]);

    // A dialog covers the toasts, not the other way round.
    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    const onTop = await page.evaluate(() => {
      const t = document.querySelector(".toast");
      if (!t) return "no toast";
      const r = t.getBoundingClientRect();
      const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return el && t.contains(el) ? "toast" : "other";
    });
    expect(onTop).toBe("other");
    await page.keyboard.press("Escape");

    await page.reload();
    await expect(page.getByRole("region", { name: "Sessions" })).toBeVisible();
    await expect(page.getByText(NOTICE)).toHaveCount(0);
  } finally {
    // Leave the page first: a page whose server goes away logs connection errors.
    await page.goto("about:blank");
    await host.stop();
  }
});
