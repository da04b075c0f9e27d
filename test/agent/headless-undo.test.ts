/**
 * `npm run agent -- undo` as a user runs it after a headless `run`: the files
 * and the conversation go back to before the last turn (the session forked
 * there, the undone prompt printed), files changed by hand since then are
 * refused without --force, and a workspace with no session is bad usage.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { startFauxProvider, type FauxProvider } from "../../electron/core/faux";
import { CLI_TEST_TIMEOUT_MS } from "../timeouts";

let faux: FauxProvider;
let dir: string;
let workspace: string;
let dbPath: string;
const NOTES = "# Notes\nship on Friday\n";

beforeAll(async () => {
  faux = await startFauxProvider();
  dir = mkdtempSync(join(tmpdir(), "wb-agent-undo-"));
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

function agent(args: string[], cwdWorkspace = workspace): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "npm",
      ["run", "--silent", "agent", "--", ...args.slice(0, 1), "--workspace", cwdWorkspace, "--db", dbPath, ...args.slice(1)],
      {
        cwd: process.cwd(),
        env: { ...process.env, ANTHROPIC_API_KEY: "sk-ant-undo-test", AGENT_WORKBENCH_HOME: join(dir, "home") },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

function scriptEdit(to: string): void {
  faux.script([
    {
      type: "reply",
      content: [{ type: "toolCall", name: "edit", arguments: { path: "notes.md", edits: [{ oldText: "Friday", newText: to }] } }],
    },
    { type: "reply", content: [{ type: "text", text: `Moved it to ${to}.` }] },
  ]);
}

const notes = () => readFileSync(join(workspace, "notes.md"), "utf8");

// Each test starts the CLI (tsx loading the whole core) up to three times: 25 s each at load 12 on
// 2 cores, 44-50 s at load 19 (a test took 154 s). Generous timeouts; no timing is asserted.
describe("npm run agent -- undo", () => {
  it(
    "restores the files and forks the conversation before the last turn, printing the undone prompt",
    async () => {
      writeFileSync(join(workspace, "notes.md"), NOTES);
      scriptEdit("Monday");
      const run = await agent(["run", "--model", "anthropic/claude-sonnet-4-5", "--approve", "all", "Move the ship date to Monday"]);
      expect(run.code, run.stderr).toBe(0);
      expect(notes()).toBe("# Notes\nship on Monday\n");

      const undo = await agent(["undo", "--json"]);
      expect(undo.code, undo.stderr).toBe(0);
      // --json: one final result event.
      const final = JSON.parse(undo.stdout.trim()) as {
        event: string;
        payload: { exitCode: number; restoredFiles: string[]; session: string | null; prompt: string | null };
      };
      expect(final.event).toBe("result");
      expect(final.payload.exitCode).toBe(0);
      const result = final.payload;
      expect(result.restoredFiles).toEqual(["notes.md"]);
      expect(result.prompt).toBe("Move the ship date to Monday");
      expect(notes()).toBe(NOTES);

      // The fork holds the conversation up to before the undone message; the original session is kept.
      const workbench = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
      try {
        const ws = await workbench.handle("workspace.open", { path: workspace });
        if (!ws.ok) throw new Error(ws.error.message);
        const list = await workbench.handle("session.list", { workspaceId: (ws.result as { id: string }).id });
        if (!list.ok) throw new Error(list.error.message);
        const sessions = (list.result as { sessions: Array<{ id: string }> }).sessions;
        expect(sessions.map((s) => s.id)).toContain(result.session);
        expect(sessions).toHaveLength(2);
        const forked = await workbench.handle("session.load", { sessionId: result.session as string });
        if (!forked.ok) throw new Error(forked.error.message);
        const texts = (forked.result as { entries: Array<{ entry: { type: string; message?: { role: string } } }> }).entries.filter(
          (e) => e.entry.type === "message" && e.entry.message?.role === "user",
        );
        expect(texts).toHaveLength(0);
      } finally {
        await workbench.close();
      }

      // Again: the fork has no turn left. Not bad usage: its own exit code, said as JSON too.
      const again = await agent(["undo", "--json"]);
      expect(again.code).toBe(3);
      expect(again.stderr).toContain("has no turn to undo");
      const events = again.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { event: string; payload: { exitCode: number; message?: string } });
      expect(events.map((e) => e.event)).toEqual(["error", "result"]);
      expect(events[0].payload.message).toContain("has no turn to undo");
      expect(events[1].payload.exitCode).toBe(3);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "refuses to restore over a file changed by hand since the turn unless --force",
    async () => {
      writeFileSync(join(workspace, "notes.md"), NOTES);
      scriptEdit("Tuesday");
      const run = await agent(["run", "--model", "anthropic/claude-sonnet-4-5", "--approve", "all", "Move the ship date to Tuesday"]);
      expect(run.code, run.stderr).toBe(0);
      const byHand = "# Notes\nship on Tuesday, confirmed by Ana\n";
      writeFileSync(join(workspace, "notes.md"), byHand);

      const refused = await agent(["undo"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("changed outside the agent since that turn: notes.md");
      expect(notes()).toBe(byHand);

      const forced = await agent(["undo", "--force"]);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stdout).toContain("restored notes.md");
      expect(notes()).toBe(NOTES);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "is bad usage in a workspace without a session",
    async () => {
      const empty = join(dir, "empty");
      mkdirSync(empty);
      const undo = await agent(["undo"], empty);
      expect(undo.code).toBe(2);
      expect(undo.stderr).toContain("no session yet");
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
