/**
 * A Claude Code session written by the real CLI is imported from Settings →
 * Import from other agents, replayed (tool cards, the origin header), noted,
 * forked at a step onto a Responses model, and continued one turn; every
 * request the app made was accepted by the faux provider's validators; search
 * everything's Agent filter tells the continued turn (ours) from the import.
 */
import { test as base, expect } from "@playwright/test";
import { chooseModel, send, transcript, waitIdle } from "../helpers/app";
import { failOnBrowserErrors, screenshot } from "../helpers/fixtures";
import { spawnHost } from "../helpers/host-process";
import { replayView, stepCounter, timeline } from "../helpers/replay-fixtures";

interface ImportHost {
  url?: string;
  controlUrl?: string;
  skip?: string;
  stop(): Promise<void>;
}

const test = base.extend<{ importHost: ImportHost; browserErrors: string[] }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  importHost: async ({}, use) => {
    const host = await spawnHost<{ url?: string; controlUrl?: string; skip?: string }>({
      script: "e2e/helpers/import-host-main.ts",
      readyTag: "E2E_IMPORT_HOST",
      files: { "notes.txt": "hello world\n" },
      env: ({ dir }) => ({ E2E_DIR: dir }),
    });
    await use({ ...host.info, stop: () => host.stop() });
    await host.stop();
  },
  browserErrors: [
    async ({ page, importHost }, use, testInfo) => {
      void importHost;
      await failOnBrowserErrors(page, testInfo, use);
    },
    { auto: true },
  ],
});

test("a Claude Code session is imported, replayed, noted, forked onto a Responses model and continued", async ({ page, importHost }) => {
  test.skip(importHost.skip !== undefined, importHost.skip);
  await page.goto(importHost.url ?? "");
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  const group = settings.getByRole("group", { name: "Claude Code sessions" });
  await expect(group).toContainText("1 session");
  await expect(settings.getByRole("group", { name: "Codex sessions" })).toContainText("folder not found");
  await group.getByRole("button", { name: "Import", exact: true }).click();
  await expect(group.getByRole("status")).toContainText("Imported as “Change hello to goodbye in notes.txt, then show the file”");
  await screenshot(page, "import-agents-settings");
  await group.getByRole("button", { name: "Replay it" }).click();

  // Replay: the origin in the header, the recorded calls as steps.
  await expect(replayView(page)).toBeVisible();
  await expect(stepCounter(page)).toHaveText(/^Step 1 of \d+$/);
  const origin = replayView(page).locator(".origin-details");
  await expect(origin.locator("summary")).toHaveText("from Claude Code");
  await origin.locator("summary").click();
  await expect(origin.getByRole("note", { name: "What this import could not hold" })).toContainText("system prompt");
  for (const tool of ["Read", "Edit", "Bash"])
    await expect(
      timeline(page)
        .getByRole("option", { name: new RegExp(tool) })
        .first(),
    ).toBeVisible();
  await origin.locator("summary").click();

  // A note on the Edit step.
  await timeline(page).getByRole("option", { name: /Edit/ }).first().click();
  const notes = page.getByRole("region", { name: "Notes on this entry" });
  await notes.getByRole("textbox", { name: "Note", exact: true }).fill("Edit matched the first hello only.");
  await notes.getByRole("radio", { name: "OK" }).click();
  await notes.getByLabel("Author").fill("Rita");
  await notes.getByRole("button", { name: "Add note" }).click();
  await expect(notes.getByRole("article", { name: "Note by Rita" })).toContainText("Edit matched the first hello only.");
  await expect(page.getByRole("button", { name: "Notes (1)" })).toBeVisible();

  // Fork after the Bash call's result onto an OpenAI (Responses) model, and continue one turn.
  await timeline(page).getByRole("option", { name: /Bash/ }).last().click();
  await page.getByRole("button", { name: "Fork onto another model…" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork onto another model" });
  const model = await chooseModel(page, "OpenAI");
  await dialog.getByRole("button", { name: "Fork and continue" }).click();
  await expect(replayView(page)).toHaveCount(0);
  await expect(transcript(page)).toContainText("Change hello to goodbye");
  await send(page, "Carry on from here, please.");
  await waitIdle(page);
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText("Continued on openai-responses");
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText(model);
  await screenshot(page, "import-agents-fork-continued");

  // The imported session carries its agent's badge in the session list.
  const list = page.getByRole("list", { name: "Session list" });
  await expect(list.locator(".origin-badge", { hasText: "Claude Code" }).first()).toBeVisible();

  // Every request the app made after the import was accepted, and the continuation went to Responses.
  const requests = (await (await fetch(`${importHost.controlUrl}/requests`)).json()) as Array<{
    route: string;
    accepted: boolean;
    rejection: string | null;
  }>;
  expect(requests.filter((r) => !r.accepted)).toEqual([]);
  expect(requests.some((r) => r.route === "openai-responses")).toBe(true);

  // Search everything's Agent filter: the turn continued here is ours, the transcript is Claude Code's.
  await page.keyboard.press("Control+Shift+F");
  const search = page.getByRole("dialog", { name: "Search everything" });
  const box = search.getByRole("searchbox", { name: "Search all sessions" });
  const groups = search.getByRole("list", { name: "Sessions found" }).locator(":scope > li");
  const agent = search.getByLabel("Agent");
  await box.fill("carry");
  await expect(groups).toHaveCount(1);
  await agent.selectOption({ label: "This app" });
  await expect(groups).toHaveCount(1);
  await agent.selectOption({ label: "Claude Code" });
  await expect(search).toContainText("No matches.");
  await box.fill("goodbye");
  await expect(groups.first()).toContainText("Change hello to goodbye in notes.txt");
  for (const g of await groups.all()) await expect(g).not.toContainText("Carry on from here");
  for (const other of ["Codex", "pi"]) {
    await agent.selectOption({ label: other });
    await expect(search).toContainText("No matches.");
  }
});
