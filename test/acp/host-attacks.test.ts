/**
 * The ACP host against a hostile agent (test/fixtures/acp/scripted-agent.ts, a
 * real process speaking ACP through the SDK): reads and writes outside the
 * workspace, a symlink out of it, a flood of updates, malformed JSON-RPC, a
 * secret in the host's environment, a process that dies mid-turn and a binary
 * that is not there. None may reach a file outside the workspace, leak a key
 * or throw into the core; each gets a clear answer.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AcpHostConnection, AcpHostError, MAX_UPDATES_PER_PROMPT, type AcpHostPorts } from "../../electron/core/acp/host-connection";
import { agentEnvironment, KNOWN_AGENTS } from "../../electron/core/acp/known-agents";
import { createToolRuntime } from "../../electron/core/tools";
import type { Proposal } from "../../electron/core/tools/types";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const FIXTURE = join(process.cwd(), "test/fixtures/acp/scripted-agent.ts");
const TSX = pathToFileURL(join(process.cwd(), "node_modules/tsx/dist/loader.mjs")).href;

let dir: string;
let workspace: string;
let outside: string;
const open: AcpHostConnection[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "wb-acp-host-"));
  workspace = join(dir, "project");
  outside = join(dir, "secret.txt");
  mkdirSync(workspace);
  writeFileSync(outside, "TOP SECRET\n");
  writeFileSync(join(workspace, "notes.md"), "hello\n");
  symlinkSync(outside, join(workspace, "innocent.md"));
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Harness {
  host: AcpHostConnection;
  texts: string[];
  asked: Proposal[];
  permissions: acp.RequestPermissionRequest[];
  exits: Array<{ code: number | null }>;
  sessionId: string;
  say(prompt: string): Promise<{ stop: acp.StopReason; text: string }>;
}

async function start(
  options: { approve?: boolean; hostEnv?: Record<string, string>; command?: string; permission?: string } = {},
): Promise<Harness> {
  const texts: string[] = [];
  const asked: Proposal[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const exits: Array<{ code: number | null }> = [];
  const ports: AcpHostPorts = {
    onUpdate: (n) => {
      if (n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text") texts.push(n.update.content.text);
    },
    requestPermission: (req) => {
      permissions.push(req);
      return Promise.resolve({ outcome: { outcome: "selected", optionId: options.permission ?? "no" } });
    },
    ask: (proposal) => {
      asked.push(proposal);
      return Promise.resolve(options.approve ? { approved: true } : { approved: false, reason: "denied by the test" });
    },
    onExit: (info) => exits.push(info),
  };
  const host = new AcpHostConnection(
    {
      label: "Scripted agent",
      command: options.command ?? process.execPath,
      args: ["--import", TSX, FIXTURE],
      cwd: workspace,
      env: agentEnvironment({ ...process.env, ...options.hostEnv }, null),
    },
    createToolRuntime({ workspaceRoot: workspace }),
    ports,
  );
  open.push(host);
  await host.start();
  const { sessionId } = await host.newSession();
  return {
    host,
    texts,
    asked,
    permissions,
    exits,
    sessionId,
    async say(prompt) {
      const before = texts.length;
      const res = await host.prompt(sessionId, [{ type: "text", text: prompt }]);
      return { stop: res.stopReason, text: texts.slice(before).join("") };
    },
  };
}

describe("ACP host against a hostile agent", () => {
  it(
    "fs/read_text_file: the workspace reads; an absolute path outside, a ../ climb and a symlink out are refused",
    async () => {
      const h = await start();
      expect((await h.say(`read ${join(workspace, "notes.md")}`)).text).toBe("content: hello\n");
      for (const path of [outside, join(workspace, "../secret.txt"), join(workspace, "innocent.md"), "/etc/passwd"]) {
        const { text } = await h.say(`read ${path}`);
        expect(text).toMatch(/^error: /);
        expect(text).not.toContain("TOP SECRET");
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "fs/write_text_file goes through our write tool: asked first, refused outside the workspace and through a symlink",
    async () => {
      const denied = await start({ approve: false });
      expect((await denied.say(`write ${join(workspace, "new.md")} hi`)).text).toMatch(/^error: .*denied by the test/);
      expect(denied.asked.map((p) => p.toolName)).toEqual(["write"]);
      expect(existsSync(join(workspace, "new.md"))).toBe(false);

      const approved = await start({ approve: true });
      expect((await approved.say(`write ${join(workspace, "new.md")} hi there`)).text).toBe("wrote");
      expect(readFileSync(join(workspace, "new.md"), "utf8")).toBe("hi there");
      expect(approved.asked[0]?.preview).toMatchObject({ kind: "diff", before: null, after: "hi there" });

      for (const path of [outside, join(workspace, "innocent.md"), join(workspace, "../escape.md")]) {
        expect((await approved.say(`write ${path} pwned`)).text).toMatch(/^error: /);
      }
      expect(readFileSync(outside, "utf8")).toBe("TOP SECRET\n");
      expect(existsSync(join(dir, "escape.md"))).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "terminal/* runs our bash tool: asked first; denied, nothing runs",
    async () => {
      const denied = await start({ approve: false });
      const marker = join(workspace, "ran.txt");
      expect((await denied.say(`run touch ${marker}`)).text).toMatch(/^exit 1: DENIED/);
      expect(denied.asked.map((p) => p.toolName)).toEqual(["bash"]);
      expect(existsSync(marker)).toBe(false);

      const approved = await start({ approve: true });
      expect((await approved.say("run echo hello")).text).toMatch(/^exit 0: hello/);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "session/request_permission goes to the host's card and its answer goes back",
    async () => {
      const h = await start({ permission: "yes" });
      expect((await h.say("ask")).text).toBe("outcome: yes");
      expect(h.permissions[0]?.toolCall.title).toBe("rm -rf build");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a flood of updates past the cap is dropped and counted; malformed JSON-RPC is ignored; the host keeps serving",
    async () => {
      const h = await start();
      const flood = await h.say(`flood ${MAX_UPDATES_PER_PROMPT + 5000}`);
      expect(flood.stop).toBe("end_turn");
      expect(h.texts.length).toBeLessThanOrEqual(MAX_UPDATES_PER_PROMPT);
      expect(h.host.dropped).toBeGreaterThan(0);
      expect((await h.say("garbage")).text).toBe("after garbage");
      expect((await h.say("still there")).text).toBe("echo still there");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "the agent's environment: allow-listed variables only; another provider's key never reaches it, its own configured one does",
    async () => {
      const hostEnv = { ANTHROPIC_API_KEY: "sk-ant-leak", OPENAI_API_KEY: "sk-leak", GITHUB_TOKEN: "ghp_leak", MY_SECRET: "x" };
      const h = await start({ hostEnv });
      const names = (await h.say("env")).text.split(",");
      for (const name of Object.keys(hostEnv)) expect(names).not.toContain(name);
      expect(names).toContain("PATH");

      const claude = KNOWN_AGENTS.find((a) => a.id === "claude-code")!;
      const env = agentEnvironment({ ...process.env, ...hostEnv }, claude, { apiKey: "sk-ant-configured", baseUrl: "http://127.0.0.1:1" });
      expect(env.ANTHROPIC_API_KEY).toBe("sk-ant-configured");
      expect(env.ANTHROPIC_BASE_URL).toBe("http://127.0.0.1:1");
      expect(env.OPENAI_API_KEY).toBeUndefined();
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "the process dies mid-turn: the prompt rejects with EXITED naming the exit code, the host is told; cancel ends a hung turn",
    async () => {
      const hung = await start();
      const turn = hung.host.prompt(hung.sessionId, [{ type: "text", text: "hang" }]);
      await new Promise((r) => setTimeout(r, 200));
      await hung.host.cancel(hung.sessionId);
      expect((await turn).stopReason).toBe("cancelled");

      const h = await start();
      const err = await h.say("die").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AcpHostError);
      expect((err as AcpHostError).code).toBe("EXITED");
      expect((err as AcpHostError).message).toMatch(/exited with code 3/);
      expect(h.exits).toEqual([expect.objectContaining({ code: 3 })]);
      expect(h.host.alive).toBe(false);
      await expect(h.host.prompt(h.sessionId, [{ type: "text", text: "hi" }])).rejects.toMatchObject({ code: "EXITED" });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it("a missing binary: MISSING_BINARY that names the command", async () => {
    const err = await start({ command: "definitely-not-an-acp-agent-xyz" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AcpHostError);
    expect(err).toMatchObject({ code: "MISSING_BINARY", message: expect.stringContaining("definitely-not-an-acp-agent-xyz") });
  });
});
