/**
 * Search everything (Ctrl+Shift+F): one box over the sessions of every
 * workspace. A word found in two workspaces lists both sessions; the workspace
 * and model filters narrow them to one; a hit in a workspace that is not open
 * opens that workspace and replays the session at the hit's step. Stored text
 * that looks like markup is shown as text.
 */
import { startHost, type E2EHost } from "../helpers/host";
import { expect, screenshot, test } from "../helpers/fixtures";

const SONNET = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" } as const;
const GPT = { provider: "openai", api: "openai-responses", id: "gpt-5" } as const;
const usage = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const t0 = Date.UTC(2026, 10, 2, 9, 0, 0);
const userMsg = (text: string, at: number) => ({
  type: "message",
  message: { role: "user", content: [{ type: "text", text }], timestamp: at },
});
const answer = (text: string, model: typeof SONNET | typeof GPT, at: number) => ({
  type: "message",
  message: { role: "assistant", content: [{ type: "text", text }], stopReason: "stop", model, usage, timestamp: at },
});

test("search across workspaces, narrowed by filters, opens the hit's step in replay", async ({ page }) => {
  const host: E2EHost = await startHost({
    seed: {
      title: "Parser work",
      model: SONNET,
      entries: [
        userMsg("Why does the tokenizer crash on hyphens?", t0),
        answer("The tokenizer splits on hyphens first.", SONNET, t0 + 1000),
      ],
      others: [
        {
          folder: "billing-service",
          title: "Port the invoice tokenizer",
          model: GPT,
          entries: [
            userMsg("Start with the invoice parser.", t0 + 2000),
            answer("Reading the parser now.", GPT, t0 + 3000),
            userMsg('Now port the tokenizer <img src=x onerror="window.__pwned=1"> please', t0 + 4000),
            answer("Ported: the tokenizer lives in billing/tokenize.ts.", GPT, t0 + 5000),
          ],
        },
      ],
    },
  });
  try {
    await page.goto(host.url);
    await expect(page.getByRole("list", { name: "Session list" }).getByText("Parser work")).toBeVisible();
    await page.keyboard.press("Control+Shift+F");
    const dialog = page.getByRole("dialog", { name: "Search everything" });
    await dialog.getByRole("searchbox", { name: "Search all sessions" }).fill("tokenizer");
    const groups = dialog.getByRole("list", { name: "Sessions found" }).locator(":scope > li");
    await expect(groups).toHaveCount(2);
    await expect(groups.nth(0)).toContainText("Port the invoice tokenizer");
    await expect(groups.nth(0)).toContainText("billing-service");
    await expect(groups.nth(1)).toContainText("Parser work");
    // The stored markup is text, highlighted where it matched, never an element.
    await expect(dialog.locator("mark").first()).toHaveText(/tokenizer/i);
    await expect(dialog).toContainText('<img src=x onerror="window.__pwned=1">');
    expect(await dialog.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await screenshot(page, "search-everything");

    await dialog.getByLabel("Workspace").selectOption({ label: "billing-service" });
    await expect(groups).toHaveCount(1);
    await dialog.getByLabel("Workspace").selectOption({ label: "All" });
    await expect(groups).toHaveCount(2);
    await dialog.getByLabel("Model").fill("gpt-5");
    await expect(groups).toHaveCount(1);
    await expect(groups.nth(0)).toContainText("Port the invoice tokenizer");

    // The hit on step 4 (the answer naming billing/tokenize.ts) lands on that step, in the other workspace.
    await groups
      .nth(0)
      .getByRole("button", { name: /step 4/ })
      .click();
    await expect(dialog).toBeHidden();
    const replay = page.getByRole("main", { name: "Replay" });
    await expect(replay).toBeVisible();
    const current = page.getByRole("listbox", { name: "Timeline" }).locator('[role="option"][aria-selected="true"]');
    await expect(current).toContainText("billing/tokenize.ts");
    await expect(page).toHaveURL(/replay=/);
    await expect(page.getByRole("list", { name: "Session list" }).getByText("Port the invoice tokenizer")).toBeVisible();
  } finally {
    // Before the host goes: a page left open logs its reconnect attempts as errors.
    await page.close();
    await host.stop();
  }
});
