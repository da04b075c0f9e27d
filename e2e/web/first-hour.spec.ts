/**
 * What a new user trips over in the first hour, each reproduced as reported:
 * the model picker, a denied edit in the diff panel, toasts over controls, a
 * reload that loses the session.
 */
import { approvalCard, diffView, modelButton, newSession, openWorkspace, send, toolCards, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

test("the model picker opens on the current model with the filter focused, and Enter keeps it", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);

  // A model far down the registry's own order (a local server's), so its row differs from its registry index.
  await modelButton(page).click();
  const local = page.getByRole("listbox", { name: "Models" }).getByRole("option", { name: /^qwen2\.5-coder:14b \(Ollama\)/ });
  await local.click();
  await expect(modelButton(page)).toHaveAccessibleName("Model: qwen2.5-coder:14b (Ollama). Change model");

  await modelButton(page).focus();
  await page.keyboard.press("Enter");
  const filter = page.getByRole("textbox", { name: "Filter models" });
  await expect(filter).toBeFocused();
  await expect(filter).toBeInViewport({ ratio: 1 });
  const list = page.getByRole("listbox", { name: "Models" });
  // The highlighted row is the current model's; read it until it settles (local servers answering reorder the list).
  const selectedOfActive = async () => {
    const id = await list.getAttribute("aria-activedescendant");
    return id === null ? null : page.locator(`[id="${id}"]`).getAttribute("aria-selected");
  };
  await expect.poll(selectedOfActive).toBe("true");
  const activeId = await list.getAttribute("aria-activedescendant");
  await expect(page.locator(`[id="${activeId}"]`)).toHaveAttribute("aria-selected", "true");
  await expect(page.locator(`[id="${activeId}"]`)).toBeInViewport();
  await screenshot(page, "model-picker");
  await page.keyboard.press("Enter");
  await expect(list).toHaveCount(0);
  await expect(modelButton(page)).toHaveAccessibleName("Model: qwen2.5-coder:14b (Ollama). Change model");
});

test("models that cannot run now are listed under the ready ones, marked, and picking one asks first", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  const before = await modelButton(page).getAttribute("aria-label");

  await modelButton(page).click();
  const list = page.getByRole("listbox", { name: "Models" });
  const groups = list.getByRole("group");
  // The list fills from the model catalog and local servers' answers: read its groups once they are in.
  await expect(list.getByRole("group", { name: "OpenRouter (not ready)" })).toBeVisible();
  const names = await groups.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
  const firstNotReady = names.findIndex((n) => n.endsWith("(not ready)"));
  expect(firstNotReady).toBeGreaterThan(0);
  expect(names.slice(firstNotReady).every((n) => n.endsWith("(not ready)"))).toBe(true);
  expect(names).toContain("OpenRouter (not ready)");

  // The filter matches name, id and provider: one OpenRouter model.
  await page.getByRole("textbox", { name: "Filter models" }).fill("qwen/qwen3-coder openrouter");
  await page.keyboard.press("Enter");
  const warning = page.getByRole("alertdialog", { name: "Model not ready" });
  await expect(warning).toContainText("Qwen3 Coder 480B A35B cannot run now: its API key is missing");
  await expect(warning.getByRole("button", { name: "Use anyway" })).toBeFocused();
  await screenshot(page, "model-picker-not-ready");
  await warning.getByRole("button", { name: "Cancel" }).click();
  await expect(warning).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(modelButton(page)).toHaveAttribute("aria-label", before ?? "");
});

test("a denied edit no longer shows as proposed in the diff panel", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Add a review note to README.md please.");
  const card = approvalCard(page);
  await expect(card).toBeVisible();
  const panel = diffView(page);
  await expect(panel).toContainText("proposed");
  // Monaco is a large chunk loaded on first use: on a busy machine it can take a while.
  await expect(panel.locator(".modified .view-lines")).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByText("Loading the diff editor…")).toHaveCount(0);
  await screenshot(page, "approval-card");

  await card.getByRole("button", { name: /^Deny…/ }).click();
  await card.getByRole("button", { name: "Deny", exact: true }).click();
  await expect(toolCards(page, "edit").first()).toHaveAttribute("data-status", "denied");
  // The denied proposal changed nothing: the panel drops it.
  await expect(panel).toBeHidden();
  await waitIdle(page);
});

test("a fresh tab reopens the workspace's last session, and the list shows which sessions wait for an approval", async ({
  page,
  host,
  browser,
}) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Add a review note to README.md please.");
  await expect(approvalCard(page)).toBeVisible();
  const title = "Add a review note to README.md please.";

  // Another browser profile (nothing remembered in localStorage), as when the printed URL of a new launch is opened.
  const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const tab = await fresh.newPage();
    await tab.goto(host.url);
    const item = tab
      .getByRole("list", { name: "Session list" })
      .getByRole("button", { name: new RegExp(`^${title.replace(/[.?]/g, "\\$&")}`) });
    await expect(item).toContainText("waiting for approval");
    await expect(item).toHaveAttribute("aria-current", "true");
    await expect(item).toHaveAttribute("title", title);
    await expect(approvalCard(tab)).toBeVisible();
    await expect(modelButton(tab)).not.toHaveAccessibleName(/No model/);
  } finally {
    await fresh.close();
  }
  await approvalCard(page)
    .getByRole("button", { name: /^Approve once/ })
    .click();
  await waitIdle(page);
  await expect(page.getByRole("list", { name: "Session list" }).getByText("waiting for approval")).toHaveCount(0);
});

test('a new session shows the model it will use, not "No model"', async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await expect(page.getByRole("heading", { name: "Start a session" })).toBeVisible();
  // With an Anthropic key, the newest model of Anthropic's preferred family in the catalog (catalog/overrides.ts).
  await expect(modelButton(page)).toHaveAccessibleName("Model: Claude Sonnet 5. Change model");
});
