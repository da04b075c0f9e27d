/**
 * Long turns in the UI: a cap set in Settings stops a model that never stops
 * calling tools, with its summary and a marker saying which limit; the
 * context meter's "Compact now" compacts the session, shown as a marker that
 * opens to the summary, with the full history still in the transcript.
 */
import { newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

test("a turn stops at the cap set in Settings, and Compact now compacts the session", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);

  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByLabel("Max model requests per turn").fill("3");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings).toHaveCount(0);

  await send(page, "Read README.md over and over [loop]");
  await waitIdle(page);
  await expect(toolCards(page, "read")).toHaveCount(3);
  const limit = transcript(page).getByRole("note", { name: "Turn stopped at a limit" });
  await expect(limit).toContainText("Stopped: this turn reached the limit of 3 model requests per turn");
  await expect(transcript(page).getByLabel("Assistant message").last()).toContainText("Where it stands: README.md was read several times");
  await screenshot(page, "turn-stopped-at-limit");

  // The meter names the next request's size and the threshold; its details offer Compact now.
  const meter = page.getByRole("meter", { name: /^Context: \d+ of \d+ tokens \(\d+%\) of .+; compacts at \d+%$/ });
  await expect(meter).toBeVisible();
  await page.getByRole("button", { name: "Context details" }).click();
  const details = page.getByRole("dialog", { name: "Context" });
  await expect(details).toContainText("The next request holds about");
  await details.getByRole("button", { name: "Compact now" }).click();
  const marker = transcript(page).getByRole("note", { name: "Context compacted" });
  await expect(marker).toContainText("Context compacted: older messages summarised");
  await expect(marker).toContainText("on request");
  await marker.getByRole("button").click();
  await expect(marker).toContainText("SUMMARY: the user asked the agent to read README.md again and again.");
  await expect(marker).toContainText("Read README.md over and over [loop]");
  // The history before the marker is still in the transcript.
  await expect(toolCards(page, "read")).toHaveCount(3);
  await screenshot(page, "compacted-on-request");

  const requests = await host.fauxRequests();
  expect(requests.filter((r) => !r.accepted)).toEqual([]);
});
