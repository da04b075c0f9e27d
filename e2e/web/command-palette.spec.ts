/** Shortcuts are discoverable: `?` lists the keys, Ctrl+Shift+P finds and runs an action. */
import { newSession, openWorkspace } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

test("? shows the keyboard shortcuts and Ctrl+Shift+P runs a command found by typing", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);

  // `?` typed in the message box is text, not a shortcut.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.press("?");
  await expect(box).toHaveValue("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toHaveCount(0);
  await box.fill("");

  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  const commands = help.getByRole("listbox", { name: "Commands" });
  await expect(commands.getByRole("option", { name: /^Approve once/ })).toContainText("Ctrl+Enter");
  await expect(commands.getByRole("option", { name: /^New session/ })).toContainText("Alt+N");
  await expect(commands.getByRole("option", { name: /^Previous \/ next step/ })).toContainText("in replay");
  await screenshot(page, "keyboard-shortcuts");
  await page.keyboard.press("Escape");
  await expect(help).toHaveCount(0);

  await page.keyboard.press("Control+Shift+P");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette.getByRole("combobox", { name: "Filter commands" })).toBeFocused();
  await page.keyboard.type("settings");
  await expect(palette.getByRole("option")).toHaveCount(1);
  await page.keyboard.press("Enter");
  await expect(palette).toHaveCount(0);
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
});
