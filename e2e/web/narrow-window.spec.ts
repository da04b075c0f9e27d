/**
 * A window half a laptop screen wide (or beside an editor): the transcript
 * keeps a readable width, an approval's buttons stay in view, and the diff
 * panel floats over the transcript only when asked for.
 */
import type { Locator } from "@playwright/test";
import { approvalCard, chooseModel, diffView, newSession, openWorkspace, send, transcript, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error("not rendered");
  return b;
}

/** `inner` lies wholly inside `outer` (not cut off by its edges). */
async function expectInside(inner: Locator, outer: Locator) {
  const [i, o] = [await box(inner), await box(outer)];
  expect(i.x).toBeGreaterThanOrEqual(o.x - 0.5);
  expect(i.y).toBeGreaterThanOrEqual(o.y - 0.5);
  expect(i.x + i.width).toBeLessThanOrEqual(o.x + o.width + 0.5);
  expect(i.y + i.height).toBeLessThanOrEqual(o.y + o.height + 0.5);
}

test("in a narrow window the approval stays answerable and the diff panel floats over the transcript", async ({ page, host }) => {
  await page.setViewportSize({ width: 800, height: 700 });
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await chooseModel(page, "Anthropic");
  await newSession(page);
  await send(page, "Please add a review note to README.md.");

  const card = approvalCard(page);
  await expect(card).toBeVisible();
  // Nothing opened over the card the user has to answer.
  await expect(diffView(page)).toBeHidden();
  expect((await box(transcript(page))).width).toBeGreaterThanOrEqual(480);
  const approve = card.getByRole("button", { name: /^Approve once/ });
  const viewport = page.locator("body");
  await expectInside(approve, card);
  await expectInside(card, viewport);
  await expectInside(card.getByRole("button", { name: /^Deny/ }), card);
  await screenshot(page, "narrow-approval");

  // Asked for, the diff floats over the transcript; closing it gives the transcript back.
  await card.getByRole("button", { name: "Open in diff view" }).click();
  await expect(diffView(page)).toBeVisible();
  await expect(diffView(page).locator(".modified")).toContainText("Reviewed by the Agent Workbench");
  const [panel, log] = [await box(diffView(page)), await box(transcript(page))];
  expect(panel.x).toBeLessThan(log.x + log.width);
  expect((await box(transcript(page))).width).toBeGreaterThanOrEqual(480);
  await diffView(page).getByRole("button", { name: /close/i }).click();
  await expect(diffView(page)).toBeHidden();
  // Like any overlay, Escape closes it too.
  await card.getByRole("button", { name: "Open in diff view" }).click();
  await expect(diffView(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(diffView(page)).toBeHidden();

  await approve.click();
  await expect(card).toHaveCount(0);
  await waitIdle(page);
  await expect(transcript(page)).toContainText("Done: I added a review note");
});
