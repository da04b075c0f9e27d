/**
 * Rewind (docs/checkpoints.md): a turn edits two files and runs a bash
 * command that creates a third; "Restore both" to before the turn lists the
 * three files with a Monaco diff, puts them back as they were, and continues
 * the conversation in a fork ending before that message.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { approvalCard, newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { WORKSPACE_FILES } from "../helpers/host";
import { expect, screenshot, test } from "../helpers/fixtures";

const MESSAGE = "Change README and math, and write notes [three-files]";

test("restore both to before a turn puts back the files it edited and the file its bash command created, and forks the conversation", async ({
  page,
  host,
}) => {
  // Every side effect records a checkpoint (git runs); on a loaded machine this takes longer than the default.
  test.setTimeout(600_000);
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, MESSAGE);

  // Three side effects, approved one by one.
  const steps = [
    { shows: "README.md", tool: "edit", nth: 0 },
    { shows: "src/math.ts", tool: "edit", nth: 1 },
    { shows: "echo created-by-bash", tool: "bash", nth: 0 },
  ];
  for (const step of steps) {
    const card = approvalCard(page);
    await expect(card).toContainText(step.shows);
    await card.getByRole("button", { name: /^Approve once/ }).click();
    await expect(toolCards(page, step.tool).nth(step.nth)).toHaveAttribute("data-status", "done");
  }
  await waitIdle(page);
  await expect(transcript(page)).toContainText("All three changes are done.");
  expect(readFileSync(join(host.workspace, "README.md"), "utf8")).toContain("rewound project");
  expect(readFileSync(join(host.workspace, "notes.txt"), "utf8")).toBe("created-by-bash\n");

  await transcript(page).getByRole("button", { name: "Rewind to before this message" }).click();
  const dialog = page.getByRole("dialog", { name: /^Rewind to before/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("radio", { name: /Restore both/ })).toBeChecked();
  const files = dialog.getByRole("region", { name: "Files that will change" });
  await expect(files.getByRole("listitem")).toHaveCount(3);
  await expect(files.getByRole("listitem").filter({ hasText: "README.md" })).toContainText("reverted");
  await expect(files.getByRole("listitem").filter({ hasText: "src/math.ts" })).toContainText("reverted");
  await expect(files.getByRole("listitem").filter({ hasText: "notes.txt" })).toContainText("removed");
  await expect(files).not.toContainText("changed outside the agent");

  // The selected file's diff in Monaco: now on the left, after the rewind on the right.
  await files.getByRole("button", { name: /README\.md/ }).click();
  const diff = dialog.getByLabel("Diff of README.md: now (left) and after the rewind (right)");
  await expect(diff.locator(".editor.original")).toContainText("rewound project");
  await expect(diff.locator(".editor.modified")).toContainText("A tiny project");
  await screenshot(page, "rewind-preview");

  await dialog.getByRole("button", { name: "Restore both" }).click();
  await expect(dialog.getByRole("status")).toContainText("3 files restored.");
  await expect(dialog.getByRole("status")).toContainText("(rewound)");
  expect(readFileSync(join(host.workspace, "README.md"), "utf8")).toBe(WORKSPACE_FILES["README.md"]);
  expect(readFileSync(join(host.workspace, "src/math.ts"), "utf8")).toBe(WORKSPACE_FILES["src/math.ts"]);
  expect(existsSync(join(host.workspace, "notes.txt"))).toBe(false);
  await screenshot(page, "rewind-done");
  await dialog.getByRole("button", { name: "Close", exact: true }).click();

  // The conversation continues in a fork ending before the message, which comes back in the composer.
  await expect(page.getByRole("heading", { level: 1 })).toContainText("(rewound)");
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue(MESSAGE);
  await expect(transcript(page)).not.toContainText("All three changes are done.");
  // The original session keeps the whole turn.
  await page.getByRole("list", { name: "Session list" }).getByRole("listitem").filter({ hasNotText: "(rewound)" }).first().click();
  await expect(transcript(page)).toContainText("All three changes are done.");

  // Settings counts what was recorded for this workspace (the turn's checkpoints and the rewind's own).
  await page.getByRole("button", { name: "Settings" }).click();
  const storage = page.getByRole("dialog", { name: "Settings" }).getByLabel("Checkpoint storage");
  await expect(storage).toContainText(/This workspace: .+ used · \d+ checkpoints/);
});
