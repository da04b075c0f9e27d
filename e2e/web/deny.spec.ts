/** Denying a proposed edit: the file stays as it was and the model gets the reason. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { approvalCard, newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { WORKSPACE_FILES } from "../helpers/host";
import { expect, test } from "../helpers/fixtures";

test("denying an edit with a reason leaves the file unchanged and tells the model why", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Add a review note to README.md please.");

  const card = approvalCard(page);
  await expect(card).toBeVisible();
  // The card never takes the focus; the user moves it there, then N opens the reason.
  await card.focus();
  await page.keyboard.press("n");
  const reason = card.getByRole("textbox", { name: "Reason for the model (optional)" });
  await expect(reason).toBeFocused();
  await reason.fill("Not now: the README is frozen.");
  await card.getByRole("button", { name: "Deny", exact: true }).click();

  await expect(card).toHaveCount(0);
  const edit = toolCards(page, "edit").first();
  await expect(edit).toHaveAttribute("data-status", "denied");
  await expect(edit).toContainText("Not now: the README is frozen.");
  // Said once, by the decision line: not again as "Error [DENIED]: …".
  await expect(edit.getByText("Not now: the README is frozen.")).toHaveCount(1);
  await expect(edit).not.toContainText("Error [DENIED]");
  await waitIdle(page);
  // The demo agent reads the denial as an error result and stops there.
  await expect(transcript(page)).toContainText("The edit call failed");
  expect(readFileSync(join(host.workspace, "README.md"), "utf8")).toBe(WORKSPACE_FILES["README.md"]);
});
