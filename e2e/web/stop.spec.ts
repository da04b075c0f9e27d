/** Stop interrupts a streaming answer; the partial answer is kept, marked stopped. */
import { newSession, openWorkspace, send, transcript, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";

test("the Stop button interrupts a streaming answer and keeps what was written", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Write a long essay [slow]");

  const streaming = transcript(page).getByLabel("Assistant message (streaming)");
  await expect(streaming).toContainText("Streaming a long answer");
  // Messages typed during the turn are queued and shown as queued.
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(page.getByRole("button", { name: "Queue message" })).toBeVisible();

  await page.getByRole("button", { name: "Stop" }).click();
  await waitIdle(page);
  await expect(streaming).toHaveCount(0);
  const stopped = transcript(page).getByLabel("Assistant message").last();
  await expect(stopped).toContainText("Streaming a long answer");
  await expect(stopped).toContainText("stopped");
  await expect(box).toBeEnabled();
});

test("a message typed while the agent works is queued, shown as queued, and given back to the composer on Stop", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Write a long essay [slow]");
  await expect(transcript(page).getByLabel("Assistant message (streaming)")).toContainText("Streaming a long answer");

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Then list the workspace.");
  await box.press("Enter");
  const queued = page.getByRole("list", { name: "Queued messages" });
  await expect(queued).toContainText("Then list the workspace.");
  await expect(box).toHaveValue("");

  // Stop drops the queue in the core; the composer gets the text back rather than losing it.
  await page.getByRole("button", { name: "Stop" }).click();
  await waitIdle(page);
  await expect(queued).toHaveCount(0);
  await expect(box).toHaveValue("Then list the workspace.");
  await box.press("Enter");
  await expect(transcript(page).getByLabel("Your message").last()).toContainText("Then list the workspace.");
  await expect(
    transcript(page)
      .getByRole("article", { name: /^Tool call list:/ })
      .first(),
  ).toBeVisible();
});
