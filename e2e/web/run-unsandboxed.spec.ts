/**
 * "Run unsandboxed" on a bash approval card: a separate choice, two clicks
 * (the first says what it means), for that one command; the tool card then
 * says the command ran unsandboxed by the user's choice.
 */
import { approvalCard, newSession, openWorkspace, send, toolCards, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";
import { detectBashSandbox } from "../../electron/core/tools/bash-sandbox";

const sandbox = detectBashSandbox();

test("a sandboxed bash command can be run unsandboxed, once, by an explicit choice", async ({ page, host }) => {
  test.skip(sandbox.kind === "none", `no OS sandbox on this machine (${sandbox.reason ?? "none"}): the card offers no unsandboxed choice`);
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Please run `echo outside` for me.");
  const card = approvalCard(page);
  await expect(card.getByLabel("Sandbox")).toContainText("Sandboxed");
  await card.getByRole("button", { name: "Run unsandboxed…" }).click();
  await expect(card.getByRole("note")).toContainText("runs with your full user rights");
  await card.getByRole("button", { name: "Run outside the sandbox" }).click();
  await expect(card).toHaveCount(0);
  await waitIdle(page);
  await expect(toolCards(page, "bash").first()).toContainText("run unsandboxed (your choice, this command only)");

  // The same command again is asked again, sandboxed.
  await send(page, "Please run `echo outside` again.");
  await expect(card.getByLabel("Sandbox")).toContainText("Sandboxed");
  await card.getByRole("button", { name: /^Approve once/ }).click();
  await waitIdle(page);
  await expect(toolCards(page, "bash").nth(1)).not.toContainText("unsandboxed");
});
