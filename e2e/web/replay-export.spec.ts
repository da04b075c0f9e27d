/**
 * Exports from replay mode: the single-file HTML replays the same session with
 * the network blocked, and a JSON export imports as a new session whose own
 * export is the same apart from the new ids.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { transcriptText } from "../helpers/app";
import { screenshot } from "../helpers/fixtures";
import { expect, jumpTo, openReplayFromList, replayView, stepCounter, test } from "../helpers/replay-fixtures";
import { REPLAY_SEED } from "../helpers/replay-seed";

const MESSAGES = [
  REPLAY_SEED.user1,
  REPLAY_SEED.readIntro,
  REPLAY_SEED.answer1,
  REPLAY_SEED.user2,
  REPLAY_SEED.answer2,
  REPLAY_SEED.user3,
  REPLAY_SEED.answer3,
];

test("the HTML export opens offline and replays the same transcript", async ({ page, replayHost, context }) => {
  await openReplayFromList(page, replayHost);
  const total = Number((await stepCounter(page).innerText()).replace(/^Step 1 of /, ""));
  await page.keyboard.press("End");
  await expect(stepCounter(page)).toHaveText(`Step ${total} of ${total}`);
  const appRows = (await transcriptText(page)).join("\n");
  for (const text of MESSAGES) expect(appRows).toContain(text);
  // A note on the error step, for the export's "With notes" filter.
  await jumpTo(page, /Error:/);
  const noteStep = (await stepCounter(page).innerText()).replace(/ of \d+$/, "");
  const notes = page.getByRole("region", { name: "Notes on this entry" });
  await notes.getByRole("textbox", { name: "Note", exact: true }).fill("Retried without telling the user.");
  await notes.getByLabel("Author").fill("Rita");
  await notes.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByRole("button", { name: "Notes (1)" })).toBeVisible();

  const downloading = page.waitForEvent("download");
  await replayView(page).getByRole("button", { name: "Export HTML" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.html$/);
  const file = join(replayHost.dir, download.suggestedFilename());
  await download.saveAs(file);

  // A fresh page that may load the file and nothing else.
  const offline = await context.newPage();
  const blocked: string[] = [];
  await offline.route("**", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:")) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  const offlineErrors: string[] = [];
  offline.on("pageerror", (e) => offlineErrors.push(e.message));
  offline.on("console", (m) => m.type() === "error" && offlineErrors.push(m.text()));
  await offline.goto(pathToFileURL(file).href);
  await expect(offline.locator("#title")).toHaveText(REPLAY_SEED.title);
  // The same steps as in the app, and at the last step the same messages.
  await expect(offline.locator("#timeline li")).toHaveCount(total);
  await offline.locator("#last").click();
  await expect(offline.locator("#step")).toContainText(`Step ${total} of ${total}`);
  const htmlTranscript = offline.getByRole("region", { name: "Transcript" });
  for (const text of MESSAGES) await expect(htmlTranscript).toContainText(text);
  await expect(htmlTranscript).toContainText(REPLAY_SEED.denyReason);
  // Stepping back hides the later messages, as in the app.
  await offline.locator("#first").click();
  await expect(htmlTranscript).toContainText(REPLAY_SEED.user1);
  await expect(htmlTranscript.getByText(REPLAY_SEED.answer3)).toBeHidden();
  // Labels as in the app: kind names and model names, steps numbered as the app numbers them.
  const rows = offline.locator("#timeline li");
  await expect(rows.first().locator(".seq")).toHaveText("#1");
  await expect(rows.last().locator(".seq")).toHaveText(`#${total}`);
  const kinds = await offline.locator("#timeline li .kind").allInnerTexts();
  expect(kinds).toContain("Tool call");
  expect(kinds).not.toContain("toolCall");
  expect(await offline.locator("#filter-model option").allInnerTexts()).toEqual(
    expect.arrayContaining(["Claude Sonnet 4.6", "GPT-4.1 (Chat Completions)"]),
  );
  await expect(htmlTranscript).not.toContainText("anthropic/claude");
  // "With notes" narrows the timeline to the noted step, which keeps its app step number.
  await offline.getByLabel("With notes").check();
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator(".seq")).toHaveText(`#${noteStep.replace(/^Step /, "")}`);
  await expect(rows.first()).toContainText("Error");
  await expect(offline.locator("#count")).toHaveText(`1 of ${total} steps`);
  await rows.first().click();
  await expect(offline.locator("#step")).toContainText(`${noteStep} of ${total}`);
  await expect(htmlTranscript.locator(".entry.current .head .seq")).toHaveText(noteStep);
  await expect(htmlTranscript.locator(".entry.current")).toContainText("Retried without telling the user.");
  await offline.screenshot({ path: join(process.cwd(), "e2e", "artifacts", "replay-html-export-offline.png") });
  expect(blocked).toEqual([]);
  expect(offlineErrors).toEqual([]);
  // The export carries no API key from the host's environment.
  const html = readFileSync(file, "utf8");
  expect(html).not.toContain("sk-ant-e2e-not-a-real-key");
  expect(html).not.toContain("sk-e2e-not-a-real-key");
  await offline.close();
});

test("a JSON export imports into the workspace as a new session and exports the same again", async ({ page, replayHost }) => {
  await openReplayFromList(page, replayHost);
  // A note travels with the export.
  const notes = page.getByRole("region", { name: "Notes on this entry" });
  await notes.getByRole("textbox", { name: "Note", exact: true }).fill("Starting point looks right.");
  await notes.getByLabel("Author").fill("Rita");
  await notes.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByRole("button", { name: "Notes (1)" })).toBeVisible();
  const total = await stepCounter(page).innerText();

  const exportJson = async (): Promise<{ text: string; name: string }> => {
    const downloading = page.waitForEvent("download");
    await replayView(page).getByRole("button", { name: "Export JSON" }).click();
    const download = await downloading;
    const file = join(replayHost.dir, `${Date.now()}-${download.suggestedFilename()}`);
    await download.saveAs(file);
    return { text: readFileSync(file, "utf8"), name: file };
  };
  const first = await exportJson();
  const original = JSON.parse(first.text) as { session: { id: string; title: string } };
  expect(original.session.id).toBe(replayHost.sessionId);

  // Import: a new session in the workspace, opened in replay with the same steps and the note.
  const sessions = page.getByRole("list", { name: "Session list" }).getByRole("listitem");
  await expect(sessions).toHaveCount(1);
  await page.getByLabel("Session export to import").setInputFiles(first.name);
  await expect(sessions).toHaveCount(2);
  await expect(page).not.toHaveURL(new RegExp(`replay=${replayHost.sessionId}`));
  await expect(stepCounter(page)).toHaveText(total);
  await expect(page.getByRole("button", { name: "Notes (1)" })).toBeVisible();
  await expect(replayView(page).locator(".replay-header .badge", { hasText: "imported" })).toBeVisible();
  await screenshot(page, "replay-imported");

  const second = await exportJson();
  const imported = JSON.parse(second.text) as { session: { id: string } };
  expect(imported.session.id).not.toBe(replayHost.sessionId);
  // Byte-identical apart from the store-assigned ids (session id, note and audit row ids).
  const normalise = (text: string, sessionId: string) =>
    text
      .split(sessionId)
      .join("<session>")
      .replace(/"id": \d+,/g, '"id": 0,');
  expect(normalise(second.text, imported.session.id)).toBe(normalise(first.text, original.session.id));
});
