/**
 * `npm run agent -- acp` as an ACP editor runs it: a child process on stdio,
 * driven by the official SDK's client side, on the app's core and database,
 * against the faux provider. initialize → session/new → model chosen through
 * a config option → a prompt whose turn reads and edits a file → the edit
 * asked through session/request_permission and answered → a second process
 * replays the stored session with session/load. A denial goes back to the
 * model with its reason and leaves the file as it was.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { ACP_DENIED_REASON } from "../../electron/core/acp/agent-server";
import { acpStdio } from "../../electron/core/acp/stdio";
import { startFauxProvider, type FauxProvider } from "../../electron/core/faux";
import { CLI_TEST_TIMEOUT_MS } from "../timeouts";

let faux: FauxProvider;
let dir: string;
let workspace: string;
let dbPath: string;
const NOTES = "# Notes\nship on Friday\n";
const MODEL = "anthropic/claude-sonnet-4-5";

beforeAll(async () => {
  faux = await startFauxProvider();
  dir = mkdtempSync(join(tmpdir(), "wb-acp-agent-"));
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

interface Editor {
  child: ChildProcess;
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  stderr: () => string;
}

/** Starts the agent as an editor would and connects the SDK's client to it; `answer` picks a permission option. */
async function withAgent<T>(
  answer: (req: acp.RequestPermissionRequest) => acp.RequestPermissionResponse,
  op: (ctx: acp.ClientContext, editor: Editor) => Promise<T>,
): Promise<T> {
  const child = spawn("npm", ["run", "--silent", "agent", "--", "acp", "--db", dbPath], {
    cwd: process.cwd(),
    env: { ...process.env, ANTHROPIC_API_KEY: "sk-ant-acp-test", AGENT_WORKBENCH_HOME: join(dir, "home") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const editor: Editor = { child, updates: [], permissions: [], stderr: () => stderr };
  const app = acp
    .client({ name: "test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      editor.updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      editor.permissions.push(params);
      return answer(params);
    });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  try {
    return await app.connectWith(acpStdio(child.stdin, child.stdout), (ctx) => op(ctx, editor));
  } finally {
    child.stdin.end();
    // Closing stdin ends the agent; it exits 0 once the core has closed its database.
    expect(await exited).toBe(0);
  }
}

const pick = (optionKind: acp.PermissionOptionKind) => (req: acp.RequestPermissionRequest) => {
  const option = req.options.find((o) => o.kind === optionKind);
  if (!option) throw new Error(`no ${optionKind} option`);
  return { outcome: { outcome: "selected" as const, optionId: option.optionId } };
};

const kinds = (updates: acp.SessionNotification[]) => updates.map((u) => u.update.sessionUpdate);
const textOf = (updates: acp.SessionNotification[], kind: "agent_message_chunk" | "user_message_chunk") =>
  updates
    .map((u) => u.update)
    .flatMap((u) => (u.sessionUpdate === kind && u.content.type === "text" ? [u.content.text] : []))
    .join("");

describe("npm run agent -- acp", () => {
  it(
    "initialize → new session → prompt with a read and an edit → permission asked and allowed → session/load replays it",
    async () => {
      writeFileSync(join(workspace, "notes.md"), NOTES);
      faux.reset();
      faux.script([
        { type: "reply", content: [{ type: "toolCall", name: "read", arguments: { path: "notes.md" } }] },
        {
          type: "reply",
          content: [{ type: "toolCall", name: "edit", arguments: { path: "notes.md", edits: [{ oldText: "Friday", newText: "Monday" }] } }],
        },
        { type: "reply", content: [{ type: "text", text: "Moved the ship date to Monday." }] },
      ]);

      const sessionId = await withAgent(pick("allow_once"), async (ctx, editor) => {
        const init = await ctx.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: {},
          clientInfo: { name: "test-editor", version: "1" },
        });
        expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
        expect(init.agentCapabilities?.loadSession).toBe(true);

        const created = await ctx.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
        expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["agent", "ask"]);
        const modelOption = created.configOptions?.find((o) => o.id === "model");
        expect(modelOption?.type === "select" && JSON.stringify(modelOption.options)).toContain(MODEL);
        const set = await ctx.request(acp.methods.agent.session.setConfigOption, {
          sessionId: created.sessionId,
          configId: "model",
          value: MODEL,
        });
        expect(set.configOptions.find((o) => o.id === "model")?.currentValue).toBe(MODEL);

        const res = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId: created.sessionId,
          prompt: [{ type: "text", text: "Move the ship date to Monday" }],
        });
        expect(res.stopReason).toBe("end_turn");

        // One permission request, for the edit, with its diff; the read ran without asking.
        expect(editor.permissions).toHaveLength(1);
        const asked = editor.permissions[0].toolCall;
        expect(asked.kind).toBe("edit");
        expect(asked.content).toEqual([
          expect.objectContaining({
            type: "diff",
            path: join(workspace, "notes.md"),
            oldText: NOTES,
            newText: "# Notes\nship on Monday\n",
          }),
        ]);
        const calls = editor.updates.flatMap((u) => (u.update.sessionUpdate === "tool_call" ? [u.update] : []));
        expect(calls.map((c) => c.kind)).toEqual(["read", "edit"]);
        expect(calls[0].locations).toEqual([{ path: join(workspace, "notes.md") }]);
        const finished = editor.updates.flatMap((u) =>
          u.update.sessionUpdate === "tool_call_update" && u.update.status ? [u.update.status] : [],
        );
        expect(finished.filter((s) => s === "completed")).toHaveLength(2);
        expect(textOf(editor.updates, "agent_message_chunk")).toBe("Moved the ship date to Monday.");
        return created.sessionId;
      });
      expect(readFileSync(join(workspace, "notes.md"), "utf8")).toBe("# Notes\nship on Monday\n");

      // A new process (an editor restarted) loads the stored session: the whole conversation is replayed.
      await withAgent(pick("reject_once"), async (ctx, editor) => {
        await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
        const listed = await ctx.request(acp.methods.agent.session.list, { cwd: workspace });
        expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
        const loaded = await ctx.request(acp.methods.agent.session.load, { sessionId, cwd: workspace, mcpServers: [] });
        expect(loaded.configOptions?.find((o) => o.id === "model")?.currentValue).toBe(MODEL);
        expect(textOf(editor.updates, "user_message_chunk")).toBe("Move the ship date to Monday");
        expect(textOf(editor.updates, "agent_message_chunk")).toBe("Moved the ship date to Monday.");
        expect(kinds(editor.updates).filter((k) => k === "tool_call")).toHaveLength(2);
        expect(editor.updates.every((u) => u.sessionId === sessionId)).toBe(true);
      });
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "a denied edit: the model reads the editor's refusal, the file is unchanged, the turn ends normally",
    async () => {
      writeFileSync(join(workspace, "notes.md"), NOTES);
      faux.reset();
      faux.script([
        {
          type: "reply",
          content: [{ type: "toolCall", name: "write", arguments: { path: "notes.md", content: "overwritten\n" } }],
        },
        { type: "reply", content: [{ type: "text", text: "Left it as it was." }] },
      ]);
      await withAgent(pick("reject_once"), async (ctx, editor) => {
        await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
        await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: MODEL });
        const res = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "Overwrite notes" }] });
        expect(res.stopReason).toBe("end_turn");
        expect(editor.permissions).toHaveLength(1);
        expect(editor.updates.some((u) => u.update.sessionUpdate === "tool_call_update" && u.update.status === "failed")).toBe(true);
      });
      expect(readFileSync(join(workspace, "notes.md"), "utf8")).toBe(NOTES);
      expect(JSON.stringify(faux.requests.at(-1)?.body)).toContain(ACP_DENIED_REASON);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "a refusal answers stopReason refusal; a failed request answers a JSON-RPC error with its message",
    async () => {
      faux.reset();
      faux.script([
        { type: "reply", content: [{ type: "text", text: "I will not." }], stopReason: "refusal" },
        { type: "http", status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "bad thing" } } },
      ]);
      await withAgent(pick("reject_once"), async (ctx) => {
        await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
        await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: MODEL });
        const refused = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "Do it" }] });
        expect(refused.stopReason).toBe("refusal");
        await expect(
          ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "Again" }] }),
        ).rejects.toThrow(/bad thing/);
      });
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    "bad input: an unknown session, an unknown model and garbage on stdin answer errors; the agent keeps serving",
    async () => {
      await withAgent(pick("reject_once"), async (ctx, editor) => {
        editor.child.stdin!.write("this is not json\n[1,2]\n");
        await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
        await expect(
          ctx.request(acp.methods.agent.session.prompt, { sessionId: "no-such-session", prompt: [{ type: "text", text: "hi" }] }),
        ).rejects.toThrow();
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
        await expect(
          ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "nope/none" }),
        ).rejects.toThrow(/unknown or unconfigured model/);
        await expect(ctx.request(acp.methods.agent.session.new, { cwd: join(dir, "missing"), mcpServers: [] })).rejects.toThrow();
        // Still serving.
        const again = await ctx.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
        expect(again.sessionId).not.toBe(sessionId);
      });
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
