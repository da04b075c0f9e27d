/**
 * Replay on a laptop screen: with the diff panel open, the step's notes box is
 * in view without scrolling at 1440×900 and 1024×768 (screenshots of both in
 * e2e/artifacts/), and "Exit replay" goes back to the session the reviewer
 * came from.
 */
import type { Locator } from "@playwright/test";
import { diffView } from "../helpers/app";
import { screenshot } from "../helpers/fixtures";
import { expect, jumpTo, openReplayFromList, replayView, stepCounter, test } from "../helpers/replay-fixtures";

/** In view and not covered by anything (the diff panel floats over the centre in narrow windows). */
async function expectUncovered(locator: Locator): Promise<void> {
  await expect(locator).toBeInViewport({ ratio: 1 });
  const onTop = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
  expect(onTop, "covered by another element").toBe(true);
}

// At 1440×900 the diff panel is a fourth column, open at an edit's result; at 1024×768 it floats and opens only when asked.
for (const [width, height, diffOpen] of [
  [1440, 900, true],
  [1024, 768, false],
] as const) {
  test(`at ${width}×${height} the step's notes box is in view without scrolling`, async ({ page, replayHost }) => {
    await page.setViewportSize({ width, height });
    await openReplayFromList(page, replayHost);
    await jumpTo(page, /Tool result: Edited README\.md/);
    if (diffOpen) await expect(diffView(page)).toBeVisible();
    else await expect(diffView(page)).toBeHidden();

    // Nothing scrolled: the note's text box, its verdict, author and Add button are all in view.
    const notes = page.getByRole("region", { name: "Notes on this entry" });
    // One numbering: the notes name the step the counter shows.
    const step = Number((await stepCounter(page).innerText()).match(/^Step (\d+) of/)?.[1]);
    await expect(notes.getByRole("heading", { level: 3 })).toHaveText(`Notes on step ${step}`);
    await expect(page.getByRole("region", { name: "Step details" }).getByRole("heading", { level: 3 })).toContainText(`step ${step}`);
    await expectUncovered(notes.getByRole("textbox", { name: "Note" }));
    await expectUncovered(notes.getByRole("radiogroup", { name: "Verdict" }));
    await expectUncovered(notes.getByRole("textbox", { name: "Author" }));
    await expectUncovered(notes.getByRole("button", { name: "Add note" }));
    // The step's actions and the header stay in view too.
    await expectUncovered(page.getByRole("button", { name: "Fork onto another model…" }));
    await expectUncovered(replayView(page).getByRole("button", { name: "Exit replay" }));
    await screenshot(page, `replay-${width}x${height}`);
  });
}

test("Exit replay goes back to the session that was open, or to the replayed one when none was", async ({ page, replayHost }) => {
  const header = page.locator("header.app-header").first();
  const list = page.getByRole("list", { name: "Session list" });

  // Came from a new session: exit returns to it, not to the replayed one or the start screen.
  await page.goto(replayHost.url);
  await expect(list.getByText(replayHost.title)).toBeVisible();
  await page.getByRole("button", { name: "New session", exact: true }).click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  // The header switches to the new session after the list shows it: read its title once it did.
  await expect(header.locator(".session-title")).toHaveText("New session");
  const liveTitle = (await header.locator(".session-title").innerText()).trim();
  expect(liveTitle).not.toBe(replayHost.title);
  await list.getByRole("button", { name: `Replay session ${replayHost.title}` }).click();
  await expect(stepCounter(page)).toHaveText(/^Step 1 of \d+$/);
  await replayView(page).getByRole("button", { name: "Exit replay" }).click();
  await expect(replayView(page)).toHaveCount(0);
  await expect(page.locator("header.app-header .session-title")).toHaveText(liveTitle);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();

  // Opened straight from a replay address (a link a colleague sent): exit shows that session live.
  const url = new URL(replayHost.url);
  url.hash = `${url.hash.replace(/^#/, "")}&replay=${replayHost.sessionId}`;
  const fresh = await page
    .context()
    .browser()!
    .newPage({ viewport: { width: 1440, height: 900 } });
  try {
    await fresh.goto(url.toString());
    await expect(stepCounter(fresh)).toHaveText(/^Step 1 of \d+$/);
    await replayView(fresh).getByRole("button", { name: "Exit replay" }).click();
    await expect(replayView(fresh)).toHaveCount(0);
    await expect(fresh.locator("header.app-header .session-title")).toHaveText(replayHost.title);
    await expect(fresh.getByRole("log", { name: "Transcript" })).toBeVisible();
  } finally {
    await fresh.close();
  }
});
