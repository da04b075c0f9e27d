/**
 * One session across four wire APIs: Anthropic → Gemini → Bedrock → OpenAI,
 * with a tool call (list, read, an approved edit) in every leg. The faux
 * provider speaks each wire (Gemini's streamed JSON, Bedrock's event stream)
 * to the official SDKs and validates every request strictly.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { approvalCard, chooseModel, modelButton, newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";

const LEGS = [
  { provider: "Anthropic", route: "anthropic", file: "README.md" },
  { provider: "Google Gemini", route: "gemini", file: "src/math.ts" },
  { provider: "Amazon Bedrock", route: "bedrock", file: "README.md" },
  { provider: "OpenAI", route: "openai-responses", file: "src/math.ts" },
] as const;

test("a session switches Anthropic → Gemini → Bedrock → OpenAI with a tool call in each leg, every request accepted", async ({
  page,
  host,
}) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await chooseModel(page, LEGS[0].provider);
  await newSession(page);

  for (const [i, leg] of LEGS.entries()) {
    let label = "";
    if (i > 0) {
      label = await chooseModel(page, leg.provider);
      await expect(modelButton(page)).toHaveAccessibleName(new RegExp(`^Model: ${label.replace(/[()]/g, "\\$&")}`));
    }
    await send(page, `Please add a review note to ${leg.file}.`);
    const card = approvalCard(page);
    await expect(card).toBeVisible();
    await card
      .getByRole("button", { name: /^Approve\b/ })
      .first()
      .click();
    await expect(card).toHaveCount(0);
    await waitIdle(page);
    // The edit this leg's model proposed was applied, and the leg's answer came from that model.
    await expect(toolCards(page, "edit").last()).toHaveAttribute("data-status", "done");
    if (label) await expect(transcript(page).getByLabel("Assistant message").last()).toContainText(label);
  }

  expect(readFileSync(join(host.workspace, "README.md"), "utf8")).toContain("Reviewed by the Agent Workbench demo agent.");
  const requests = await host.fauxRequests();
  expect(requests.filter((r) => !r.accepted)).toEqual([]);
  const routes = requests.map((r) => r.route);
  // Every leg ran a tool loop on its own wire: a request, then at least one more carrying the tool results.
  for (const leg of LEGS) expect(routes.filter((r) => r === leg.route).length).toBeGreaterThanOrEqual(2);
  // The legs ran in order: every request of a leg comes after the previous leg's.
  const firstOf = LEGS.map((leg) => routes.indexOf(leg.route));
  expect([...firstOf].sort((a, b) => a - b)).toEqual(firstOf);
});
