/**
 * A workspace with `.mcp.json` (server-everything over stdio, launched with
 * node from its npm package: no network) and `AGENTS.md`: the server starts
 * only once trusted in Settings, the agent calls an MCP tool after approval
 * ("always allow" saves it), "what the model saw" shows the AGENTS.md text and
 * where it came from, an @-mention attaches a file, and a `/` template expands.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { approvalCard, newSession, openWorkspace, send, transcript, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";

const require = createRequire(import.meta.url);
const everythingManifest = require.resolve("@modelcontextprotocol/server-everything/package.json");
const EVERYTHING_BIN = join(dirname(everythingManifest), "dist", "index.js");

const AGENTS_RULE = "House rule from AGENTS.md: name every helper after a bird.";

function makeWorkspace(base: string): string {
  const ws = join(base, "mcp-project");
  const files: Record<string, string> = {
    ".mcp.json": JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_BIN, "stdio"] } } }),
    "AGENTS.md": `# Project instructions\n\n${AGENTS_RULE}\n`,
    "src/birds.ts": "export const robin = 1;\nexport const wren = 2;\n",
    ".agents/commands/explain.md": "---\ndescription: Explain a file in one line\n---\nExplain $ARGUMENTS in one line. [quiet]",
  };
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(ws, rel)), { recursive: true });
    writeFileSync(join(ws, rel), content);
  }
  return ws;
}

test("MCP tool after approval, AGENTS.md in what the model saw, an @-mention and a / template", async ({ page, host }) => {
  const ws = makeWorkspace(host.dir);
  await page.goto(host.url);
  await openWorkspace(page, ws);
  await newSession(page);

  // The header says which instruction file is in effect.
  await expect(page.getByRole("status", { name: "Instructions in effect: AGENTS.md" })).toBeVisible();

  // The workspace's .mcp.json came with the folder: nothing starts until the user trusts it in Settings.
  const notice = page.getByRole("status", { name: "Untrusted MCP servers" });
  await expect(notice).toContainText("everything");
  await notice.getByRole("button", { name: "Review in Settings" }).click();
  const server = page.getByRole("listitem", { name: "MCP server everything" });
  await expect(server.getByRole("status")).toHaveText("not trusted · not started");
  await expect(server).toContainText(`Runs ${process.execPath} ${EVERYTHING_BIN} stdio`);
  await server.getByRole("button", { name: "Trust and start" }).click();
  // Settings then lists the server as ready with its tools.
  await expect(server.getByRole("status")).toHaveText(/ready · \d+ tools/, { timeout: 60_000 });
  await expect(server.getByRole("button", { name: "Revoke trust" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(notice).toBeHidden();

  // The model calls a server-everything tool: every MCP tool asks first, whatever the server says about it.
  await send(page, "[mcp] turn on simulated logging");
  const card = approvalCard(page);
  await expect(card).toContainText("MCP tool toggle-simulated-logging of server everything", { timeout: 60_000 });
  // "Always allow" saves the tool for this workspace (an MCP tool has no rules to pick).
  await card.getByRole("button", { name: "Always allow" }).click();
  await waitIdle(page);
  await expect(transcript(page)).toContainText("MCP tool answered:");
  await expect(transcript(page)).toContainText(/logging/i);
  // The next call runs without a card; Settings lists the tool with a way to forget it.
  await send(page, "[mcp] turn simulated logging off again");
  await waitIdle(page);
  await expect(approvalCard(page)).toBeHidden();
  await expect(transcript(page).getByText("MCP tool answered:")).toHaveCount(2);
  await page.getByRole("button", { name: "Settings" }).click();
  const allowed = page.getByRole("listitem", { name: "MCP server everything" });
  await expect(allowed).toContainText("Always allowed in this workspace: toggle-simulated-logging");
  await expect(allowed.getByRole("button", { name: "Forget" })).toBeVisible();
  await page.keyboard.press("Escape");

  // @-mention: the pop-up offers the file, the message carries it as a chip.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("[quiet] What is in ");
  await box.pressSequentially("@birds");
  const files = page.getByRole("listbox", { name: "Files" });
  await expect(files.getByRole("option").first()).toContainText("src/birds.ts");
  await box.press("Enter");
  await expect(box).toHaveValue("[quiet] What is in @src/birds.ts ");
  await box.press("Enter");
  await expect(box).toHaveValue("");
  await expect(transcript(page).getByLabel("Attached file src/birds.ts")).toBeVisible();
  await waitIdle(page);
  await expect(transcript(page)).toContainText("Quiet answer; attached: src/birds.ts.");

  // A / template expands with its argument.
  await box.pressSequentially("/expl");
  const commands = page.getByRole("listbox", { name: "Commands" });
  await expect(commands.getByRole("option", { name: /\/explain/ })).toContainText("Explain a file in one line");
  await box.press("Enter");
  await expect(box).toHaveValue("/explain ");
  await box.pressSequentially("src/birds.ts");
  await box.press("Enter");
  await expect(transcript(page).getByLabel("Your message").last()).toContainText("Explain src/birds.ts in one line. [quiet]");
  await waitIdle(page);

  // What the model saw: the system prompt carries the AGENTS.md text.
  const title = await page.getByRole("heading", { level: 1 }).textContent();
  await page
    .getByRole("list", { name: "Session list" })
    .getByRole("button", { name: `Replay session ${title ?? ""}` })
    .click();
  await page
    .getByRole("listbox", { name: /timeline/i })
    .getByRole("option", { name: /^Step \d+, Assistant/ })
    .first()
    .click();
  await page.getByRole("button", { name: "What the model saw" }).click();
  const seen = page.getByRole("dialog", { name: "What the model saw" });
  await expect(seen).toContainText(AGENTS_RULE);
  // Where each file in the request came from.
  await expect(seen.getByRole("list", { name: "Files in this request" })).toContainText("AGENTS.md");

  const requests = await host.fauxRequests();
  expect(requests.filter((r) => !r.accepted).map((r) => r.rejection)).toEqual([]);
});
