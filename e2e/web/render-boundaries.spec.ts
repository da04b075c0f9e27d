/**
 * Whatever a stored entry holds, the app is never blank: a transcript row or a
 * replay step that throws while rendering becomes one small row naming the
 * entry, the rows around it render, and a panel that throws says so with "Try
 * again" while the other panels keep working. Driven on the real components
 * in Chromium (e2e/harness/renderer-harness.tsx), with entries that throw when
 * read: no valid session makes a row throw once the formatters take any number.
 */
import { expect, test, type Page } from "@playwright/test";
import { openHarness } from "../helpers/page-bundle";

const HARNESS = "e2e/harness/renderer-harness.tsx";

type Mount = "mountTranscript" | "mountTimeline" | "mountPanels" | "repairPanel";

async function mount(page: Page, what: Mount): Promise<void> {
  await page.evaluate((name) => (window as unknown as { harness: Record<Mount, () => void> }).harness[name](), what);
}

/** The errors the boundaries caught (React reports them to the root's onCaughtError). */
async function caught(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { harness: { caught: string[] } }).harness.caught);
}

let uncaught: string[] = [];
test.beforeEach(async ({ page }) => {
  uncaught = [];
  page.on("pageerror", (e) => uncaught.push(e.message));
  await openHarness(page, HARNESS);
});
// Nothing escaped a boundary.
test.afterEach(() => expect(uncaught).toEqual([]));

test("a transcript row that throws becomes a row naming its entry; the other rows render", async ({ page }) => {
  await mount(page, "mountTranscript");
  const log = page.getByRole("log", { name: "Transcript" });
  await expect(log).toContainText("first message");
  await expect(log).toContainText("third message");
  const broken = log.getByRole("note", { name: "Entry could not be shown" });
  await expect(broken).toHaveCount(1);
  await expect(broken).toHaveText("This entry 2 (assistant message) could not be shown.");
  await expect(broken).toHaveAttribute("title", "cannot read content");
  expect(await caught(page)).toEqual(["cannot read content"]);
});

test("a replay step that throws becomes a row naming its step; the other steps render", async ({ page }) => {
  await mount(page, "mountTimeline");
  const timeline = page.getByRole("listbox", { name: "Timeline" });
  await expect(timeline.getByRole("option")).toHaveCount(2);
  await expect(timeline).toContainText("step one");
  await expect(timeline).toContainText("step three");
  await expect(timeline.getByRole("note", { name: "Entry could not be shown" })).toHaveText("This step 2 (entry 2) could not be shown.");
});

test("a panel that throws says so and renders again on Try again; the panel beside it keeps working", async ({ page }) => {
  await mount(page, "mountPanels");
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("The diff view could not be shown: the panel broke");
  await expect(page.getByText("the other panel still works")).toBeVisible();
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(alert).toContainText("The diff view could not be shown");
  await mount(page, "repairPanel");
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByText("the panel works again")).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
});
