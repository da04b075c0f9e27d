/**
 * Review comments: after an edit lands, open the Changes view, comment on two
 * lines of the changed file, send the comments; the next request the provider
 * receives carries them with file and line, and they show in replay and in the
 * HTML export.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "@playwright/test";
import { approvalCard, diffView, newSession, openWorkspace, send, toolCards, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

/** Clicks a line number of the changed side in the diff panel's Monaco editor. */
async function clickLineNumber(page: Page, line: number): Promise<void> {
  const numbers = diffView(page).locator(".editor.modified .line-numbers");
  await numbers
    .filter({ hasText: new RegExp(`^${line}$`) })
    .first()
    .click();
}

test.setTimeout(600_000);

test("comments on two lines of the Changes view reach the agent with file and line, and show in replay and the HTML export", async ({
  page,
  host,
  context,
}) => {
  writeFileSync(join(host.workspace, "hunks.txt"), lines(20));
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Make three changes please [three-hunks]");
  await approvalCard(page)
    .getByRole("button", { name: /^Approve once/ })
    .click();
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "done");
  await waitIdle(page);

  await page.getByRole("button", { name: "Changes", exact: true }).click();
  const changes = page.getByRole("region", { name: "Changes" });
  const file = changes.getByRole("button", { name: "hunks.txt, modified, 3 added, 3 removed" });
  await expect(file).toBeVisible();
  await file.click();
  await expect(diffView(page).locator(".editor.modified")).toContainText("LINE TEN");

  for (const [line, text] of [
    [2, "Keep the original casing here."],
    [18, "Why uppercase? Explain in a comment."],
  ] as const) {
    await clickLineNumber(page, line);
    const form = page.getByRole("form", { name: "Review comment" });
    await expect(form).toContainText(`hunks.txt:${line}`);
    await form.getByRole("textbox").fill(text);
    await form.getByRole("textbox").press("Enter");
    await expect(form).toHaveCount(0);
  }
  const pending = page.getByRole("region", { name: "Review comments to send" });
  await expect(pending.getByRole("listitem")).toHaveCount(2);
  await screenshot(page, "review-comments-pending");
  await pending.getByRole("button", { name: "Send comments to the agent" }).click();
  await expect(pending).toHaveCount(0);
  await page.getByRole("button", { name: "Close changes" }).click();
  await waitIdle(page);

  const requests = await host.fauxRequests();
  const asked = requests[requests.length - 1].lastUserText ?? "";
  expect(asked).toBe(
    "Review comments:\n- hunks.txt:2 — Keep the original casing here.\n- hunks.txt:18 — Why uppercase? Explain in a comment.",
  );

  // Replay: the comments are notes at their step, with file and line.
  const list = page.getByRole("list", { name: "Session list" });
  await list
    .getByRole("button", { name: /^Replay session / })
    .first()
    .click();
  const replay = page.getByRole("main", { name: "Replay" });
  await expect(replay).toBeVisible();
  await page.getByRole("button", { name: "Notes (2)" }).click();
  await expect(page.getByLabel("Comment on hunks.txt:2")).toBeVisible();
  await expect(page.getByLabel("Comment on hunks.txt:18")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Reviewer notes" })).toHaveCount(0);

  // The HTML export shows them at their step.
  const downloading = page.waitForEvent("download");
  await replay.getByRole("button", { name: "Export HTML" }).click();
  const download = await downloading;
  const saved = join(host.dir, download.suggestedFilename());
  await download.saveAs(saved);
  const offline = await context.newPage();
  await offline.goto(pathToFileURL(saved).href);
  await offline.locator("#last").click();
  const transcript = offline.getByRole("region", { name: "Transcript" });
  await expect(transcript).toContainText("Review comment on hunks.txt:2 by reviewer");
  await expect(transcript).toContainText("Keep the original casing here.");
  await expect(transcript).toContainText("Review comment on hunks.txt:18 by reviewer");
  await offline.close();
});
