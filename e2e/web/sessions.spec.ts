/** Session management in the sidebar: rename, fork, delete with confirmation; settings in web mode. */
import { newSession, openWorkspace, send, transcript, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";

test("sessions can be renamed, forked and deleted (after confirming), newest first", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  // Still empty, the session is already a new one: New session (button or Alt+N) reuses it and puts the cursor in the message box.
  await page.getByRole("searchbox", { name: "Search sessions" }).focus();
  await page.getByRole("button", { name: "New session", exact: true }).click();
  await page.keyboard.press("Alt+N");
  await expect(page.getByRole("list", { name: "Session list" }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await send(page, "Write a long essay [slow]");
  await expect(transcript(page).getByLabel("Assistant message (streaming)")).toBeVisible();
  await page.getByRole("button", { name: "Stop" }).click();
  await waitIdle(page);

  const list = page.getByRole("list", { name: "Session list" });
  const first = list.getByRole("listitem").first();
  await first.getByRole("button", { name: /^Rename session/ }).click();
  const title = page.getByRole("textbox", { name: "Session title" });
  await title.fill("Essay attempt");
  await title.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Essay attempt");

  await list.getByRole("button", { name: "Fork session Essay attempt" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  // The fork marker names its source and the step, as replay numbers them.
  await expect(transcript(page)).toContainText(/Forked from “Essay attempt” at step \d+/);
  await expect(transcript(page)).toContainText("Write a long essay");

  // Delete the fork: cancel first, then confirm.
  const fork = list.getByRole("listitem").first();
  await fork.getByRole("button", { name: /^Delete session/ }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete this session?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await fork.getByRole("button", { name: /^Delete session/ }).click();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("listitem").first()).toContainText("Essay attempt");
});

test("settings in web mode say keys come from the environment and save the approval policy", async ({ page, host }) => {
  await page.goto(host.url);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toContainText("keys come from environment variables");
  await expect(dialog.getByRole("textbox", { name: /^API key for/ })).toHaveCount(0);
  await dialog.getByRole("combobox", { name: "Policy for bash" }).selectOption("deny");
  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(page.getByRole("dialog", { name: "Settings" }).getByRole("combobox", { name: "Policy for bash" })).toHaveValue("deny");
  void host;
});
