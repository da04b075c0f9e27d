/**
 * A change too large to show: a 14-character edit of a 5 MB one-line file.
 * The approval card and the tool card say so (no diff, no "Open in diff view"),
 * the change is approved whole and written, and nothing in the page fails.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approvalCard, newSession, openWorkspace, send, toolCards, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

const BIG = "x".repeat(5 * 1024 * 1024 - 20) + "needle-in-here";

test("a 14-character edit of a 5 MB one-line file is shown as too large to show, approved whole and written", async ({ page, host }) => {
  writeFileSync(join(host.workspace, "big.txt"), BIG);
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Change the needle please [big-line]");

  const card = approvalCard(page);
  await expect(card).toContainText("This change is too large to show");
  await expect(card).toContainText("Approve or deny the change as a whole.");
  await expect(card.getByRole("button", { name: "Open in diff view" })).toHaveCount(0);
  await expect(card.getByRole("listbox", { name: "Hunks" })).toHaveCount(0);
  await screenshot(page, "big-diff-approval");
  await card.getByRole("button", { name: /^Approve once\b/ }).click();

  await expect(card).toHaveCount(0);
  const edit = toolCards(page, "edit").first();
  await expect(edit).toHaveAttribute("data-status", "done");
  await expect(edit).toContainText("This change is too large to show");
  await expect(edit.getByRole("button", { name: "Open in diff view" })).toHaveCount(0);
  await waitIdle(page);
  expect(readFileSync(join(host.workspace, "big.txt"), "utf8")).toBe(BIG.replace("needle-in-here", "NEEDLE-IN-HERE"));
});
