/**
 * Per-hunk review: a proposed edit with three hunks, hunks 1 and 3 accepted,
 * hunk 2 rejected with the keyboard, approved with Ctrl+Enter. The file gets exactly hunks 1 and 3 and
 * the next request the provider receives tells the model hunk 2 was rejected.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approvalCard, diffView, newSession, openWorkspace, send, toolCards, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

test("accepting hunks 1 and 3 and rejecting hunk 2 writes exactly 1 and 3 and tells the model 2 was rejected", async ({ page, host }) => {
  writeFileSync(join(host.workspace, "hunks.txt"), lines(20));
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Make three changes please [three-hunks]");

  const card = approvalCard(page);
  const list = card.getByRole("listbox", { name: "Hunks" });
  await expect(list.getByRole("option")).toHaveCount(3);
  await expect(card.getByRole("button", { name: /^Approve once\b/ })).toBeVisible();

  // Keyboard: focus the list, move to hunk 2, reject it (R moves on to hunk 3).
  await list.focus();
  await page.keyboard.press("j");
  await expect(list.getByRole("option", { name: "Hunk 2 of 3, accepted" })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("r");
  await expect(list.getByRole("option", { name: "Hunk 2 of 3, rejected" })).toBeVisible();
  await expect(list.getByRole("option", { name: "Hunk 3 of 3, accepted" })).toHaveAttribute("aria-selected", "true");
  // The diff panel follows the same review.
  await expect(diffView(page).getByRole("toolbar", { name: "Review hunks" })).toContainText("Hunk 3 of 3 · accepted");

  await screenshot(page, "hunk-review-before-approve");
  await expect(card.getByRole("button", { name: /^Approve once \(2 of 3 hunks\)/ })).toBeVisible();
  // The card's accident-proof approve key sends the same per-hunk review as the button.
  await page.keyboard.press("Control+Enter");
  await expect(card).toHaveCount(0);
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "done");
  await waitIdle(page);

  expect(readFileSync(join(host.workspace, "hunks.txt"), "utf8")).toBe(
    lines(20).replace("line 2\n", "LINE TWO\n").replace("line 18\n", "LINE EIGHTEEN\n"),
  );
  const requests = await host.fauxRequests();
  const told = requests[requests.length - 1].lastToolResult ?? "";
  expect(told).toContain("Applied 2 of 3 hunks (hunks 1 and 3). The user REJECTED hunk 2: NOT applied");
  expect(told).toContain("Hunk 2 of 3:\n@@ -10,1 +10,1 @@\n-line 10\n+LINE TEN");
});
