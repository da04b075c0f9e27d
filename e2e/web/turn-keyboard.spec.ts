/**
 * The turn driven from the keyboard, and keys that cannot answer an approval
 * by accident: the card never takes the focus from the message box, and its
 * keys (Ctrl/⌘+Enter, Ctrl/⌘+Shift+Enter, Y, S, N) work only with the focus
 * inside the card, which says so in words (docs/approvals.md).
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

  // A deliberate Ctrl/⌘+Enter with the focus moved to the card approves; the message being typed stays.
  await card.click({ position: { x: 4, y: 4 } });
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(card).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "done");
  await expect(box).toHaveValue("sure, also do X\nyes no s");
});

test("the card says in words where its keys work, and Ctrl/⌘+Enter in the deny reason denies", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please add a review note to README.md.");
  const card = approvalCard(page);
  // The hint shown (the other text only holds its place).
  const hint = card.getByTestId("key-hint").locator("[data-shown=true]");
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute("data-keys", "off");
  await expect(hint).toContainText("Keys work once the focus is in this card");
  await expect(hint).toContainText("never from the message box");
  // Y, S and N typed anywhere else are text or nothing.
  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("n");
  await expect(card.getByRole("textbox", { name: /Reason for the model/ })).toHaveCount(0);

  // Denying from the keyboard needs the focus in the card.
  await card.focus();
  await expect(card).toHaveAttribute("data-keys", "on");
  await expect(hint).toContainText("Keys on:");
  await page.keyboard.press("n");
  const reason = card.getByRole("textbox", { name: /Reason for the model/ });
  await expect(reason).toBeFocused();
  await page.keyboard.type("not now");
  // Out of habit the reason is sent with Ctrl/⌘+Enter: that denies (with the reason), it never approves.
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(card).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "denied");
  await expect(toolCards(page, "edit").first()).toContainText("not now");
  expect(readFileSync(join(host.workspace, "README.md"), "utf8")).toBe(WORKSPACE_FILES["README.md"]);
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

test("Ctrl/⌘+Enter and Ctrl/⌘+Shift+Enter in the message box never decide a pending approval", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please add a review note to README.md.");
  const card = approvalCard(page);
  await expect(card).toBeVisible();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.focus();
  // Someone used to sending with Ctrl/⌘+Enter writes a follow-up and sends it, twice over.
  await page.keyboard.type("and then update the changelog");
  await page.keyboard.press("ControlOrMeta+Shift+Enter");
  await page.keyboard.press("ControlOrMeta+Enter");
  await page.keyboard.press("ControlOrMeta+Shift+Enter");
  await page.keyboard.press("ControlOrMeta+Enter");

  // The message box did what it does without a card: the follow-up is queued behind the turn.
  await expect(page.getByRole("list", { name: "Queued messages" })).toContainText("and then update the changelog");
  // Nothing was decided: the card still waits, the edit still waits, the file is untouched.
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute("aria-busy", "false");
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "awaitingApproval");
  expect(readFileSync(join(host.workspace, "README.md"), "utf8")).toBe(WORKSPACE_FILES["README.md"]);

  // The same keys with the focus in the card decide.
  await card.getByRole("button", { name: /^Approve once/ }).focus();
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "done");
  // The queued follow-up is delivered next, and its own edit asks again: stop there.
  await expect(toolCards(page, "edit").nth(1)).toHaveAttribute("data-status", "awaitingApproval");
  await page.getByRole("button", { name: "Stop" }).click();
  await waitIdle(page);
  await expect(toolCards(page, "edit").nth(1)).toHaveAttribute("data-status", "aborted");
});
