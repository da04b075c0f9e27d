/**
 * Model and tool content cannot break or fake the UI: an answer's HTML cannot
 * draw over the transcript (a position:fixed "tool card" over the real one),
 * take the app's ids, roles or classes, or look like its buttons.
 */
import { newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

test("an answer's fixed-position HTML does not cover its tool card, nor pose as app UI", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Read the readme [overlay-html]");
  await waitIdle(page);
  const card = toolCards(page, "read").first();
  await expect(card).toHaveAttribute("data-status", "done");
  const answer = transcript(page).locator(".markdown").first();
  const fake = answer.getByText("Nothing to review here, all good.");
  await expect(fake).toBeVisible();
  await screenshot(page, "hostile-overlay");

  const seen = await page.evaluate(() => {
    const markdown = document.querySelector(".markdown") as HTMLElement;
    const fakeBox = [...markdown.querySelectorAll("div")].find((d) => d.textContent?.includes("Nothing to review")) ?? markdown;
    const real = document.querySelector('article[aria-label^="Tool call read"]') as HTMLElement;
    const r = real.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const m = markdown.getBoundingClientRect();
    const f = fakeBox.getBoundingClientRect();
    return {
      position: getComputedStyle(fakeBox).position,
      insideMessage: f.left >= m.left - 1 && f.right <= m.right + 1 && f.top >= m.top - 1 && f.bottom <= m.bottom + 1,
      realCardOnTop: hit !== null && real.contains(hit),
      attributes: [...markdown.querySelectorAll("[style], [id], [role], [aria-label], [class~='tool-card'], [class~='primary']")].length,
      composerId: document.getElementById("composer-input")?.tagName ?? null,
    };
  });
  expect(seen).toEqual({ position: "static", insideMessage: true, realCardOnTop: true, attributes: 0, composerId: "TEXTAREA" });
  // The fake claimed to be the approval card: it is not found as one.
  await expect(page.getByRole("region", { name: "Approval required" })).toHaveCount(0);
  // The fake "Approve once" is a plain link-less text, not a button of the app.
  await expect(answer.getByRole("button")).toHaveCount(0);
  await expect(answer.getByRole("link", { name: "Approve once" })).toHaveCount(0);
});
