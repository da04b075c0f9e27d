/**
 * Replay and review in web mode, against a session the real loop ran through
 * the faux provider (edits, a model switch, a denied command and a provider
 * error): stepping with the keyboard, the diff panel following the steps,
 * filters, "what the model saw" after the switch, and notes across a reload.
 */
import { diffView, transcript } from "../helpers/app";
import { screenshot } from "../helpers/fixtures";
import {
  currentStep,
  expect,
  jumpTo,
  openReplayFromList,
  replayView,
  stepCounter,
  steps,
  test,
  timeline,
} from "../helpers/replay-fixtures";
import { REPLAY_SEED } from "../helpers/replay-seed";

test("a reviewer steps through a finished session and the transcript and diff panel follow each step", async ({ page, replayHost }) => {
  await openReplayFromList(page, replayHost);
  const total = Number((await stepCounter(page).innerText()).replace(/^Step 1 of /, ""));
  expect(total).toBeGreaterThan(15);
  await expect(steps(page)).toHaveCount(total);

  // Step 1 is the first user message: nothing else yet, no file changed.
  await expect(currentStep(page)).toHaveAttribute("data-kind", "user");
  await expect(transcript(page)).toContainText(REPLAY_SEED.user1);
  await expect(transcript(page)).not.toContainText(REPLAY_SEED.readIntro);
  await expect(page.getByRole("region", { name: "Files at this step" })).toContainText("No file changed yet.");
  await expect(diffView(page)).toBeHidden();

  // → and j step forward; the transcript grows with each step.
  await page.keyboard.press("ArrowRight");
  await expect(stepCounter(page)).toHaveText(`Step 2 of ${total}`);
  await expect(currentStep(page)).toHaveAttribute("data-kind", "assistant");
  await expect(transcript(page)).toContainText(REPLAY_SEED.readIntro);
  await page.keyboard.press("j");
  await expect(stepCounter(page)).toHaveText(`Step 3 of ${total}`);
  await expect(currentStep(page)).toHaveAttribute("data-kind", "toolCall");
  // The read has no result yet at its call.
  await expect(transcript(page).getByRole("article", { name: /^Tool call read:/ })).toHaveAttribute("data-status", "pending");
  await page.keyboard.press("ArrowRight");
  await expect(transcript(page).getByRole("article", { name: /^Tool call read:/ })).toHaveAttribute("data-status", "done");

  // Jump to the README edit's result: the diff panel shows README.md as of that step.
  await jumpTo(page, /Tool result: Edited README\.md/);
  await expect(diffView(page)).toBeVisible();
  await expect(diffView(page)).toContainText("README.md");
  await expect(diffView(page).locator(".modified")).toContainText(REPLAY_SEED.readmeLine);
  const files = page.getByRole("region", { name: "Files at this step" });
  await expect(files.getByRole("button", { name: "Show README.md as of this step" })).toBeVisible();
  await expect(files.getByRole("button", { name: "Show src/math.ts as of this step" })).toHaveCount(0);
  await screenshot(page, "replay-diff-readme");

  // Later, the math edit: the panel follows to src/math.ts, and both files are listed.
  await jumpTo(page, /Tool result: Edited src\/math\.ts/);
  await expect(diffView(page)).toContainText("src/math.ts");
  await expect(diffView(page).locator(".modified")).toContainText(REPLAY_SEED.mathLine);
  await expect(files.getByRole("button", { name: "Show README.md as of this step" })).toBeVisible();
  await files.getByRole("button", { name: "Show README.md as of this step" }).click();
  await expect(diffView(page)).toContainText("README.md");

  // ← and k step back; Home goes back to the start, where no file had changed.
  const before = await stepCounter(page).innerText();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("k");
  await expect(stepCounter(page)).not.toHaveText(before);
  await page.keyboard.press("Home");
  await expect(stepCounter(page)).toHaveText(`Step 1 of ${total}`);
  await expect(diffView(page)).toBeHidden();
  await expect(transcript(page)).not.toContainText(REPLAY_SEED.answer1);

  // Play runs through the steps on its own, and stops at the end.
  await page.getByLabel("Playback speed").selectOption("8");
  await timeline(page).focus();
  await page.keyboard.press("End");
  await expect(stepCounter(page)).toHaveText(`Step ${total} of ${total}`);
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await replayView(page).getByRole("button", { name: "Play", exact: true }).click();
  await expect(stepCounter(page)).toHaveText(`Step ${total} of ${total}`);
  await expect(replayView(page).getByRole("button", { name: "Play", exact: true })).toBeDisabled();
  await expect(transcript(page)).toContainText(REPLAY_SEED.answer3);

  // The statistics panel sums the session up.
  await page.getByRole("button", { name: "Statistics" }).click();
  const stats = page.getByRole("dialog", { name: "Session statistics" });
  await expect(stats.getByRole("table", { name: "Tool calls by tool and outcome" })).toContainText("edit");
  // Each decision said once (not "2 granted, 1 denied (2 approved, 1 denied)").
  await expect(stats).toContainText(/2 approved( \(.*\))?, 1 denied/);
  await expect(stats).not.toContainText("granted");
  await expect(stats).toContainText("1 denied");
  await expect(stats).toContainText("1 failed request");
  await expect(stats.getByRole("table", { name: "Tokens and cost per model" })).toContainText("Claude Sonnet 4.6");
  await expect(stats.getByRole("table", { name: "Tokens and cost per model" })).toContainText("GPT-4.1 (Chat Completions)");
  await screenshot(page, "replay-statistics");
  await page.keyboard.press("Escape");
  await expect(stats).toHaveCount(0);
});

test("filters narrow the timeline to errors, one tool, one model or side effects", async ({ page, replayHost }) => {
  await openReplayFromList(page, replayHost);
  const total = await steps(page).count();
  const filters = page.getByRole("group", { name: "Timeline filters" });

  await filters.getByLabel("Errors only").check();
  await expect(steps(page)).toHaveCount(1);
  await expect(steps(page).first()).toHaveAttribute("data-kind", "error");
  // The cursor lands on the match, and the transcript shows the session up to the failed request.
  await expect(currentStep(page)).toHaveAttribute("data-kind", "error");
  await expect(transcript(page)).toContainText(REPLAY_SEED.user3);
  await expect(transcript(page)).not.toContainText(REPLAY_SEED.answer3);
  await filters.getByLabel("Errors only").uncheck();
  await expect(steps(page)).toHaveCount(total);

  await filters.getByLabel("Filter by tool").selectOption("edit");
  const editRows = steps(page);
  const edits = await editRows.count();
  expect(edits).toBeGreaterThanOrEqual(4);
  for (const kind of await editRows.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-kind")))) {
    expect(["toolCall", "toolResult", "approval"]).toContain(kind);
  }
  // Stepping moves between matches only.
  await timeline(page).focus();
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("region", { name: "Step details" })).toContainText("edit");
  await filters.getByLabel("Filter by tool").selectOption("");

  await filters.getByLabel("Filter by model").selectOption({ label: "GPT-4.1 (Chat Completions)" });
  const gptRows = await steps(page).count();
  expect(gptRows).toBeGreaterThan(3);
  expect(gptRows).toBeLessThan(total);
  await expect(steps(page).first()).toHaveAttribute("data-kind", "modelSwitch");
  await expect(timeline(page)).not.toContainText(REPLAY_SEED.readIntro);
  await filters.getByLabel("Filter by model").selectOption("");

  await filters.getByLabel("Side effects only").check();
  const sideKinds = await steps(page).evaluateAll((rows) => rows.map((r) => r.getAttribute("aria-label") ?? ""));
  expect(sideKinds.length).toBeGreaterThanOrEqual(6);
  expect(sideKinds.some((l) => /bash/.test(l))).toBe(true);
  expect(sideKinds.some((l) => /\bread\b/.test(l))).toBe(false);
  await screenshot(page, "replay-filter-side-effects");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(steps(page)).toHaveCount(total);
});

test("what the model saw after the model switch shows the rewritten tool-call ids mapped to the stored ones", async ({
  page,
  replayHost,
}) => {
  await openReplayFromList(page, replayHost);
  // Only GPT-4.1's steps: the switch to it, then its first request.
  await page
    .getByRole("group", { name: "Timeline filters" })
    .getByLabel("Filter by model")
    .selectOption({ label: "GPT-4.1 (Chat Completions)" });
  await timeline(page).focus();
  await page.keyboard.press("Home");
  await expect(currentStep(page)).toHaveAttribute("data-kind", "modelSwitch");
  await page.keyboard.press("ArrowRight");
  await expect(currentStep(page)).toHaveAttribute("data-kind", "assistant");
  await expect(page.getByRole("region", { name: "Step details" })).toContainText("GPT-4.1 (Chat Completions)");
  await page.getByRole("button", { name: "What the model saw" }).click();

  const dialog = page.getByRole("dialog", { name: "What the model saw" });
  const ids = dialog.getByRole("table", { name: "Tool-call ids: sent and stored" });
  await expect(ids).toBeVisible();
  // The 48-character Anthropic id was rewritten for Chat Completions (40 at most); the short one was not.
  const rewritten = ids.getByRole("row").filter({ hasText: "rewritten" });
  await expect(rewritten).toHaveCount(1);
  await expect(rewritten.getByRole("cell").nth(1)).toHaveText(REPLAY_SEED.longEditId);
  const wireId = (await rewritten.getByRole("cell").first().innerText()).trim();
  expect(wireId).not.toBe(REPLAY_SEED.longEditId);
  expect(wireId.length).toBeLessThanOrEqual(40);
  await expect(ids.getByRole("row").filter({ hasText: REPLAY_SEED.readId })).toContainText("unchanged");

  // The body is what the provider got: the wire id, highlighted and mapped back; never the stored long id.
  const body = dialog.getByLabel("Request body");
  await expect(body).toContainText('"model": "gpt-4.1"');
  await expect(body).not.toContainText(REPLAY_SEED.longEditId);
  const marks = body.locator(`mark.rewritten[data-stored-id="${REPLAY_SEED.longEditId}"]`);
  await expect.poll(() => marks.count()).toBeGreaterThanOrEqual(2); // the call and its result
  await expect(marks.first()).toHaveText(wireId);
  await screenshot(page, "replay-model-view");
  await dialog.getByRole("button", { name: "Close what the model saw" }).click();
  await expect(dialog).toHaveCount(0);
});

test("a note with a verdict is added to a step and survives a reload", async ({ page, replayHost }) => {
  await openReplayFromList(page, replayHost);
  await jumpTo(page, /Error:/);
  await expect(currentStep(page)).toHaveAttribute("data-kind", "error");
  const seq = await currentStep(page).getAttribute("data-seq");
  const counter = await stepCounter(page).innerText();

  const notes = page.getByRole("region", { name: "Notes on this entry" });
  await notes.getByRole("textbox", { name: "Note", exact: true }).fill("The 500 was retried without telling the user.");
  await notes.getByRole("radio", { name: "Problem" }).click();
  await notes.getByLabel("Author").fill("Rita");
  await notes.getByRole("button", { name: "Add note" }).click();
  await expect(notes.getByRole("article", { name: "Note by Rita" })).toContainText("The 500 was retried without telling the user.");
  await expect(currentStep(page).locator(".tl-note.note-problem")).toBeVisible();
  await expect(page.getByRole("button", { name: "Notes (1)" })).toBeVisible();

  // A second note elsewhere, with an OK verdict, by someone else.
  await jumpTo(page, /Approval: denied bash/);
  await notes.getByRole("textbox", { name: "Note", exact: true }).fill("Right to deny npm test here.");
  await notes.getByRole("radio", { name: "OK" }).click();
  await notes.getByLabel("Author").fill("Sam");
  await notes.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByRole("button", { name: "Notes (2)" })).toBeVisible();

  // Back on the error step, the address holds it: a reload reopens the replay there, with both notes.
  await jumpTo(page, /Error:/);
  const index = Number(counter.match(/^Step (\d+)/)?.[1]) - 1;
  await expect(page).toHaveURL(new RegExp(`replay=.*step=${index}(&|$)`));
  await page.reload();
  await expect(replayView(page)).toBeVisible();
  await expect(stepCounter(page)).toHaveText(counter);
  await expect(currentStep(page)).toHaveAttribute("data-seq", seq ?? "");
  await expect(notes.getByRole("article", { name: "Note by Rita" })).toContainText("The 500 was retried without telling the user.");
  await expect(page.getByRole("button", { name: "Notes (2)" })).toBeVisible();

  // The notes list filters by verdict and author, and a note jumps to its step.
  await page.getByRole("button", { name: "Notes (2)" }).click();
  const panel = page.getByRole("dialog", { name: "Reviewer notes" });
  await expect(panel.getByRole("article")).toHaveCount(2);
  await panel.getByLabel("Filter notes by verdict").selectOption("problem");
  await expect(panel.getByRole("article")).toHaveCount(1);
  await expect(panel.getByRole("article")).toHaveAccessibleName("Note by Rita");
  await panel.getByLabel("Filter notes by verdict").selectOption("all");
  await panel.getByLabel("Filter notes by author").selectOption("Sam");
  await expect(panel.getByRole("article")).toHaveCount(1);
  await screenshot(page, "replay-notes");
  await panel.getByRole("button", { name: /^Step \d+$/ }).click();
  await expect(panel).toHaveCount(0);
  await expect(currentStep(page)).toHaveAttribute("data-kind", "approval");

  // The timeline can show only the entries with notes.
  await page.getByRole("group", { name: "Timeline filters" }).getByLabel("With notes").check();
  await expect(steps(page)).toHaveCount(2);
});
