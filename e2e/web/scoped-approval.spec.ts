/**
 * "Approve for this session" approves what the card shows: the exact command
 * (or the rule the user edits there), never the whole bash tool; "Always
 * allow" saves a rule that Settings lists and can revoke (docs/approvals.md).
 */
import { approvalCard, newSession, openWorkspace, send, toolCards, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";

test("approving `npm test` for the session still asks for `npm test; rm -rf x`", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please run `npm test` for me.");
  const card = approvalCard(page);
  await expect(card).toBeVisible();
  await expect(card.getByRole("textbox", { name: "Approval rule" })).toHaveValue("npm test");
  await expect(card.getByTestId("scope-words")).toContainText("exactly npm test");
  // What approving it trusts, in words: the workspace's own test script.
  await expect(card.getByLabel("Runs workspace code")).toContainText("npm test runs a script from package.json");
  await card.getByRole("button", { name: /^Approve for this session/ }).click();
  await expect(card).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "bash").first()).toContainText("`npm test`");

  // The same command again: allowed by the session rule, and the card says which.
  await send(page, "Please run `npm test` again.");
  await waitIdle(page);
  await expect(toolCards(page, "bash")).toHaveCount(2);
  await expect(toolCards(page, "bash").nth(1)).toContainText("Allowed by rule `npm test` (this session)");
  await expect(approvalCard(page)).toHaveCount(0);

  // A longer line is asked for again, and can only be approved once.
  await send(page, "Please run `npm test; rm -rf x` now.");
  await expect(card).toBeVisible();
  await expect(card).toContainText("npm test; rm -rf x");
  await expect(card.getByTestId("scope-words")).toContainText("can only be approved once");
  await expect(card.getByRole("button", { name: /^Approve for this session/ })).toBeDisabled();
  await card.getByRole("button", { name: /^Deny/ }).click();
  await card.getByRole("button", { name: "Deny", exact: true }).click();
  await expect(card).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "bash").nth(2)).toHaveAttribute("data-status", "denied");
});

test("always allow with an edited prefix rule is saved, applies at once, and is revoked in Settings", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please run `echo one` for me.");
  const card = approvalCard(page);
  await expect(card).toBeVisible();
  await card.getByRole("textbox", { name: "Approval rule" }).fill("echo *");
  await expect(card.getByTestId("scope-words")).toContainText("echo with any further arguments");
  await card.getByRole("button", { name: "Always allow", exact: true }).click();
  await expect(card).toHaveCount(0);
  await waitIdle(page);

  await send(page, "Please run `echo two three` for me.");
  await waitIdle(page);
  await expect(toolCards(page, "bash").nth(1)).toContainText("Allowed by rule `echo *` (this workspace)");

  await page.getByRole("button", { name: "Settings" }).click();
  const rules = page.getByRole("list", { name: "Saved rules" });
  await expect(rules.getByRole("listitem")).toHaveCount(1);
  await expect(rules).toContainText("echo with any further arguments");
  await rules.getByRole("button", { name: "Revoke echo *" }).click();
  await expect(rules.getByRole("listitem")).toHaveCount(0);
  await page.keyboard.press("Escape");

  await send(page, "Please run `echo four` for me.");
  await expect(card).toBeVisible();
});
