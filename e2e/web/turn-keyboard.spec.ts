/**
 * The turn driven from the keyboard: the approval card takes the focus when it
 * appears, so Escape (Stop) and the message box must still be reachable from it.
 */
import { approvalCard, newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";

test("Escape stops the turn while the approval card has the focus", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please add a review note to README.md.");
  await expect(approvalCard(page)).toBeVisible();
  await expect(approvalCard(page).getByRole("button", { name: /^Approve Y/ })).toBeFocused();

  await page.keyboard.press("Escape");
  await expect(approvalCard(page)).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "aborted");
  await expect(transcript(page)).not.toContainText("Done: I added a review note");
});

test("after answering an approval with Y, what the user types goes to the message box", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please add a review note to README.md.");
  await expect(approvalCard(page)).toBeVisible();

  await page.keyboard.press("y");
  await expect(approvalCard(page)).toHaveCount(0);
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(box).toBeFocused();
  await waitIdle(page);
  await page.keyboard.type("Thanks");
  await expect(box).toHaveValue("Thanks");
});
