/**
 * Replay in a narrow window (half a laptop screen): the header's buttons stay
 * reachable, and the diff panel, which floats over the timeline and the step's
 * details there, opens only when asked for.
 */
import { diffView } from "../helpers/app";
import { currentStep, expect, jumpTo, openReplayFromList, replayView, steps, test } from "../helpers/replay-fixtures";
import { REPLAY_SEED } from "../helpers/replay-seed";

for (const width of [800, 1024]) {
  test(`at ${width} px wide the replay header keeps its title and every button in view`, async ({ page, replayHost }) => {
    await page.setViewportSize({ width, height: 700 });
    await openReplayFromList(page, replayHost);
    const header = replayView(page).locator("header.replay-header");
    await expect(header.getByRole("heading", { name: /Replay · / })).toBeInViewport({ ratio: 1 });
    for (const name of ["Statistics", "Notes (0)", "Export JSON", "Export Markdown", "Export HTML", "Import JSON…", "Exit replay"]) {
      await expect(header.getByRole("button", { name, exact: true })).toBeInViewport({ ratio: 1 });
    }
    await header.getByRole("button", { name: "Exit replay" }).click();
    await expect(replayView(page)).toHaveCount(0);
  });
}

test("in a narrow window the diff panel opens only when asked and then follows the steps", async ({ page, replayHost }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openReplayFromList(page, replayHost);
  const files = page.getByRole("region", { name: "Files at this step" });

  // A step after an edit lists the file but leaves the step's details uncovered.
  await jumpTo(page, /Tool result: Edited README\.md/);
  await expect(files.getByRole("button", { name: "Show README.md as of this step" })).toBeVisible();
  await jumpTo(page, /Assistant: Done: README\.md/);
  await expect(files.getByRole("button", { name: "Show README.md as of this step" })).toBeVisible();
  await expect(diffView(page)).toBeHidden();
  // Covered by a panel that opened unasked, this click would never land.
  await page.getByRole("button", { name: "What the model saw" }).click({ timeout: 20_000 });
  const seen = page.getByRole("dialog", { name: "What the model saw" });
  await expect(seen).toBeVisible();
  await seen.getByRole("button", { name: "Close what the model saw" }).click();

  // Asked for, it opens, and stays open (over the timeline) while the keyboard steps on.
  const here = stepNumber(await currentStep(page).getAttribute("aria-label"));
  const mathResult = stepNumber(await steps(page).filter({ hasText: "Edited src/math.ts" }).first().getAttribute("aria-label"));
  await files.getByRole("button", { name: "Show README.md as of this step" }).click();
  await expect(diffView(page)).toBeVisible();
  await expect(diffView(page).locator(".modified")).toContainText(REPLAY_SEED.readmeLine);
  for (let i = here; i < mathResult; i++) await page.keyboard.press("ArrowRight");
  await expect(currentStep(page)).toHaveAttribute("data-kind", "toolResult");
  await expect(files.getByRole("button", { name: "Show src/math.ts as of this step" })).toBeAttached();
  await expect(diffView(page)).toBeVisible();

  // Closed, it stays closed on the next steps.
  await diffView(page).getByRole("button", { name: "Close diff view" }).click();
  await expect(diffView(page)).toBeHidden();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByLabel("Current step")).toHaveText(new RegExp(`^Step ${mathResult + 1} of`));
  await expect(files.getByRole("button", { name: "Show src/math.ts as of this step" })).toBeVisible();
  await expect(diffView(page)).toBeHidden();
});

/** The step number in a timeline row's label ("Step 9, Assistant: …"). */
function stepNumber(label: string | null): number {
  const n = Number(label?.match(/^Step (\d+),/)?.[1]);
  if (!Number.isInteger(n)) throw new Error(`not a timeline row label: ${label}`);
  return n;
}
