/** Ask mode in the live transcript: switching on and off draws a marker at that point, and the markers survive a reload. */
import { newSession, openWorkspace, send, transcript, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";

test("switching Ask mode on and back is a visible marker in the transcript, also after a reload", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "What is in this project? [quiet]");
  await waitIdle(page);

  await page.getByRole("button", { name: "Agent mode" }).click();
  await expect(page.getByRole("button", { name: "Ask mode" })).toHaveAttribute("aria-pressed", "true");
  const markers = transcript(page).getByRole("note", { name: "Mode switched" });
  await expect(markers).toHaveCount(1);
  await expect(markers.first()).toContainText("Ask mode on: the agent may only read");

  await send(page, "Plan the change first [quiet]");
  await waitIdle(page);
  await page.getByRole("button", { name: "Ask mode" }).click();
  await expect(markers).toHaveCount(2);
  await expect(markers.nth(1)).toContainText("Back to Agent mode");

  // Each marker sits between the messages it separates.
  const order = await transcript(page)
    .locator('[aria-label="Mode switched"], [aria-label="Your message"]')
    .evaluateAll((nodes) => nodes.map((n) => (n.getAttribute("aria-label") === "Mode switched" ? "marker" : "user")));
  expect(order).toEqual(["user", "marker", "user", "marker"]);

  await page.reload();
  await expect(transcript(page).getByRole("note", { name: "Mode switched" })).toHaveCount(2);
});
