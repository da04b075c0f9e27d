/**
 * The main journey, in web mode against the real core and the faux provider:
 * workspace → session → change proposed → approved → diff → model switch
 * (Anthropic → OpenAI) → more tool calls → reload → search.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  approvalCard,
  chooseModel,
  diffView,
  modelButton,
  newSession,
  openWorkspace,
  send,
  toolCards,
  transcript,
  transcriptText,
  waitIdle,
} from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

const NOTE = "Reviewed by the Agent Workbench demo agent.";

test("a change is proposed, approved, shown as a diff, survives a model switch and a reload, and is found by search", async ({
  page,
  host,
}) => {
  await page.goto(host.url);
  await expect(page.getByRole("heading", { name: "Open a workspace" })).toBeVisible();
  await openWorkspace(page, host.workspace);

  // Start on an Anthropic model.
  const anthropicModel = await chooseModel(page, "Anthropic");
  await expect(modelButton(page)).toHaveAccessibleName(`Model: ${anthropicModel}. Change model`);
  await newSession(page);

  // Shift+Enter breaks the line; Enter sends.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Please add a review note to README.md.");
  await box.press("Shift+Enter");
  await box.pressSequentially("Keep it short.");
  await expect(box).toHaveValue("Please add a review note to README.md.\nKeep it short.");
  await box.press("Enter");

  // The agent lists, reads, then proposes an edit that waits for approval.
  await expect(toolCards(page, "read").first()).toBeVisible();
  const card = approvalCard(page);
  await expect(card).toBeVisible();
  await expect(card).toContainText("The agent is waiting for your approval");
  await expect(card.getByLabel("Changes to README.md")).toContainText(NOTE);
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "awaitingApproval");
  await expect(diffView(page)).toContainText("README.md");
  await screenshot(page, "approval-card");

  await card.getByRole("button", { name: /^Approve once/ }).click();
  await expect(card).toHaveCount(0);
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "done");
  await waitIdle(page);
  await expect(transcript(page)).toContainText("Done: I added a review note");

  // The diff view shows the change, and the file on disk has it.
  await toolCards(page, "edit").first().getByRole("button", { name: "Open in diff view" }).click();
  await expect(diffView(page).locator(".modified")).toContainText("Reviewed by the Agent Workbench");
  await screenshot(page, "transcript-with-diff");
  expect(readFileSync(join(host.workspace, "README.md"), "utf8")).toContain(NOTE);

  // How full the context is, against the current model's window (Claude Sonnet 5, the first Anthropic model: 1M).
  const contextMeter = page.getByRole("meter", { name: /^Context: / });
  await expect(contextMeter).toHaveAccessibleName(/^Context: \d+ of 1000000 tokens \(\d+%\)/);

  // Switch to an OpenAI model mid-session; a marker says so.
  await modelButton(page).click();
  await expect(page.getByRole("listbox", { name: "Models" })).toBeVisible();
  await screenshot(page, "model-switcher");
  await page.keyboard.press("Escape");
  const openaiModel = await chooseModel(page, "OpenAI");
  await expect(transcript(page).getByRole("note", { name: "Model switched" })).toContainText(`to ${openaiModel}`);
  // The same history measured against the new model's window (GPT-5.5, the first OpenAI model: 1.05M).
  await expect(contextMeter).toHaveAccessibleName(/^Context: \d+ of 1050000 tokens/);

  // The agent continues on the new model with more tool calls (approved for the session by keyboard).
  await send(page, "Now add the same note to src/math.ts.");
  await expect(approvalCard(page)).toBeVisible();
  await expect(approvalCard(page)).toContainText("src/math.ts");
  // From the message box the keys decide nothing; with the focus moved to the card (Shift+Tab twice), they do.
  await page.keyboard.press("ControlOrMeta+Shift+Enter");
  await expect(approvalCard(page)).toHaveAttribute("data-keys", "off");
  await expect(approvalCard(page)).toBeVisible();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  await expect(approvalCard(page)).toHaveAttribute("data-keys", "on");
  await page.keyboard.press("ControlOrMeta+Shift+Enter");
  await expect(approvalCard(page)).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "edit")).toHaveCount(2);
  await expect(toolCards(page, "edit").nth(1)).toHaveAttribute("data-status", "done");
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText(openaiModel);
  expect(readFileSync(join(host.workspace, "src/math.ts"), "utf8")).toContain(NOTE);

  // Both providers were really called, and the strict validators accepted every request.
  const requests = await host.fauxRequests();
  expect(new Set(requests.map((r) => r.route))).toEqual(new Set(["anthropic", "openai-responses"]));
  expect(requests.filter((r) => !r.accepted)).toEqual([]);

  // Reload: the same session comes back from SQLite, unchanged.
  const before = await transcriptText(page);
  const title = await page.getByRole("heading", { level: 1 }).innerText();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(toolCards(page, "edit")).toHaveCount(2);
  expect(await transcriptText(page)).toEqual(before);

  // Search finds it, with the match highlighted.
  await page.getByRole("searchbox", { name: "Search sessions" }).fill("review note");
  const hit = page.getByRole("list", { name: "Search results" }).getByRole("button").first();
  await expect(hit).toContainText(title);
  await expect(hit.locator("mark").first()).toBeVisible();
  await hit.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
});
