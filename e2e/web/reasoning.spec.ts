/** The reasoning control next to the model: sent as each API expects, remembered with the session, marked in the transcript, hidden where a model does not reason. */
import { chooseModel, modelButton, newSession, openWorkspace, send, transcript, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";

test("reasoning set to high reaches Anthropic and Responses as each expects; the control is absent on a model that does not reason", async ({
  page,
  host,
}) => {
  // Several turns on two APIs and a reload: more than one default test budget on a loaded machine.
  test.slow();
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await chooseModel(page, "Anthropic");
  await newSession(page);

  const level = page.getByRole("combobox", { name: "Reasoning level" });
  await expect(level).toHaveValue("default");
  await level.selectOption("high");
  await expect(transcript(page).getByRole("note", { name: "Reasoning level changed" })).toContainText("to high");

  await send(page, "Think it through: what is in this project?");
  // Claude Opus 4.6 declares adaptive thinking: an effort rather than a token budget.
  await expect
    .poll(async () => (await host.fauxRequests()).find((r) => r.route === "anthropic")?.reasoning)
    .toEqual({ thinking: { type: "adaptive", display: "summarized" }, output_config: { effort: "high" } });
  // The demo answers these without an edit to approve: the turn ends by itself.
  await waitIdle(page);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  // The level belongs to the session: it stays when the model changes.
  await chooseModel(page, "OpenAI");
  await expect(level).toHaveValue("high");
  await send(page, "And now on GPT-5?");
  await expect
    .poll(async () => (await host.fauxRequests()).find((r) => r.route === "openai-responses")?.reasoning)
    .toEqual({ reasoning: { effort: "high", summary: "auto" }, include: ["reasoning.encrypted_content"] });
  expect((await host.fauxRequests()).every((r) => r.accepted)).toBe(true);
  // The demo answers these without an edit to approve: the turn ends by itself.
  await waitIdle(page);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  // A model that does not reason has no control.
  await modelButton(page).click();
  await page
    .getByRole("listbox", { name: "Models" })
    .getByRole("option", { name: /^GPT-4\.1 \(OpenAI\)/ })
    .click();
  await expect(modelButton(page)).toHaveAccessibleName(/GPT-4\.1/);
  await expect(page.getByRole("combobox", { name: "Reasoning level" })).toHaveCount(0);

  // Remembered with the session across a reload.
  await chooseModel(page, "Anthropic");
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Reasoning level" })).toHaveValue("high");
});
