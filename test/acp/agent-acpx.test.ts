/**
 * A real ACP client from npm drives our agent headless: acpx (pinned, installed
 * on first run into the cache outside the repo that real-agents.test.ts uses)
 * runs `npm run --silent agent -- acp` as its agent command, picks the model
 * through our config option, and answers our permission request for an edit
 * (--approve-all). The faux provider plays the model. Skipped with the reason
 * when acpx cannot be installed here.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { startFauxProvider, type FauxProvider } from "../../electron/core/faux";
import { CLI_TEST_TIMEOUT_MS } from "../timeouts";

const CACHE = process.env.AGENT_WORKBENCH_ACP_AGENTS ?? join(homedir(), ".cache", "agent-workbench-acp-agents");
const ACPX = "acpx@0.19.1";

function installAcpx(): string | { reason: string } {
  const prefix = join(CACHE, ACPX);
  const bin = join(prefix, "node_modules", ".bin", "acpx");
  if (existsSync(bin)) return bin;
  try {
    mkdirSync(prefix, { recursive: true });
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", "--prefix", prefix, ACPX], {
      stdio: "pipe",
      timeout: 600_000,
    });
  } catch (e) {
    return { reason: `${ACPX} could not be installed from npm here: ${String(e).slice(0, 200)}` };
  }
  return existsSync(bin) ? bin : { reason: `${ACPX} installed no acpx binary` };
}

const acpx = installAcpx();
let faux: FauxProvider;
let dir: string;
let workspace: string;
let dbPath: string;

beforeAll(async () => {
  faux = await startFauxProvider();
  dir = mkdtempSync(join(tmpdir(), "wb-acp-acpx-"));
  workspace = join(dir, "project");
  mkdirSync(workspace);
  dbPath = join(dir, "workbench.db");
  const workbench = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
  const res = await workbench.handle("settings.update", { baseUrls: { anthropic: faux.baseUrls.anthropic } });
  expect(res.ok).toBe(true);
  await workbench.close();
});

afterAll(async () => {
  await faux.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(bin: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: workspace,
      env: { ...process.env, HOME: join(dir, "home"), ANTHROPIC_API_KEY: "sk-ant-acpx-test", AGENT_WORKBENCH_HOME: join(dir, "home") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(typeof acpx !== "string")(`${ACPX} drives npm run agent -- acp`, () => {
  it(
    "exec with our model config option: the edit is asked through session/request_permission, approved by acpx, applied",
    async () => {
      writeFileSync(join(workspace, "notes.md"), "ship on Friday\n");
      faux.script([
        {
          type: "reply",
          content: [{ type: "toolCall", name: "edit", arguments: { path: "notes.md", edits: [{ oldText: "Friday", newText: "Monday" }] } }],
        },
        { type: "reply", content: [{ type: "text", text: "Moved the date to Monday." }] },
      ]);
      const agent = `npm --prefix ${process.cwd()} run --silent agent -- acp --db ${dbPath}`;
      const res = await run(acpx as string, [
        "--agent",
        agent,
        "--cwd",
        workspace,
        "--approve-all",
        "--format",
        "json",
        "exec",
        "--config-option",
        "model=anthropic/claude-sonnet-4-5",
        "Move the ship date to Monday",
      ]);
      expect(res.code, res.stderr).toBe(0);
      const lines = res.stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { method?: string; result?: { stopReason?: string } });
      expect(lines.some((l) => l.method === "session/request_permission")).toBe(true);
      expect(lines.some((l) => l.result?.stopReason === "end_turn")).toBe(true);
      expect(res.stdout).toContain("Moved the date to Monday.");
      expect(readFileSync(join(workspace, "notes.md"), "utf8")).toBe("ship on Monday\n");
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
if (typeof acpx !== "string") it.skip(`acpx: ${acpx.reason}`, () => undefined);
