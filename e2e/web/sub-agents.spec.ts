/**
 * The todo plan and sub-agents in the UI (docs/sub-agents.md): the model plans three items,
 * delegates one to a sub-agent and checks them off; the plan is pinned above the composer, the
 * sub-agent's session is listed under its parent and opens from the parent's task call, replay
 * shows the plan at each step and opens the child's replay; Stop while the sub-agent waits for an
 * approval stops both and every call ends answered; the approval card names the sub-agent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { approvalCard, newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { CHILD_REPORT, EDIT_TASK, FINAL_ANSWER, PLAN_ITEMS } from "../helpers/agent-tree-script";
import { expect, screenshot, test } from "../helpers/fixtures";

const plan = (page: Page) => page.getByRole("region", { name: "Plan", exact: true });
const replay = (page: Page) => page.getByRole("main", { name: "Replay" });
const subAgents = (page: Page) => page.getByRole("list", { name: /^Sub-agents of / });

/** Settings → Sub-agents: let them write, edit and run commands (each approved as the main agent's are). */
async function allowSubAgentSideEffects(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("checkbox", { name: /^Let sub-agents write, edit and run commands/ }).check();
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings).toHaveCount(0);
}

/** Scrolls the (virtualised) transcript to its top, where the first tool calls are. */
async function scrollTranscriptTop(page: Page): Promise<void> {
  await transcript(page).evaluate((el) => (el.scrollTop = 0));
}

test("the model plans three items, delegates one to a sub-agent and checks them off; the child opens from the parent step and replay shows both", async ({
  page,
  host,
}) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  const title = "Summarise this project [plan-delegate]";
  await send(page, title);
  await waitIdle(page);

  // The plan is pinned above the composer, every item checked off.
  await expect(plan(page)).toBeVisible();
  await expect(plan(page)).toContainText("3 of 3 done");
  for (const item of PLAN_ITEMS) await expect(plan(page).getByRole("listitem", { name: `${item}: done` })).toBeVisible();
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText(FINAL_ANSWER);
  await screenshot(page, "sub-agents-plan-done");

  // The sub-agent's session is listed under its parent.
  await expect(subAgents(page)).toHaveAccessibleName(`Sub-agents of ${title}`);
  await expect(subAgents(page).getByRole("button", { name: /^Survey the project/ })).toContainText("sub-agent");

  // It opens from the parent's step: the task call's card.
  await scrollTranscriptTop(page);
  const task = toolCards(page, "task").first();
  await expect(task).toHaveAttribute("data-status", "done");
  await task.getByRole("button", { name: "Open sub-agent session" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Survey the project");
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText(CHILD_REPORT);
  await expect(toolCards(page, "read").first()).toHaveAttribute("data-status", "done");
  await screenshot(page, "sub-agents-child-session");

  // Replay of the parent: the plan as of each step, and the child's replay from the task call.
  await page
    .getByRole("list", { name: "Session list" })
    .getByRole("button", { name: `Replay session ${title}` })
    .click();
  await expect(replay(page)).toBeVisible();
  const timeline = page.getByRole("listbox", { name: "Timeline" });
  const stepPlan = replay(page).getByRole("region", { name: "Plan at this step" });
  await expect(stepPlan).toHaveCount(0);
  await timeline.getByRole("option", { name: /Tool result: The plan is updated: 0 done, 1 in progress/ }).click();
  await expect(stepPlan).toContainText("0 of 3 done");
  await expect(stepPlan.getByRole("listitem", { name: `${PLAN_ITEMS[0]}: in progress` })).toBeVisible();
  await page.keyboard.press("End");
  await expect(stepPlan).toContainText("3 of 3 done");
  // A call counts once its result is stored: at the task call the plan sent beside it is not in yet, at its result it is.
  await timeline.getByRole("option", { name: /Tool call: task Survey the project/ }).click();
  await expect(stepPlan).toContainText("0 of 3 done");
  await timeline.getByRole("option", { name: /Tool result: Sub-agent "Survey the project" finished/ }).click();
  await expect(stepPlan).toContainText("1 of 3 done");
  await screenshot(page, "sub-agents-replay-parent");
  await replay(page)
    .getByRole("article", { name: /^Tool call task:/ })
    .getByRole("button", { name: "Open sub-agent session" })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Survey the project");
  await expect(replay(page).locator(".forked-from")).toContainText(`sub-agent of “${title}” at step`);
  await page.keyboard.press("End");
  await expect(replay(page).getByRole("region", { name: "Transcript at this step" })).toContainText(CHILD_REPORT);
  await screenshot(page, "sub-agents-replay-child");
});

test("Stop while a sub-agent waits for an approval stops both agents and leaves every call answered", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await allowSubAgentSideEffects(page);
  await send(page, "Summarise this project [plan-delegate-hang]");

  // The sub-agent's edit waits for the user, shown in the parent's session.
  const card = approvalCard(page);
  await expect(card).toContainText("Sub-agent “Survey the project” is waiting for your approval");
  const task = toolCards(page, "task").first();
  await expect(task).toHaveAttribute("data-status", "running");
  await expect(subAgents(page).getByText("waiting for approval")).toBeVisible();

  await page.getByRole("button", { name: "Stop" }).click();
  await waitIdle(page);
  await expect(card).toHaveCount(0);
  await expect(task).toHaveAttribute("data-status", "aborted");
  // No call of the parent is left waiting, and no session runs on.
  await expect(transcript(page).locator('[data-status="pending"], [data-status="running"], [data-status="awaitingApproval"]')).toHaveCount(
    0,
  );
  await expect(page.getByRole("list", { name: "Session list" }).getByText(/running|waiting for approval/)).toHaveCount(0);
  expect(readFileSync(join(host.workspace, "README.md"), "utf8")).not.toContain("A stopped project");
  await screenshot(page, "sub-agents-stopped-parent");

  // The sub-agent's own calls are answered too: the read done, the edit it waited on aborted.
  await task.getByRole("button", { name: "Open sub-agent session" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Survey the project");
  await expect(toolCards(page, "read").first()).toHaveAttribute("data-status", "done");
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "aborted");
  await expect(transcript(page).locator('[data-status="pending"], [data-status="running"], [data-status="awaitingApproval"]')).toHaveCount(
    0,
  );
  await screenshot(page, "sub-agents-stopped-child");
});

test("the user edits the plan; the edit is marked in the transcript and the agent reads it with its next request", async ({
  page,
  host,
}) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Summarise this project [plan-delegate]");
  await waitIdle(page);
  await expect(plan(page)).toContainText("3 of 3 done");

  await plan(page).getByRole("button", { name: "Edit plan" }).click();
  const editor = plan(page).getByRole("form", { name: "Edit the plan" });
  await editor.getByRole("combobox", { name: "Status of item 3" }).selectOption("in_progress");
  await editor.getByRole("button", { name: "Add item" }).click();
  await editor.getByRole("textbox", { name: "Item 4" }).fill("Add a usage example");
  await editor.getByRole("button", { name: "Save plan" }).click();
  await expect(plan(page)).toContainText("2 of 4 done");
  await expect(plan(page).getByRole("listitem", { name: "Write the summary: in progress" })).toBeVisible();
  await expect(plan(page).getByRole("listitem", { name: "Add a usage example: pending" })).toBeVisible();
  await expect(transcript(page).getByRole("note", { name: "Plan edited" })).toContainText("You edited the plan (2 of 4 done)");
  await screenshot(page, "sub-agents-plan-edited");

  await send(page, "Go on [quiet]");
  await waitIdle(page);
  const last = (await host.fauxRequests()).at(-1);
  expect(last?.lastUserText).toContain("The user edited your plan (todo). It is now:");
  expect(last?.lastUserText).toContain("3. [~] Write the summary\n4. [ ] Add a usage example");
  expect(last?.lastUserText).toContain("Go on [quiet]");
});

test("with side effects allowed in Settings, a sub-agent's edit asks in the parent's session and the card names the sub-agent", async ({
  page,
  host,
}) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await allowSubAgentSideEffects(page);

  await send(page, "Tidy up the docs [delegate-edit]");
  const card = approvalCard(page);
  await expect(card).toContainText(`Sub-agent “${EDIT_TASK}” is waiting for your approval`);
  await expect(card).toContainText("README.md");
  await screenshot(page, "sub-agents-approval-card");
  await card.getByRole("button", { name: /^Approve once/ }).click();
  await waitIdle(page);
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText("The sub-agent tidied the README.");
  expect(readFileSync(join(host.workspace, "README.md"), "utf8")).toContain("A tiny, tidy project");
  // The decision is the sub-agent's: its session shows the approved edit.
  await toolCards(page, "task").first().getByRole("button", { name: "Open sub-agent session" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(EDIT_TASK);
  await expect(toolCards(page, "edit").first()).toContainText("Approved");
});
