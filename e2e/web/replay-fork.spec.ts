/**
 * Fork onto another model from a replay step: the fork holds the entries up to
 * the step, switches to the chosen model, opens in the normal view, continues
 * with the faux provider answering as that model, and links back to its source.
 */
import { chooseModel, modelButton, send, transcript, waitIdle } from "../helpers/app";
import { screenshot } from "../helpers/fixtures";
import { currentStep, expect, jumpTo, openReplayFromList, replayView, stepCounter, test } from "../helpers/replay-fixtures";
import { REPLAY_SEED } from "../helpers/replay-seed";

test("a session forked at a step onto another model continues there and links back to its source", async ({ page, replayHost }) => {
  await openReplayFromList(page, replayHost);
  // Fork after the first turn's answer, before the switch to GPT-4.1.
  await jumpTo(page, new RegExp(`Assistant: ${REPLAY_SEED.answer1.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  const seq = await currentStep(page).getAttribute("data-seq");
  const step = (await stepCounter(page).innerText()).replace(/ of \d+$/, "");
  await page.getByRole("button", { name: "Fork onto another model…" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork onto another model" });
  await expect(dialog).toContainText(`up to ${step.toLowerCase()}`);
  await expect(dialog.getByRole("button", { name: "Fork and continue" })).toBeDisabled();
  const model = await chooseModel(page, "OpenAI");
  await expect(modelButton(page)).toHaveAccessibleName(`Model: ${model}. Change model`);
  await screenshot(page, "replay-fork-dialog");
  await dialog.getByRole("button", { name: "Fork and continue" }).click();

  // The fork opens in the normal view on the chosen model, with the history up to the step.
  await expect(replayView(page)).toHaveCount(0);
  const title = `${REPLAY_SEED.title} (fork)`;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(modelButton(page)).toHaveAccessibleName(`Model: ${model}. Change model`);
  await expect(transcript(page)).toContainText(REPLAY_SEED.answer1);
  await expect(transcript(page)).not.toContainText(REPLAY_SEED.user2);
  // The chat's fork marker numbers the source as its replay does.
  await expect(transcript(page)).toContainText(`Forked from “${REPLAY_SEED.title}” at ${step.toLowerCase()}`);
  await expect(transcript(page).getByRole("note", { name: "Model switched" })).toContainText(`to ${model}`);

  // Continue: the faux provider answers as the new model.
  await send(page, "Carry on from here, please.");
  await waitIdle(page);
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText(REPLAY_SEED.forkAnswerPrefix);
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText(model);
  await screenshot(page, "replay-fork-continued");

  // Replaying the fork says where it came from, and the link opens the source at the fork point.
  await page
    .getByRole("list", { name: "Session list" })
    .getByRole("button", { name: `Replay session ${title}` })
    .click();
  await expect(replayView(page)).toBeVisible();
  // Steps are numbered as the source's replay numbers them, not by stored entry.
  const link = replayView(page).getByRole("button", { name: `“${REPLAY_SEED.title}” at ${step.toLowerCase()}` });
  await expect(replayView(page).locator(".forked-from")).toHaveText(`forked from “${REPLAY_SEED.title}” at ${step.toLowerCase()}`);
  await expect(replayView(page).getByLabel("Timeline", { exact: true })).toContainText(
    `Forked from “${REPLAY_SEED.title}” at ${step.toLowerCase()}`,
  );
  await link.click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(REPLAY_SEED.title);
  await expect(page.getByRole("heading", { level: 1 })).not.toContainText("(fork)");
  await expect(currentStep(page)).toHaveAttribute("data-seq", seq ?? "");
});
