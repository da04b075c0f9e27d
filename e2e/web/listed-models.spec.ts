/**
 * A model only the provider's own models endpoint lists (the faux plays
 * Anthropic's `GET /v1/models`) is offered in the switcher, marked as unknown
 * to the catalog, runs a turn, and its cost shows as "price unknown", not $0.
 */
import { modelButton, newSession, openWorkspace, send, transcript, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

const LISTED = "claude-faux-frontier-1";

test("a model the provider lists but the catalog lacks is selectable, runs a turn, and shows its price as unknown", async ({
  page,
  host,
}) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);

  await modelButton(page).click();
  const anthropic = page.getByRole("listbox", { name: "Models" }).getByRole("group", { name: "Anthropic", exact: true });
  const listed = anthropic.getByRole("option", { name: new RegExp(`^${LISTED} \\(Anthropic\\)`) });
  await expect(listed).toHaveAccessibleName(`${LISTED} (Anthropic), listed by the provider, not in the catalog, price unknown`);
  await expect(listed).toContainText("not in catalog");
  await expect(listed).toContainText("price unknown");
  await listed.scrollIntoViewIfNeeded();
  await screenshot(page, "model-switcher-listed");
  await listed.click();
  await expect(modelButton(page)).toHaveAccessibleName(`Model: ${LISTED}. Change model`);

  await send(page, "[quiet] Say hello.");
  await waitIdle(page);
  const answer = transcript(page).getByLabel("Assistant message").last();
  await expect(answer).toContainText("Quiet answer");
  await expect(answer).toContainText(LISTED);
  // Its usage has tokens and no price: unknown, not $0, in the message and the session totals.
  await expect(answer.getByLabel(/^Usage: \d+ tokens, price unknown$/)).toBeVisible();
  await expect(page.getByLabel(/^Session usage: \d+ tokens, price unknown$/)).toBeVisible();

  const requests = await host.fauxRequests();
  const mine = requests.filter((r) => r.model === LISTED);
  expect(mine.length).toBeGreaterThan(0);
  expect(mine.every((r) => r.accepted && r.route === "anthropic")).toBe(true);
});
