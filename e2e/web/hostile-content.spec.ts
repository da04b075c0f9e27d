/**
 * Model and tool content cannot break or fake the UI: an answer's HTML cannot
 * draw over the transcript (a position:fixed "tool card" over the real one),
 * take the app's ids, roles or classes, or look like its buttons.
 */
import { approvalCard, diffView, newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

test("an answer's fixed-position HTML does not cover its tool card, nor pose as app UI", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Read the readme [overlay-html]");
  await waitIdle(page);
  const card = toolCards(page, "read").first();
  await expect(card).toHaveAttribute("data-status", "done");
  const answer = transcript(page).locator(".markdown").first();
  const fake = answer.getByText("Nothing to review here, all good.");
  await expect(fake).toBeVisible();
  await screenshot(page, "hostile-overlay");

  const seen = await page.evaluate(() => {
    const markdown = document.querySelector(".markdown") as HTMLElement;
    const fakeBox = [...markdown.querySelectorAll("div")].find((d) => d.textContent?.includes("Nothing to review")) ?? markdown;
    const real = document.querySelector('article[aria-label^="Tool call read"]') as HTMLElement;
    const r = real.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const m = markdown.getBoundingClientRect();
    const f = fakeBox.getBoundingClientRect();
    return {
      position: getComputedStyle(fakeBox).position,
      insideMessage: f.left >= m.left - 1 && f.right <= m.right + 1 && f.top >= m.top - 1 && f.bottom <= m.bottom + 1,
      realCardOnTop: hit !== null && real.contains(hit),
      attributes: [...markdown.querySelectorAll("[style], [id], [role], [aria-label], [class~='tool-card'], [class~='primary']")].length,
      composerId: document.getElementById("composer-input")?.tagName ?? null,
    };
  });
  expect(seen).toEqual({ position: "static", insideMessage: true, realCardOnTop: true, attributes: 0, composerId: "TEXTAREA" });
  // The fake claimed to be the approval card: it is not found as one.
  await expect(page.getByRole("region", { name: "Approval required" })).toHaveCount(0);
  // The fake "Approve once" is a plain link-less text, not a button of the app.
  await expect(answer.getByRole("button")).toHaveCount(0);
  await expect(answer.getByRole("link", { name: "Approve once" })).toHaveCount(0);
});

const RLO = "\u202E";
const SHOWN = "readme⟨U+202E⟩txt.sh";

test("a right-to-left override in a command is written out on the approval card and the tool card", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Show the file [bidi-bash]");
  const card = approvalCard(page);
  await expect(card.getByLabel("Command")).toHaveText(`$ cat ${SHOWN}`);
  await expect(card.locator("header")).toContainText(`$ cat ${SHOWN}`);
  expect(await card.innerText()).not.toContain(RLO);
  // The bash policy asks for any line with such a character: no rule can cover it.
  await expect(card.getByTestId("scope-words")).toContainText("can only be approved once");
  await card.getByRole("button", { name: /^Deny/ }).click();
  await card.getByRole("button", { name: "Deny", exact: true }).click();
  await waitIdle(page);
  const tool = toolCards(page, "bash").first();
  await expect(tool).toHaveAttribute("data-status", "denied");
  await expect(tool.locator(".tool-summary")).toHaveText(`$ cat ${SHOWN}`);
  await tool.getByRole("button", { name: /^Show details/ }).click();
  await expect(tool.getByLabel("Tool input")).toContainText(SHOWN);
  expect(await tool.innerText()).not.toContain(RLO);
});

test("a right-to-left override in a path is written out on the card, in its rule box, the diff header and Settings' rules", async ({
  page,
  host,
}) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Write the file [bidi-write]");
  const card = approvalCard(page);
  await expect(card).toContainText(`Create ${SHOWN}`);
  // The rule box holds the real text (that is the rule); the card says what it holds.
  await expect(card.getByRole("textbox", { name: "Approval rule" })).toHaveValue(`readme${RLO}txt.sh`);
  await expect(card.getByTestId("rule-invisible")).toHaveText(`The rule holds invisible or control characters: ${SHOWN}`);
  await expect(card.getByTestId("scope-words")).toContainText(`the file ${SHOWN}`);
  expect(await card.innerText()).not.toContain(RLO);
  // The proposal opens in the diff panel: its header too.
  await expect(diffView(page).locator(".diff-title")).toContainText(SHOWN);
  expect(await diffView(page).locator(".diff-title").innerText()).not.toContain(RLO);

  await card.getByRole("button", { name: "Always allow", exact: true }).click();
  await waitIdle(page);
  const tool = toolCards(page, "write").first();
  await expect(tool).toHaveAttribute("data-status", "done");
  await expect(tool).toContainText(`always allowed: \`${SHOWN}\``);
  expect(await tool.innerText()).not.toContain(RLO);

  await page.getByRole("button", { name: "Settings" }).click();
  const rules = page.getByRole("list", { name: "Saved rules" });
  await expect(rules.getByRole("listitem")).toHaveCount(1);
  await expect(rules).toContainText(`the file ${SHOWN} (it holds invisible or control characters)`);
  await expect(rules.getByRole("button", { name: `Revoke ${SHOWN}` })).toBeVisible();
  expect(await rules.innerText()).not.toContain(RLO);
});
