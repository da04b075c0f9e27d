/** The model switcher offers what a local server has installed, and a session runs on it. */
import { approvalCard, modelButton, newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

test("the switcher lists the models a local Ollama has installed, and a session runs on one", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);

  await modelButton(page).click();
  const ollama = page.getByRole("listbox", { name: "Models" }).getByRole("group", { name: "Ollama (local)", exact: true });
  const installed = ollama.getByRole("option", { name: /^qwen2\.5-coder:14b \(Ollama\)/ });
  await expect(installed).toBeVisible();
  // Installed first; the bundled examples the server lacks stay, marked, under the ready models; a server that is not running says so.
  await expect(ollama.getByRole("option").first()).toHaveAccessibleName("qwen2.5-coder:14b (Ollama) (Ollama (local))");
  const ollamaLater = page.getByRole("listbox", { name: "Models" }).getByRole("group", { name: "Ollama (local) (not ready)", exact: true });
  await expect(ollamaLater.getByRole("option", { name: /^Llama 3\.1 8B \(Ollama\)/ })).toHaveAccessibleName(
    /, not installed on the server$/,
  );
  const lmStudio = page.getByRole("listbox", { name: "Models" }).getByRole("group", { name: "LM Studio (local) (not ready)", exact: true });
  await expect(lmStudio.getByRole("option").first()).toHaveAccessibleName(/, server not running$/);
  await installed.scrollIntoViewIfNeeded();
  await screenshot(page, "model-switcher-local");
  await installed.click();
  await expect(modelButton(page)).toHaveAccessibleName("Model: qwen2.5-coder:14b (Ollama). Change model");

  // The demo agent lists, reads, then proposes an edit: every step on the local model.
  await send(page, "Add a review note to README.md.");
  await expect(toolCards(page, "read").first()).toHaveAttribute("data-status", "done");
  await expect(transcript(page).getByText("qwen2.5-coder:14b (Ollama)").first()).toBeVisible();
  await approvalCard(page)
    .getByRole("button", { name: /^Approve once/ })
    .click();
  await waitIdle(page);
  const requests = await host.fauxRequests();
  expect(requests.filter((r) => r.model === "qwen2.5-coder:14b").length).toBeGreaterThan(0);
  expect(requests.every((r) => r.accepted)).toBe(true);
});
