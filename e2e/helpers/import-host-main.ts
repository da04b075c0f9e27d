/**
 * The web host for the import spec: the real Claude Code CLI (pinned, from the
 * npm cache the importer tests fill) runs once against the faux provider in
 * the workspace, doing a read, an edit and a bash call, so its folder holds a
 * real transcript; then the real core and web host start with that folder as
 * Claude Code's (CLAUDE_CONFIG_DIR). After that, every request is answered
 * with a short text naming the route and model it came in on. A control
 * server lists the requests made after the CLI's run. Prints
 * `E2E_IMPORT_HOST {json}` when ready, or with `skip` when the CLI cannot be
 * installed here. Env: E2E_DB, E2E_WORKSPACE, E2E_STATIC, E2E_DIR.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { reply, startFauxProvider, text, thinking, toolCall } from "../../electron/core/faux";
import { ensureCli } from "../../test/importers/cli-cache";
import { runCli } from "../../test/importers/run-cli";
import { runHostMain, serveUntilStopped } from "./host-runtime";

export const CLAUDE_CODE = { pkg: "@anthropic-ai/claude-code", version: "2.1.332", model: "claude-sonnet-4-5" };
export const IMPORT_PROMPT = "Change hello to goodbye in notes.txt, then show the file";

async function main(): Promise<void> {
  const dbPath = process.env.E2E_DB;
  const staticDir = process.env.E2E_STATIC;
  const workspace = process.env.E2E_WORKSPACE;
  const dir = process.env.E2E_DIR;
  if (!dbPath || !staticDir || !workspace || !dir) throw new Error("E2E_DB, E2E_STATIC, E2E_WORKSPACE and E2E_DIR are required");
  const faux = await startFauxProvider({});

  const cli = await ensureCli(CLAUDE_CODE.pkg, CLAUDE_CODE.version);
  if ("error" in cli) {
    console.log(
      `E2E_IMPORT_HOST ${JSON.stringify({ skip: `the Claude Code CLI could not be installed here: ${cli.error.slice(0, 300)}` })}`,
    );
    await faux.close();
    return;
  }
  const wrapper = join(cli.dir, "node_modules", CLAUDE_CODE.pkg, "bin", "claude.exe");
  const platformBin = join(cli.dir, "node_modules", "@anthropic-ai", `claude-code-${process.platform}-${process.arch}`, "claude");
  const bin = readFileSync(wrapper).subarray(0, 4).toString("latin1") === "\x7fELF" ? wrapper : platformBin;
  const home = join(dir, "cc-home");
  mkdirSync(home, { recursive: true });
  let step = 0;
  faux.setDefaultResponder((req) => {
    if (!req.tools.some((t) => t.name === "Read")) return reply("ok");
    if (req.lastTurn?.role === "user")
      return reply([thinking("Read it first."), text("Reading."), toolCall("Read", { file_path: join(workspace, "notes.txt") })]);
    step++;
    if (step === 1)
      return reply([
        thinking("Now the edit."),
        toolCall("Edit", { file_path: join(workspace, "notes.txt"), old_string: "hello", new_string: "goodbye" }),
      ]);
    if (step === 2) return reply([thinking("Show it."), toolCall("Bash", { command: "cat notes.txt", description: "Show the file" })]);
    return reply([thinking("Done."), text("notes.txt now says goodbye world.")]);
  });
  const run = await runCli(
    bin,
    ["-p", IMPORT_PROMPT, "--model", CLAUDE_CODE.model, "--allowedTools", "Read,Edit,Bash", "--output-format", "json"],
    {
      cwd: workspace,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ANTHROPIC_BASE_URL: faux.baseUrls.anthropic,
        ANTHROPIC_API_KEY: "sk-ant-faux-dummy",
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_ERROR_REPORTING: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
    },
  );
  if (run.code !== 0) throw new Error(`claude exited with ${run.code}: ${run.stderr.slice(-500)} ${run.stdout.slice(-500)}`);
  const after = faux.requests.length;
  faux.setDefaultResponder((req) => reply(`Continued on ${req.route} as ${req.model ?? "unknown"}.`));

  const workbench = await createWorkbench({
    dbPath,
    host: { mode: "web", notices: [] },
    version: "e2e-import",
    env: {
      ANTHROPIC_API_KEY: "sk-ant-e2e-not-a-real-key",
      OPENAI_API_KEY: "sk-e2e-not-a-real-key",
      CLAUDE_CONFIG_DIR: join(home, ".claude"),
      CODEX_HOME: join(dir, "no-codex"),
      PI_CODING_AGENT_DIR: join(dir, "no-pi"),
    },
    initialWorkspace: workspace,
    baseUrlOverrides: { anthropic: faux.baseUrls.anthropic, openai: faux.baseUrls.openai },
    demo: false,
  });
  const control = createServer((req, res) => {
    if (req.url !== "/requests") {
      res.writeHead(404).end();
      return;
    }
    const body = faux.requests
      .slice(after)
      .map((r) => ({ route: r.route, model: r.model, accepted: r.accepted, rejection: r.rejection?.message ?? null }));
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
  await serveUntilStopped({
    workbench,
    staticDir,
    readyTag: "E2E_IMPORT_HOST",
    info: { controlUrl, cliRunMs: run.ms, installMs: cli.installMs },
    closeFirst: () => control.close(),
    closeLast: () => faux.close(),
  });
}

runHostMain("e2e import host", main);
