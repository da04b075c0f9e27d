/**
 * The renderer survives any stored entry: a session whose entries hold values
 * no live turn writes (a timestamp of -1e20, token counts in the
 * quadrillions, a duration of 1e300), as a crafted export imports them,
 * renders every entry and stays usable, also after a reload (which reopens it).
 * Before, one such timestamp blanked the whole app on every start.
 */
import { newSession, send, toolCards, transcript, transcriptText, waitIdle } from "../helpers/app";
import { startHost, type E2EHost } from "../helpers/host";
import { expect, screenshot, test } from "../helpers/fixtures";

const MODEL = { provider: "anthropic", api: "anthropic-messages", id: "claude-opus-4-6" } as const;
const TITLE = "Crafted import with odd numbers";
const HUGE_INT = 9_000_000_000_000_000; // past what any model counts, still a safe integer (the protocol's rule)
const usage = {
  input: HUGE_INT,
  output: HUGE_INT,
  cacheRead: 0,
  cacheWrite: HUGE_INT,
  totalTokens: HUGE_INT,
  cost: { input: 1e300, output: -1e20, cacheRead: 0, cacheWrite: 0, total: 1e300 },
};
const ENTRIES: unknown[] = [
  { type: "message", message: { role: "user", content: [{ type: "text", text: "A message from before time." }], timestamp: -1e20 } },
  {
    type: "message",
    message: {
      role: "assistant",
      content: [
        { type: "text", text: "An answer from after the end of the calendar." },
        { type: "toolCall", id: "toolu_odd_1", name: "bash", arguments: { command: "echo odd" } },
      ],
      stopReason: "toolUse",
      model: MODEL,
      usage,
      timestamp: 1e20,
    },
  },
  { type: "approval", toolCallId: "toolu_odd_1", toolName: "bash", decision: "approved", decidedBy: "user", timestamp: -1e20 },
  {
    type: "message",
    message: {
      role: "toolResult",
      toolCallId: "toolu_odd_1",
      toolName: "bash",
      isError: false,
      content: [{ type: "text", text: "odd" }],
      details: { exitCode: 0, durationMs: 1e300 },
      timestamp: -8.64e15 - 1,
    },
  },
  { type: "modelSwitch", from: MODEL, to: MODEL, timestamp: 1e300 },
  { type: "reasoningChange", from: "default", to: "high", timestamp: -1e300 },
  { type: "compaction", summary: "A summary.", firstKeptSeq: -5, tokensBefore: HUGE_INT, model: MODEL, timestamp: -1e20 },
  { type: "fork", sourceSessionId: "no-such-session", sourceSeq: HUGE_INT, timestamp: 1e20 },
  { type: "rename", title: TITLE, timestamp: -1e20 },
  {
    type: "message",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "Everything after the odd entries is fine." }],
      stopReason: "stop",
      model: MODEL,
      usage: { ...usage, input: 10, output: 5, cacheWrite: 0, totalTokens: 15, cost: { ...usage.cost, total: 0.001 } },
      timestamp: Date.now(),
    },
  },
];

test("a session with out-of-range timestamps, tokens and durations renders every entry and stays usable after reload", async ({ page }) => {
  const host: E2EHost = await startHost({ seed: { title: TITLE, model: MODEL, entries: ENTRIES } });
  try {
    // The seeded workspace is the most recent one: the app opens it at start.
    await page.goto(host.url);
    await page.getByRole("list", { name: "Session list" }).getByText(TITLE).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(TITLE);

    const expectAllRows = async () => {
      await expect(transcript(page)).toContainText("Everything after the odd entries is fine.");
      const rows = (await transcriptText(page)).join("\n");
      for (const text of [
        "A message from before time.",
        "An answer from after the end of the calendar.",
        "Model switched",
        "Reasoning changed",
        "Context compacted",
        "Forked from another session",
      ])
        expect(rows).toContain(text);
      expect(rows).not.toContain("could not be shown");
      await expect(toolCards(page, "bash").first()).toHaveAttribute("data-status", "done");
    };
    await expectAllRows();
    await screenshot(page, "stored-entries-out-of-range");

    // Replay shows every step of it, each step's details and the statistics.
    await page.getByRole("button", { name: `Replay session ${TITLE}` }).click();
    const replay = page.getByRole("main", { name: "Replay" });
    const steps = replay.getByRole("listbox", { name: "Timeline" }).getByRole("option");
    await expect(steps.first()).toBeVisible();
    expect(await steps.count()).toBeGreaterThanOrEqual(ENTRIES.length - 1);
    await expect(replay.getByRole("region", { name: "Transcript at this step" })).toContainText("A message from before time.");
    await page.keyboard.press("End");
    await expect(replay.getByRole("region", { name: "Step details" })).toBeVisible();
    await expect(replay.getByRole("region", { name: "Transcript at this step" })).toContainText(
      "Everything after the odd entries is fine.",
    );
    await screenshot(page, "stored-entries-out-of-range-replay");
    await replay.getByRole("button", { name: "Statistics" }).click();
    await expect(page.getByRole("dialog", { name: "Session statistics" })).toContainText("Tokens and cost per model");
    await page.keyboard.press("Escape");
    await expect(replay).not.toContainText("could not be shown");
    await replay.getByRole("button", { name: "Exit replay" }).click();

    // The app reopens the session at start: it renders again, and the app is usable.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(TITLE);
    await expectAllRows();
    await newSession(page);
    await send(page, "Just answer please [quiet]");
    await waitIdle(page);
    await expect(transcript(page)).toContainText("Quiet answer");
  } finally {
    // Leave the page first: a page whose server goes away logs connection errors.
    await page.goto("about:blank");
    await host.stop();
  }
});
