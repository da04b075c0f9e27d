/**
 * The team library across two machines (issue #38): two web-mode hosts on two
 * data folders, each with its own key file, against one real PostgreSQL set up
 * with the admin SQL of docs/team.md. Alice publishes a session from the first;
 * Bob opens it in the second from the sidebar's Team library, adds a note with
 * a verdict and requests changes; the first sees the note arrive live in its
 * replay, attributed to bob, and the review state change in its sidebar.
 */
import { test as base, expect, type Browser, type Page } from "@playwright/test";
import { openWorkspace } from "../helpers/app";
import { failOnBrowserErrors, screenshot } from "../helpers/fixtures";
import { startHost, type E2EHost } from "../helpers/host";
import { PASSWORDS, startTeamEnv, type TeamEnv } from "../../test/team/team-env";

const MODEL = { provider: "anthropic", api: "anthropic-messages", id: "claude-opus-4-6" } as const;
const TITLE = "Fix the parser's off-by-one";
/** Another reviewer's note is text, never markup, on the machine that shows it. */
const HOSTILE = '<img src="x" onerror="window.__xss = 1"> empty input';
const ENTRIES: unknown[] = [
  {
    type: "message",
    message: { role: "user", content: [{ type: "text", text: "The parser drops the last token." }], timestamp: 1_700_000_000_000 },
  },
  {
    type: "message",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "The loop stops one short: `i < n - 1` should be `i < n`." }],
      stopReason: "stop",
      model: MODEL,
      usage: {
        input: 10,
        output: 20,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 30,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      timestamp: 1_700_000_001_000,
    },
  },
];

let team: TeamEnv | null = null;
let skipReason = "";

const test = base.extend<{ alice: { host: E2EHost; page: Page }; bob: { host: E2EHost; page: Page } }>({
  alice: async ({ browser }, use, testInfo) => {
    await withInstance(browser, { seed: { title: TITLE, model: MODEL, entries: ENTRIES } }, testInfo, use);
  },
  bob: async ({ browser }, use, testInfo) => {
    await withInstance(browser, {}, testInfo, use);
  },
});

async function withInstance(
  browser: Browser,
  options: Parameters<typeof startHost>[0],
  testInfo: Parameters<typeof failOnBrowserErrors>[1],
  use: (v: { host: E2EHost; page: Page }) => Promise<void>,
): Promise<void> {
  const host = await startHost({ ...options, keyStore: true });
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await failOnBrowserErrors(page, testInfo, () => use({ host, page }));
  } finally {
    await context.close();
    await host.stop();
  }
}

test.beforeAll(async () => {
  const env = await startTeamEnv();
  if ("skip" in env) skipReason = `no PostgreSQL for the team library: ${env.skip}`;
  else team = env;
});

test.afterAll(() => team?.destroy());

/** Settings → Team with a postgresql:// URL (its password goes to the host's key file), then back. */
async function connect(page: Page, user: string): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Team URL").fill(team!.pg.url(user, PASSWORDS[user], "workbench"));
  await dialog.getByLabel("Team default project").fill("alpha");
  await dialog.getByRole("button", { name: "Save team connection" }).click();
  await expect(dialog.getByRole("status", { name: "Team library status" })).toContainText("Connected");
  // The URL's password is stored, never shown back.
  await expect(dialog.getByLabel("Team password")).toHaveValue("");
  await expect(dialog.getByLabel("Team password")).toHaveAttribute("placeholder", /stored/);
  await expect(dialog.getByLabel("Team URL")).toHaveValue("");
  await dialog.getByRole("button", { name: "Cancel" }).click();
}

function library(page: Page) {
  return page.getByRole("region", { name: "Team library" });
}

test("a session published on one machine is reviewed on another, and the first sees the note live", async ({ alice, bob }) => {
  test.skip(team === null, skipReason);
  test.setTimeout(60_000);

  // The seeded workspace is the most recent one: the app opens it at start.
  await alice.page.goto(alice.host.url);
  await expect(alice.page.getByRole("region", { name: "Sessions" })).toBeVisible();
  await connect(alice.page, "alice");
  await alice.page.getByRole("button", { name: `Publish session ${TITLE} to the team library` }).click();
  await expect(alice.page.getByText("Published revision 1 (2 entries)")).toBeVisible();
  const aliceItem = library(alice.page).getByRole("button", { name: `Open team session ${TITLE}` });
  await expect(aliceItem).toContainText("alice");
  await expect(aliceItem).toContainText("open");

  await bob.page.goto(bob.host.url);
  await openWorkspace(bob.page, bob.host.workspace);
  await connect(bob.page, "bob");
  const bobItem = library(bob.page).getByRole("button", { name: `Open team session ${TITLE}` });
  await expect(bobItem).toContainText("alice");

  // Alice replays her own published copy, to watch the review arrive.
  await aliceItem.click();
  const aliceNotes = alice.page.getByRole("region", { name: "Team notes on this entry" });
  await expect(aliceNotes).toContainText("No team note yet.");

  // Bob finds it by what was said in it (the server's ranked full-text search); the hit opens its step in replay.
  await library(bob.page).getByRole("searchbox", { name: "Search the team library" }).fill("loop short");
  await library(bob.page).getByRole("searchbox", { name: "Search the team library" }).press("Enter");
  const hit = library(bob.page).getByRole("list", { name: "Team search results" }).getByRole("button");
  await expect(hit).toHaveCount(1);
  await expect(hit).toContainText(TITLE);
  await expect(hit.locator("mark").first()).toHaveText(/loop/i);
  await hit.click();
  await expect(bob.page.getByRole("main", { name: "Replay" })).toContainText("The loop stops one short");

  await bobItem.click();
  const bobNotes = bob.page.getByRole("region", { name: "Team notes on this entry" });
  await expect(bobNotes).toBeVisible();
  await expect(bob.page.getByText("The loop stops one short").first()).toBeVisible();
  await bobNotes.getByRole("textbox", { name: "Team note" }).fill(`Also add a test for the empty input. ${HOSTILE}`);
  await bobNotes.getByRole("radio", { name: "Problem" }).click();
  await bobNotes.getByRole("button", { name: "Add team note" }).click();
  await expect(bobNotes.getByRole("article", { name: "Note by bob" })).toContainText("Also add a test for the empty input.");
  await bobNotes.getByLabel("Team review state").selectOption("changesRequested");

  // On the first machine, without reloading: the note and verdict, signed by the server's role name, and the new state.
  const note = aliceNotes.getByRole("article", { name: "Note by bob" });
  await expect(note).toContainText("Also add a test for the empty input.");
  await expect(note).toContainText("Problem");
  await expect(aliceNotes.getByLabel("Team review state")).toHaveValue("changesRequested");
  await expect(note).toContainText(HOSTILE);
  expect(await alice.page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  await screenshot(alice.page, "team-library-live-note");

  // After a reload the replayed copy is still reviewed with the team, its notes read from the server.
  await alice.page.reload();
  await expect(aliceNotes.getByRole("article", { name: "Note by bob" })).toContainText("Also add a test for the empty input.");
});

test("a wrong password shows Denied with the server's reason, and the password is shown nowhere", async ({ bob }) => {
  test.skip(team === null, skipReason);
  const wrong = "not-bobs-password-5e1d";
  await bob.page.goto(bob.host.url);
  await openWorkspace(bob.page, bob.host.workspace);
  await bob.page.getByRole("button", { name: "Settings" }).click();
  const dialog = bob.page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Team URL").fill(team!.pg.url("bob", wrong, "workbench"));
  await dialog.getByLabel("Team default project").fill("alpha");
  await dialog.getByRole("button", { name: "Save team connection" }).click();
  const status = dialog.getByRole("status", { name: "Team library status" });
  await expect(status).toContainText("Denied by the server");
  await expect(dialog.getByLabel("Team URL")).toHaveValue("");
  expect(await bob.page.content()).not.toContain(wrong);
  // The right password, typed in its own field, replaces the stored one: connected.
  await dialog.getByLabel("Team password").fill(PASSWORDS.bob);
  await dialog.getByRole("button", { name: "Save team connection" }).click();
  await expect(status).toContainText("Connected");
  await expect(dialog.getByLabel("Team password")).toHaveValue("");
});
