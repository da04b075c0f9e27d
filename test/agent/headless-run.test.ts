/**
 * `npm run agent -- run … --json` as a user or a CI job runs it: a child
 * process on the app's core and database, against the faux provider (its base
 * URL set in the app's settings, its key in the environment, as web mode
 * resolves them). With --approve all a read and an edit run; with --approve
 * none the edit is refused with its reason and the file stays as it was.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { startFauxProvider, type FauxProvider } from "../../electron/core/faux";
import { NOT_APPROVED_REASON } from "../../electron/core/host/headless-run";
import { FLAKY_SERVER } from "../mcp/helpers";
import { CLI_TEST_TIMEOUT_MS } from "../timeouts";

let faux: FauxProvider;
let dir: string;
let workspace: string;
let dbPath: string;
const NOTES = "# Notes\nship on Friday\n";

beforeAll(async () => {
  faux = await startFauxProvider();
  dir = mkdtempSync(join(tmpdir(), "wb-agent-run-"));
  workspace = join(dir, "project");
  mkdirSync(workspace);
  dbPath = join(dir, "workbench.db");
  // The app's settings in that database point Anthropic at the faux provider.
  const workbench = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
  const res = await workbench.handle("settings.update", { baseUrls: { anthropic: faux.baseUrls.anthropic } });
  expect(res.ok).toBe(true);
  await workbench.close();
});

afterAll(async () => {
  await faux.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  events: Array<{ event: string; payload: Record<string, unknown> }>;
  stderr: string;
}

function runAgent(args: string[], dirOfWorkspace = workspace): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "npm",
      ["run", "--silent", "agent", "--", "run", "--workspace", dirOfWorkspace, "--db", dbPath, "--json", ...args],
      {
        cwd: process.cwd(),
        env: { ...process.env, ANTHROPIC_API_KEY: "sk-ant-run-test", AGENT_WORKBENCH_HOME: join(dir, "home") },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      const lines = stdout.split("\n").filter((l) => l.trim() !== "");
      const events = lines.map((l) => JSON.parse(l) as Run["events"][number]);
      resolve({ code, events, stderr });
    });
  });
}

/** Sessions of the workspace in the run's database, read with the app's own core. */
async function sessionCount(): Promise<number> {
  const workbench = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
  try {
    const ws = await workbench.handle("workspace.open", { path: workspace });
    if (!ws.ok) throw new Error(ws.error.message);
    const list = await workbench.handle("session.list", { workspaceId: (ws.result as { id: string }).id, limit: 500 });
    if (!list.ok) throw new Error(list.error.message);
    return (list.result as { sessions: unknown[] }).sessions.length;
  } finally {
    await workbench.close();
  }
}

const entriesOf = (run: Run) =>
  run.events.filter((e) => e.event === "session.entry").map((e) => e.payload.entry as { type: string; [k: string]: unknown });

// Each test starts the CLI (tsx loading the whole core) once or more: 13-18 s a run at load 10 on 2 cores,
// three times that at load 19. Generous timeouts; no timing is asserted.
describe("npm run agent -- run", () => {
  it(
    "with --approve all: reads, edits after an approval it records, answers, and stores the session in the app's database",
    async () => {
      writeFileSync(join(workspace, "notes.md"), NOTES);
      faux.script([
        { type: "reply", content: [{ type: "toolCall", name: "read", arguments: { path: "notes.md" } }] },
        {
          type: "reply",
          content: [{ type: "toolCall", name: "edit", arguments: { path: "notes.md", edits: [{ oldText: "Friday", newText: "Monday" }] } }],
        },
        { type: "reply", content: [{ type: "text", text: "Moved the ship date to Monday." }] },
      ]);
      const run = await runAgent(["--model", "anthropic/claude-sonnet-4-5", "--approve", "all", "Move the ship date to Monday"]);
      expect(run.stderr).not.toContain("failed");
      expect(run.code).toBe(0);

      const statuses = run.events
        .filter((e) => e.event === "tool.status")
        .map((e) => `${String(e.payload.toolName)}:${String(e.payload.status)}`);
      expect(statuses).toEqual(expect.arrayContaining(["read:done", "edit:awaitingApproval", "edit:done"]));
      const approvals = entriesOf(run).filter((e) => e.type === "approval");
      expect(approvals).toEqual([expect.objectContaining({ toolName: "edit", decision: "approved", decidedBy: "user" })]);
      expect(readFileSync(join(workspace, "notes.md"), "utf8")).toBe("# Notes\nship on Monday\n");
      // The turn's stream ends, then the run's own result closes the output.
      expect(run.events.slice(-2).map((e) => e.event)).toEqual(["stream.end", "result"]);
      expect(run.events.at(-1)?.payload).toMatchObject({ exitCode: 0 });

      // The same database the app opens holds the session, with its three requests' answers.
      const workbench = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
      const ws = await workbench.handle("workspace.open", { path: workspace });
      if (!ws.ok) throw new Error(ws.error.message);
      const list = await workbench.handle("session.list", { workspaceId: (ws.result as { id: string }).id });
      if (!list.ok) throw new Error(list.error.message);
      const { sessions } = list.result as { sessions: Array<{ model: unknown; entryCount: number }> };
      expect(sessions[0]).toMatchObject({ model: { provider: "anthropic", id: "claude-sonnet-4-5" } });
      expect(sessions[0].entryCount).toBeGreaterThanOrEqual(7);
      await workbench.close();
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "with --approve none: the edit is refused with its reason, the model is told, and the file is unchanged",
    async () => {
      writeFileSync(join(workspace, "notes.md"), NOTES);
      faux.script([
        {
          type: "reply",
          content: [{ type: "toolCall", name: "edit", arguments: { path: "notes.md", edits: [{ oldText: "Friday", newText: "Sunday" }] } }],
        },
        { type: "reply", content: [{ type: "text", text: "I could not edit the file." }] },
      ]);
      const before = faux.requests.length;
      const run = await runAgent(["--approve", "none", "--continue", "Move the ship date to Sunday"]);
      expect(run.code).toBe(0);
      const entries = entriesOf(run);
      expect(entries.filter((e) => e.type === "approval")).toEqual([
        expect.objectContaining({ toolName: "edit", decision: "denied", decidedBy: "user", reason: NOT_APPROVED_REASON }),
      ]);
      expect(readFileSync(join(workspace, "notes.md"), "utf8")).toBe(NOTES);
      // The reason reached the model in the tool result of the next request.
      const next = faux.requests[before + 1];
      expect(JSON.stringify(next.body)).toContain("--approve none");
      expect(run.events.filter((e) => e.event === "tool.status").map((e) => e.payload.status)).toContain("denied");
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "with --approve none or read-only, saved allow rules run nothing; with --approve all they apply",
    async () => {
      const project = join(dir, "rules-project");
      mkdirSync(project);
      writeFileSync(join(project, "notes.md"), NOTES);
      // Saved for this workspace as the card's "Always allow" does.
      const workbench = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
      const ws = await workbench.handle("workspace.open", { path: project });
      if (!ws.ok) throw new Error(ws.error.message);
      const workspaceId = (ws.result as { id: string }).id;
      for (const [tool, pattern] of [
        ["edit", "notes.md"],
        ["bash", "touch *"],
      ] as const) {
        const added = await workbench.handle("rules.add", { workspaceId, tool, action: "allow", pattern });
        if (!added.ok) throw new Error(added.error.message);
      }
      await workbench.close();

      const script = () =>
        faux.script([
          {
            type: "reply",
            content: [
              { type: "toolCall", name: "edit", arguments: { path: "notes.md", edits: [{ oldText: "Friday", newText: "Sunday" }] } },
              { type: "toolCall", name: "bash", arguments: { command: "touch ran.txt" } },
            ],
          },
          { type: "reply", content: [{ type: "text", text: "done" }] },
        ]);
      for (const mode of ["none", "read-only"]) {
        script();
        const run = await runAgent(["--model", "anthropic/claude-sonnet-4-5", "--approve", mode, "change things"], project);
        expect(run.code).toBe(0);
        const decisions = entriesOf(run).filter((e) => e.type === "approval");
        expect(decisions.map((d) => [d.toolName, d.decision])).toEqual([
          ["edit", "denied"],
          ["bash", "denied"],
        ]);
        expect(readFileSync(join(project, "notes.md"), "utf8")).toBe(NOTES);
        expect(() => readFileSync(join(project, "ran.txt"))).toThrow();
      }
      script();
      const all = await runAgent(["--continue", "--approve", "all", "change things"], project);
      expect(all.code).toBe(0);
      const decisions = entriesOf(all).filter((e) => e.type === "approval");
      expect(decisions.map((d) => [d.toolName, d.decision, d.decidedBy])).toEqual([
        ["edit", "autoApproved", "policy"],
        ["bash", "autoApproved", "policy"],
      ]);
      expect(readFileSync(join(project, "notes.md"), "utf8")).toBe("# Notes\nship on Sunday\n");
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "exits non-zero with a clear line on bad usage",
    async () => {
      const before = await sessionCount();
      const run = await runAgent(["--model", "nope/none", "hello"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("unknown model nope/none");
      // --json: the error and the final result as events on stdout.
      expect(run.events.map((e) => e.event)).toEqual(["error", "result"]);
      expect(run.events[0].payload.message).toContain("unknown model nope/none");
      expect(run.events[1].payload).toMatchObject({ exitCode: 2, sessionId: null });
      // No empty session is left behind.
      expect(await sessionCount()).toBe(before);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  // Three CLI runs, each starting tsx, the core and an MCP server (56 s at load 10 on 2 cores).
  it(
    "starts no untrusted MCP server from the workspace's .mcp.json unless --trust-mcp says so, and says which",
    async () => {
      const project = join(dir, "mcp-project");
      mkdirSync(project);
      writeFileSync(
        join(project, ".mcp.json"),
        JSON.stringify({ mcpServers: { flaky: { command: process.execPath, args: [FLAKY_SERVER] } } }),
      );
      const offered = () => ((faux.requests.at(-1)?.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
      const reply = { type: "reply" as const, content: [{ type: "text" as const, text: "ok" }] };

      faux.script([reply]);
      const untrusted = await runAgent(["--model", "anthropic/claude-sonnet-4-5", "hello"], project);
      expect(untrusted.code).toBe(0);
      expect(untrusted.stderr).toContain("MCP: not starting flaky from .mcp.json (not trusted; trust in Settings or pass --trust-mcp)");
      expect(offered().some((n) => n.startsWith("mcp__"))).toBe(false);

      faux.script([reply]);
      const trusted = await runAgent(["--continue", "--trust-mcp", "hello again"], project);
      expect(trusted.code).toBe(0);
      expect(trusted.stderr).toContain(`MCP: trusted flaky (--trust-mcp): ${process.execPath} ${FLAKY_SERVER}`);
      expect(offered().some((n) => n.startsWith("mcp__flaky__"))).toBe(true);

      // Trust is stored like the Settings button's: the next run starts the server without the flag.
      faux.script([reply]);
      const again = await runAgent(["--continue", "hello once more"], project);
      expect(again.stderr).not.toContain("MCP:");
      expect(offered().some((n) => n.startsWith("mcp__flaky__"))).toBe(true);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "with --max-budget-usd 0.05 a model that never stops calling tools stops at the budget: one tool-less summary, a clear line, exit code 1",
    async () => {
      writeFileSync(join(workspace, "notes.md"), NOTES);
      let n = 0;
      const offeredTools: number[] = [];
      faux.setDefaultResponder((req) => {
        n++;
        offeredTools.push(req.tools.length);
        // Bounded, so a loop without a cap ends too (and the test fails on its checks, not its timeout).
        if (n > 60) return { type: "reply", content: [{ type: "text", text: "giving up" }] };
        if (req.tools.length === 0) return { type: "reply", content: [{ type: "text", text: "Stopped: read notes.md, nothing changed." }] };
        return { type: "reply", content: [{ type: "toolCall", id: `toolu_b${n}`, name: "read", arguments: { path: "notes.md" } }] };
      });
      try {
        const run = await runAgent(["--model", "anthropic/claude-sonnet-4-5", "--max-budget-usd", "0.05", "Read notes.md forever"]);
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/agent run stopped: this turn reached the cost limit of \$0\.05 \(\$0\.0\d+ spent\)/);
        // A handful of requests at about a cent each, then the one without tools.
        expect(n).toBeLessThan(15);
        expect(offeredTools.at(-1)).toBe(0);
        expect(offeredTools.slice(0, -1).every((t) => t > 0)).toBe(true);
        const answers = entriesOf(run).filter((e) => e.type === "message" && (e.message as { role: string }).role === "assistant");
        expect(answers.at(-1)?.message).toMatchObject({
          limit: { kind: "cost" },
          content: [{ type: "text", text: "Stopped: read notes.md, nothing changed." }],
        });
        // --json carries the context meter before every request.
        const meters = run.events.filter((e) => e.event === "context.meter");
        expect(meters.length).toBe(n);
        expect(meters[0].payload).toMatchObject({ window: 200_000, compactAt: 160_000, model: { id: "claude-sonnet-4-5" } });
        expect(meters[0].payload.tokens).toBeGreaterThan(0);
      } finally {
        faux.setDefaultResponder(null);
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "refuses a --max-budget-usd or --max-turns that is not a positive number (exit code 2)",
    async () => {
      const run = await runAgent(["--max-budget-usd", "lots", "--max-turns", "0", "hello"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--max-budget-usd must be a positive amount in USD (got lots)");
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
