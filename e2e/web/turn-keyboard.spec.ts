/**
 * The turn driven from the keyboard, and keys that cannot answer an approval
 * by accident: the card never takes the focus from the message box, bare keys
 * work only inside the card, and the first keystroke after a card appears is
 * never a decision (docs/approvals.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { approvalCard, newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { WORKSPACE_FILES } from "../helpers/host";
import { expect, test } from "../helpers/fixtures";

test("typing a follow-up right after sending never answers the approval card", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please add a review note to README.md.");
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(box).toBeFocused();
  // The user starts typing at once, and is still typing when the card appears.
  await page.keyboard.type("sure, ");
  const card = approvalCard(page);
  await expect(card).toBeVisible();
  await page.keyboard.type("also do X");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("yes no s");

  await expect(box).toBeFocused();
  await expect(box).toHaveValue("sure, also do X\nyes no s");
  // No decision was taken: the card is still there, the edit still waits, the file is untouched.
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute("aria-busy", "false");
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "awaitingApproval");
  await expect(toolCards(page, "edit").first()).not.toContainText("Approved");
  expect(readFileSync(join(host.workspace, "README.md"), "utf8")).toBe(WORKSPACE_FILES["README.md"]);

  // A deliberate Ctrl/⌘+Enter approves, without sending the message being typed.
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(card).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "done");
  await expect(box).toHaveValue("sure, also do X\nyes no s");
});

test("the first keystroke after a card appears is not a decision, even Ctrl/⌘+Enter", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please add a review note to README.md.");
  const card = approvalCard(page);
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute("data-armed", "false");
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(card).toHaveAttribute("data-armed", "true");
  await expect(card).toBeVisible();
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "awaitingApproval");
  // Denying from the keyboard needs the focus in the card.
  await card.focus();
  await page.keyboard.press("n");
  await card.getByRole("button", { name: "Deny", exact: true }).click();
  await expect(card).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "denied");
});

test("Escape stops the turn while the approval card has the focus", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please add a review note to README.md.");
  await expect(approvalCard(page)).toBeVisible();
  await approvalCard(page).focus();
  await expect(approvalCard(page)).toBeFocused();

  await page.keyboard.press("Escape");
  await expect(approvalCard(page)).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "aborted");
  await expect(transcript(page)).not.toContainText("Done: I added a review note");
});

test("after answering an approval with Y in the card, what the user types goes to the message box", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please add a review note to README.md.");
  await expect(approvalCard(page)).toBeVisible();

  await approvalCard(page).focus();
  await page.keyboard.press("y");
  await expect(approvalCard(page)).toHaveCount(0);
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(box).toBeFocused();
  await waitIdle(page);
  await page.keyboard.type("Thanks");
  await expect(box).toHaveValue("Thanks");
});
