/**
 * The ACP host with real agents from npm (pinned; installed on first run into
 * a cache outside the repo, ~/.cache/agent-workbench-acp-agents or
 * $AGENT_WORKBENCH_ACP_AGENTS), each pointed at the faux provider through its
 * documented base-URL variable with a dummy key.
 *
 * Claude Code (@zed-industries/claude-agent-acp): a turn that reads, edits
 * (asked through session/request_permission with its diff) and runs a command;
 * then the process is killed mid-turn: the prompt fails with EXITED and a new
 * process resumes the session with session/load.
 * Gemini CLI (@google/gemini-cli --acp): initialize (its auth methods), a
 * session and a prompt answered through the faux Gemini route.
 * An agent that cannot be installed here is skipped with the reason.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AcpHostConnection, type AcpHostPorts } from "../../electron/core/acp/host-connection";
import { agentEnvironment, KNOWN_AGENTS } from "../../electron/core/acp/known-agents";
import { startFauxProvider, type FauxProvider, type FauxReply } from "../../electron/core/faux";
import { createToolRuntime } from "../../electron/core/tools";
import { CLI_TEST_TIMEOUT_MS } from "../timeouts";

const CACHE = process.env.AGENT_WORKBENCH_ACP_AGENTS ?? join(homedir(), ".cache", "agent-workbench-acp-agents");
const PINNED = {
  claude: { pkg: "@zed-industries/claude-agent-acp", version: "0.23.1", bin: "claude-agent-acp" },
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
} as const;

/** The agent's binary, installed into the cache when missing; a string: why it cannot run here. */
function install(which: keyof typeof PINNED): { bin: string } | string {
  const { pkg, version, bin } = PINNED[which];
  const prefix = join(CACHE, `${pkg.replace("/", "+")}@${version}`);
  const path = join(prefix, "node_modules", ".bin", bin);
  if (existsSync(path)) return { bin: path };
  try {
    mkdirSync(prefix, { recursive: true });
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", "--prefix", prefix, `${pkg}@${version}`], {
      stdio: "pipe",
      timeout: 600_000,
    });
  } catch (e) {
    return `${pkg}@${version} could not be installed from npm here: ${String(e).slice(0, 200)}`;
  }
  return existsSync(path) ? { bin: path } : `${pkg}@${version} installed no ${bin} binary for ${process.platform}-${process.arch}`;
}

let faux: FauxProvider;
let dir: string;
let workspace: string;
let home: string;
const open: AcpHostConnection[] = [];

beforeAll(async () => {
  faux = await startFauxProvider();
  dir = mkdtempSync(join(tmpdir(), "wb-acp-real-"));
  workspace = join(dir, "project");
  home = join(dir, "home");
  mkdirSync(workspace);
  mkdirSync(home);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  faux.reset();
  faux.setDefaultResponder(null);
});
afterAll(async () => {
  await faux.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Seen {
  updates: acp.SessionUpdate[];
  permissions: acp.RequestPermissionRequest[];
}

function connect(agentId: string, bin: string, baseUrl: string, apiKey: string, seen: Seen): AcpHostConnection {
  const agent = KNOWN_AGENTS.find((a) => a.id === agentId)!;
  const ports: AcpHostPorts = {
    onUpdate: (n) => seen.updates.push(n.update),
    requestPermission: (req) => {
      seen.permissions.push(req);
      const allow = req.options.find((o) => o.kind === "allow_once") ?? req.options[0];
      return Promise.resolve({ outcome: { outcome: "selected", optionId: allow.optionId } });
    },
    ask: () => Promise.resolve({ approved: true }),
  };
  // The host's own environment may hold real keys: only the dummy key configured for this agent goes in.
  const env = agentEnvironment({ ...process.env, HOME: home, OPENAI_API_KEY: "sk-must-not-leak" }, agent, { apiKey, baseUrl });
  const host = new AcpHostConnection(
    { label: agent.label, command: bin, args: agent.args, cwd: workspace, env },
    createToolRuntime({ workspaceRoot: workspace }),
    ports,
  );
  open.push(host);
  return host;
}

/** Claude Code asks with adaptive thinking: each tool step carries a thinking block, as the real API's would. */
const step = (name: string, args: Record<string, unknown>): FauxReply => ({
  type: "reply",
  content: [
    { type: "thinking", thinking: "Next step." },
    { type: "toolCall", name, arguments: args },
  ],
});

const claude = install("claude");
describe.skipIf(typeof claude === "string")(`Claude Code through ${PINNED.claude.pkg}@${PINNED.claude.version}`, () => {
  const bin = typeof claude === "string" ? "" : claude.bin;

  it(
    "reads, edits after our permission card, runs a command; killed mid-turn it fails with EXITED and resumes with session/load",
    async () => {
      const notes = join(workspace, "notes.md");
      writeFileSync(notes, "ship on Friday\n");
      const steps = [
        step("Read", { file_path: notes }),
        step("Edit", { file_path: notes, old_string: "Friday", new_string: "Monday" }),
        step("Bash", { command: "cat notes.md", description: "Show the notes" }),
      ];
      // Side requests (titles, summaries) come without tools: answered in text.
      faux.setDefaultResponder((req) => {
        const tools = (req.body as { tools?: unknown[] }).tools;
        if (!tools || tools.length === 0) return { type: "reply", content: [{ type: "text", text: "Notes" }] };
        return steps.shift() ?? { type: "reply", content: [{ type: "text", text: "Moved to Monday." }] };
      });
      const seen: Seen = { updates: [], permissions: [] };
      const host = connect("claude-code", bin, faux.baseUrls.anthropic, "sk-ant-dummy", seen);
      const init = await host.start();
      expect(init.agentCapabilities?.loadSession).toBe(true);
      const { sessionId } = await host.newSession();
      const res = await host.prompt(sessionId, [{ type: "text", text: "Move the ship date to Monday and show the file" }]);
      expect(res.stopReason).toBe("end_turn");

      const calls = seen.updates.flatMap((u) => (u.sessionUpdate === "tool_call" ? [u] : []));
      expect(calls.map((c) => c.kind)).toEqual(["read", "edit", "execute"]);
      expect(seen.permissions.map((p) => p.toolCall.kind)).toContain("edit");
      const asked = seen.permissions.find((p) => p.toolCall.kind === "edit")!;
      expect(asked.toolCall.content).toEqual([
        expect.objectContaining({ type: "diff", path: notes, oldText: "Friday", newText: "Monday" }),
      ]);
      expect(readFileSync(notes, "utf8")).toBe("ship on Monday\n");
      const outputs = JSON.stringify(seen.updates.filter((u) => u.sessionUpdate === "tool_call_update"));
      expect(outputs).toContain("ship on Monday");
      expect(faux.requests.every((r) => r.accepted)).toBe(true);
      expect(faux.requests.every((r) => r.headers["x-api-key"] === "sk-ant-dummy")).toBe(true);

      // Mid-turn: the model's answer hangs, the process is killed.
      faux.setDefaultResponder(() => ({
        type: "reply",
        content: [{ type: "text", text: "thinking about it for a long time" }],
        hangAfterEvents: 2,
      }));
      const turn = host.prompt(sessionId, [{ type: "text", text: "Now something slow" }]);
      await faux.waitForRequests(faux.requests.length + 1);
      await host.close(0);
      await expect(turn).rejects.toMatchObject({ code: "EXITED" });

      const again = connect("claude-code", bin, faux.baseUrls.anthropic, "sk-ant-dummy", { updates: [], permissions: [] });
      await again.start();
      await expect(again.loadSession(sessionId)).resolves.toBeDefined();
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
if (typeof claude === "string") it.skip(`Claude Code: ${claude}`, () => undefined);

const gemini = install("gemini");
describe.skipIf(typeof gemini === "string")(`Gemini CLI ${PINNED.gemini.version} --acp`, () => {
  const bin = typeof gemini === "string" ? "" : gemini.bin;

  it(
    "initializes, opens a session and answers a prompt through the faux Gemini route with the key configured for it",
    async () => {
      faux.setDefaultResponder(() => ({ type: "reply", content: [{ type: "text", text: "Hello from the faux Gemini." }] }));
      const seen: Seen = { updates: [], permissions: [] };
      const host = connect("gemini", bin, faux.baseUrls.gemini, "dummy-gemini-key", seen);
      const init = await host.start();
      expect(init.authMethods?.map((m) => m.id)).toContain("gemini-api-key");
      const { sessionId } = await host.newSession();
      const res = await host.prompt(sessionId, [{ type: "text", text: "Say hello" }]);
      expect(res.stopReason).toBe("end_turn");
      const text = seen.updates.flatMap((u) =>
        u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : [],
      );
      expect(text.join("")).toContain("Hello from the faux Gemini.");
      expect(faux.requests.length).toBeGreaterThan(0);
      expect(faux.requests.every((r) => r.accepted && r.route === "gemini")).toBe(true);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
if (typeof gemini === "string") it.skip(`Gemini CLI: ${gemini}`, () => undefined);
