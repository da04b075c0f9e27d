/**
 * Review screens that tell the truth: a rejected hunk reads struck through in
 * the diff panel (docs/change-review.md), and an approval card says in words
 * whether its keys work and that Ctrl/⌘+Enter outside it approved nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator } from "@playwright/test";
import { approvalCard, diffView, newSession, openWorkspace, send, toolCards, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

/** How Monaco draws the line holding `text` on one side of the diff: struck through or not. */
async function struck(panel: Locator, side: "original" | "modified", text: string): Promise<boolean> {
  const line = panel.locator(`.editor.${side} .view-line`, { hasText: text }).first();
  await expect(line).toBeVisible();
  return line.evaluate((el) =>
    [...el.querySelectorAll("span")].some((s) => getComputedStyle(s).textDecorationLine.includes("line-through") && s.textContent?.trim()),
  );
}

test("a rejected hunk is struck through in the diff panel, an accepted one is not", async ({ page, host }) => {
  writeFileSync(join(host.workspace, "hunks.txt"), lines(20));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Make three changes please [three-hunks]");
  const card = approvalCard(page);
  const list = card.getByRole("listbox", { name: "Hunks" });
  await expect(list.getByRole("option")).toHaveCount(3);
  const panel = diffView(page);
  await expect(panel.locator(".editor.modified")).toContainText("LINE TEN");
  expect(await struck(panel, "modified", "LINE TEN")).toBe(false);

  await list
    .getByRole("option", { name: /^Hunk 2 of 3/ })
    .getByRole("button", { name: "Reject" })
    .click();
  await expect(list.getByRole("option", { name: "Hunk 2 of 3, rejected" })).toBeVisible();
  await expect.poll(() => struck(panel, "modified", "LINE TEN")).toBe(true);
  await expect.poll(() => struck(panel, "original", "line 10")).toBe(true);
  expect(await struck(panel, "modified", "LINE TWO")).toBe(false);
  await screenshot(page, "review-truth-rejected-hunk");

  // Accepted again, it is plain again.
  await list
    .getByRole("option", { name: /^Hunk 2 of 3/ })
    .getByRole("button", { name: "Accept" })
    .click();
  await expect.poll(() => struck(panel, "modified", "LINE TEN")).toBe(false);
});

test("the card says in words whether its keys are on, and that Ctrl/⌘+Enter in the message box approved nothing", async ({
  page,
  host,
}) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please add a review note to README.md.");
  const card = approvalCard(page);
  const state = card.getByTestId("keys-state");
  await expect(state).toHaveText("Keys off");
  // Out of habit, Ctrl/⌘+Enter in the (empty) message box: nothing is decided, and the card says why in words.
  await page.getByRole("textbox", { name: "Message" }).focus();
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(card.getByRole("status").filter({ hasText: "outside this card approves nothing" })).toBeVisible();
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "awaitingApproval");
  await screenshot(page, "review-truth-keys-missed");

  await card.getByText("The agent is waiting for your approval").click();
  await expect(state).toHaveText("Keys on");
  await expect(card.getByText("outside this card approves nothing")).toHaveCount(0);
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(card).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "done");
});
