/**
 * What the bash sandbox cannot refuse is said on the tool card: a command
 * that writes through a hard link into a file outside the workspace (as
 * pnpm links its store) is named there after the run.
 */
import { linkSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { approvalCard, newSession, openWorkspace, send, toolCards, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";
import { detectBashSandbox } from "../../electron/core/tools/bash-sandbox";

const sandbox = detectBashSandbox();

test("the tool card names a file changed outside the workspace through a hard link", async ({ page, host }) => {
  test.skip(sandbox.kind === "none", `no OS sandbox on this machine (${sandbox.reason ?? "none"}): nothing is checked after the run`);
  const outsideDir = mkdtempSync(join(tmpdir(), "awb-e2e-store-"));
  try {
    const outside = join(outsideDir, "store.js");
    writeFileSync(outside, "module.exports = 1;\n");
    linkSync(outside, join(host.workspace, "linked.js"));
    await page.goto(host.url);
    await openWorkspace(page, host.workspace);
    await newSession(page);
    await send(page, "Please run `echo changed >> linked.js` for me.");
    await approvalCard(page)
      .getByRole("button", { name: /^Approve once/ })
      .click();
    await waitIdle(page);
    const warning = toolCards(page, "bash").first().getByRole("alert");
    await expect(warning).toContainText("Written through a hard link, so the same file outside the workspace changed too");
    await expect(warning).toContainText("linked.js");
    expect(readFileSync(outside, "utf8")).toContain("changed");
  } finally {
    rmSync(outsideDir, { recursive: true, force: true });
  }
});
