/**
 * The demo model on a real repository no one here wrote (p-limit, MIT, copied
 * into e2e/fixtures): started as with `--demo`, each first turn — "hello",
 * "explain <file>", "add a comment to <file>" — ends without an error.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { approvalCard, modelButton, newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { startHost, type E2EHost } from "../helpers/host";
import { expect, screenshot, test } from "../helpers/fixtures";

const FIXTURE = join(process.cwd(), "e2e", "fixtures", "p-limit");
const FILES = Object.fromEntries(readdirSync(FIXTURE).map((f) => [f, readFileSync(join(FIXTURE, f), "utf8")]));

let repo: E2EHost | null = null;
test.beforeEach(async () => {
  repo = await startHost({ files: FILES, demo: true });
});
test.afterEach(async () => {
  await repo?.stop();
  repo = null;
});

async function firstTurn(page: import("@playwright/test").Page, text: string): Promise<void> {
  if (!repo) throw new Error("no host");
  await page.goto(repo.url);
  await openWorkspace(page, repo.workspace);
  await newSession(page);
  await expect(modelButton(page)).toHaveAccessibleName("Model: Demo model (offline). Change model");
  await send(page, text);
}

async function expectNoError(page: import("@playwright/test").Page): Promise<void> {
  await waitIdle(page);
  await expect(transcript(page).getByRole("alert")).toHaveCount(0);
  await expect(transcript(page).locator('[data-status="error"]')).toHaveCount(0);
  expect((await repo?.fauxRequests())?.every((r) => r.accepted)).toBe(true);
}

test("hello: the demo answers in words, without tools", async ({ page }) => {
  await firstTurn(page, "hello");
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText("Hello!");
  await expectNoError(page);
  await expect(transcript(page).getByRole("article", { name: /^Tool call / })).toHaveCount(0);
  await page.goto("about:blank");
});

test("explain index.js: the demo reads it and explains, proposing no edit", async ({ page }) => {
  await firstTurn(page, "explain index.js");
  await expect(toolCards(page, "read").first()).toHaveAttribute("data-status", "done");
  await expectNoError(page);
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText("index.js has");
  await expect(toolCards(page, "edit")).toHaveCount(0);
  await page.goto("about:blank");
});

test("add a comment to index.js: the edit is proposed on a unique line, approved and applied", async ({ page }) => {
  await firstTurn(page, "add a comment to index.js");
  const card = approvalCard(page);
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: /^Approve once/ }).click();
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "done");
  await expectNoError(page);
  await screenshot(page, "real-repo-comment");
  expect(readFileSync(join(repo?.workspace ?? "", "index.js"), "utf8")).toContain("// Reviewed by the Agent Workbench demo agent.");
  await page.goto("about:blank");
});
