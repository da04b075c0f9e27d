/**
 * A turn's screens tell what happened: the answer after "Approve once" is in
 * view (not below the fold), a turn without thinking text has no empty
 * "Thinking" toggle (Gemini signs its calls with a thought signature and no
 * thought), a denied proposal leaves the diff panel, and a new session does
 * not show the previous session's diff.
 */
import { approvalCard, diffView, newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { startHost, type E2EHost } from "../helpers/host";
import { expect, screenshot, test } from "../helpers/fixtures";

test("after Approve once the final answer is scrolled into view", async ({ page, host }) => {
  await page.setViewportSize({ width: 900, height: 640 });
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please add a review note to README.md.");
  const card = approvalCard(page);
  await expect(card).toBeVisible();
  // Before answering, the user scrolls up to read what led to the proposal.
  await transcript(page).evaluate((el) => el.scrollTo({ top: 0 }));
  await expect.poll(() => transcript(page).evaluate((el) => el.scrollTop)).toBe(0);
  expect(await transcript(page).evaluate((el) => el.scrollHeight > el.clientHeight + 48)).toBe(true);
  await card.getByRole("button", { name: /^Approve once/ }).click();
  await expect(card).toHaveCount(0);
  await waitIdle(page);
  const answer = transcript(page).getByText(/^Done: I added a review note/);
  await expect(answer).toBeVisible();
  // Wholly inside the transcript's visible box, without the user scrolling.
  await expect
    .poll(async () => {
      const [a, log] = [await answer.boundingBox(), await transcript(page).boundingBox()];
      return a !== null && log !== null && a.y >= log.y - 0.5 && a.y + a.height <= log.y + log.height + 0.5;
    })
    .toBe(true);
  await screenshot(page, "turn-truth-answer-in-view");
});

test("a denied proposal leaves the diff panel, and a new session does not show the previous session's diff", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Add a review note to README.md please.");
  const card = approvalCard(page);
  const panel = diffView(page);
  await expect(panel).toContainText("proposed");
  await card.getByRole("button", { name: /^Deny…/ }).click();
  await card.getByRole("button", { name: "Deny", exact: true }).click();
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "denied");
  await waitIdle(page);
  await expect(panel).toBeHidden();
  await expect(page.getByRole("button", { name: "Diff", exact: true })).toBeDisabled();

  // An applied change is shown in the panel; a new session starts without it.
  await send(page, "Add a review note to README.md please.");
  await approvalCard(page)
    .getByRole("button", { name: /^Approve once/ })
    .click();
  await waitIdle(page);
  await expect(panel).toBeVisible();
  await expect(panel.locator(".diff-title")).toContainText("README.md");
  await newSession(page);
  await expect(panel).toBeHidden();
  await expect(page.getByRole("button", { name: "Diff", exact: true })).toBeDisabled();
});

const GEMINI = { provider: "google", api: "google-generative-ai", id: "gemini-2.5-pro" } as const;
const usage = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const answer = (content: unknown[], text: string) => ({
  type: "message",
  message: {
    role: "assistant",
    content: [...content, { type: "text", text }],
    stopReason: "stop",
    model: GEMINI,
    usage,
    timestamp: Date.now(),
  },
});

test("a turn whose thinking holds only a signature shows no Thinking toggle; one with thinking text shows it", async ({ page }) => {
  const host: E2EHost = await startHost({
    seed: {
      title: "Gemini thinking",
      model: GEMINI,
      entries: [
        { type: "message", message: { role: "user", content: [{ type: "text", text: "Hello" }], timestamp: Date.now() } },
        answer([{ type: "thinking", thinking: "", signature: "c2lnbmF0dXJl" }], "An answer signed with no thought."),
        { type: "message", message: { role: "user", content: [{ type: "text", text: "Again" }], timestamp: Date.now() } },
        answer([{ type: "thinking", thinking: "The user greets me twice.", signature: "c2ln" }], "An answer with a thought."),
      ],
    },
  });
  try {
    await page.goto(host.url);
    await page.getByRole("list", { name: "Session list" }).getByText("Gemini thinking").click();
    await expect(transcript(page)).toContainText("An answer with a thought.");
    await expect(transcript(page)).toContainText("An answer signed with no thought.");
    const toggles = transcript(page).getByRole("button", { name: /Thinking/ });
    await expect(toggles).toHaveCount(1);
    await expect(toggles).toContainText("The user greets me twice.");
  } finally {
    // The page first: a page whose server went away logs connection errors.
    await page.close();
    await host.stop();
  }
});
