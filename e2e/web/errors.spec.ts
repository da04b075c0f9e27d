/** A failed request shows its error (without the API key), what to do about it, and Retry runs the turn again without a second copy of the message. */
import { newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

test.use({ colorScheme: "dark" });

test("a failed request shows the error with Retry, which runs the turn again with the message sent once; the key never shows", async ({
  page,
  host,
}) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Look at README.md [fail-once]");

  const error = transcript(page).getByRole("alert").first();
  await expect(error).toBeVisible();
  await waitIdle(page);
  await expect(transcript(page)).not.toContainText("sk-ant-e2e-not-a-real-key");
  // What to do about it: the key came from the environment (web mode).
  await expect(error).toContainText("Anthropic refused the key in ANTHROPIC_API_KEY. Check its value, then restart the app.");
  await screenshot(page, "error-with-retry-dark");

  await error.getByRole("button", { name: "Retry" }).click();
  // The agent now proceeds: it lists the workspace.
  await expect(toolCards(page, "list").first()).toHaveAttribute("data-status", "done");
  const userMessages = transcript(page).getByLabel("Your message");
  await expect(userMessages).toHaveCount(1);
  await expect(userMessages.first()).toContainText("Look at README.md [fail-once]");
  // The failed attempt stays as it was: one error row, and the answer after it.
  await expect(transcript(page).getByRole("alert")).toHaveCount(1);
  // The demo answers these without an edit to approve: the turn ends by itself.
  await waitIdle(page);
});
