/**
 * Approving MCP tools through the whole core (docs/mcp-trust.md#approving-mcp-tools):
 * every MCP tool asks first, whatever its annotations say; "always allow"
 * saves it for the workspace, bound to what its server runs.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { MODELS, resultsOf, type Harness } from "../agent/harness";
import { SERVER, callTool, say, startTrusted } from "./agent-helpers";
import { FLAKY_SERVER } from "./helpers";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let h: Harness | null = null;
let userDir: string | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  if (userDir) rmSync(userDir, { recursive: true, force: true });
  userDir = null;
});

async function start(files: Record<string, string>): Promise<Harness> {
  const started = await startTrusted(files);
  userDir = started.userDir;
  return started.harness;
}

describe("approving MCP tools", () => {
  it(
    "a tool without readOnlyHint waits for approval with an MCP preview, then runs",
    async () => {
      h = await start({});
      h.faux.script([callTool("write_note", { text: "remember this" }, "call_note"), say("noted")]);
      const from = h.events.length;
      await h.call("chat.send", { sessionId: h.sessionId, text: "store a note" });
      const state = await h.waitFor("turn.state", (s) => s.status === "awaitingApproval", from);
      expect(state.pendingApproval).toMatchObject({
        toolName: `mcp__${SERVER}__write_note`,
        preview: { kind: "mcp", server: SERVER, tool: "write_note", readOnlyHint: false },
      });
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "call_note", decision: "approve" });
      await h.waitIdle(from);
      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      expect(resultsOf(entries)[0]).toMatchObject({ isError: false, details: { structuredContent: { stored: "remember this" } } });
      expect(entries.some((e) => e.entry.type === "approval" && e.entry.decision === "approved")).toBe(true);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a tool the server marks readOnlyHint is asked like any other: the hint is shown, never trusted",
    async () => {
      h = await start({});
      h.faux.script([callTool("ping", {}, "call_ping"), say("denied, fine")]);
      const from = h.events.length;
      await h.call("chat.send", { sessionId: h.sessionId, text: "ping" });
      // The first of asking and finishing: a tool run on the strength of its hint would finish without asking.
      const state = await h.waitFor("turn.state", (s) => s.status === "awaitingApproval" || s.status === "idle", from);
      expect(state.status).toBe("awaitingApproval");
      expect(state.pendingApproval).toMatchObject({
        toolName: `mcp__${SERVER}__ping`,
        preview: { kind: "mcp", tool: "ping", readOnlyHint: true },
      });
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "call_ping", decision: "deny", reason: "not now" });
      await h.waitIdle(from);
      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      expect(resultsOf(entries)[0]).toMatchObject({ isError: true, details: { errorCode: "DENIED" } });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    '"always allow" saves the tool for the workspace (other sessions too) until its server changes or the user forgets it',
    async () => {
      const script = `import ${JSON.stringify(pathToFileURL(FLAKY_SERVER).href)};\n`;
      h = await start({
        ".mcp.json": JSON.stringify({ mcpServers: { [SERVER]: { command: process.execPath, args: ["tools/server.mjs"] } } }),
        "tools/server.mjs": script,
      });
      const tool = `mcp__${SERVER}__ping`;
      const askedFor = async (sessionId: string, id: string): Promise<boolean> => {
        h?.faux.script([callTool("ping", {}, id), say("done")]);
        const from = h?.events.length ?? 0;
        await h?.call("chat.send", { sessionId, text: "ping" });
        const next = await h?.waitFor(
          "turn.state",
          (s) => s.sessionId === sessionId && (s.status === "awaitingApproval" || s.status === "idle"),
          from,
        );
        if (next?.status !== "awaitingApproval") return false;
        await h?.call("approval.answer", { sessionId, toolCallId: id, decision: "approve" });
        await h?.waitFor("stream.end", (p) => p.sessionId === sessionId, from);
        return true;
      };

      // A rule makes no sense for an MCP tool, and it cannot be denied always.
      h.faux.script([callTool("ping", {}, "call_a"), say("pong")]);
      let from = h.events.length;
      await h.call("chat.send", { sessionId: h.sessionId, text: "ping" });
      await h.waitFor("turn.state", (s) => s.status === "awaitingApproval", from);
      const withRule = await h.workbench.handle("approval.answer", {
        sessionId: h.sessionId,
        toolCallId: "call_a",
        decision: "approveAlways",
        rule: "*",
      });
      expect(withRule).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
      const denyAlways = await h.workbench.handle("approval.answer", {
        sessionId: h.sessionId,
        toolCallId: "call_a",
        decision: "denyAlways",
      });
      expect(denyAlways).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "call_a", decision: "approveAlways" });
      await h.waitIdle(from);
      expect((await h.call("mcp.status", { workspaceId: h.workspaceId })).servers[0].alwaysAllowed).toEqual([tool]);

      // The next call, and a call in another session of the workspace, run without asking.
      expect(await askedFor(h.sessionId, "call_b")).toBe(false);
      const other = await h.call("session.create", { workspaceId: h.workspaceId, model: MODELS.anthropic });
      expect(await askedFor(other.id, "call_c")).toBe(false);
      const { entries } = await h.call("session.load", { sessionId: other.id });
      expect(entries.find((e) => e.entry.type === "approval")?.entry).toMatchObject({ decision: "autoApproved", decidedBy: "policy" });

      // The server's code changes: trusted again after review, the tool is asked again.
      writeFileSync(join(h.workspace, "tools", "server.mjs"), `${script}// v2\n`);
      await h.call("mcp.restart", { workspaceId: h.workspaceId });
      const { servers } = await h.call("mcp.status", { workspaceId: h.workspaceId });
      await h.call("mcp.trust", {
        workspaceId: h.workspaceId,
        trusted: true,
        servers: servers.map(({ name, fingerprint }) => ({ name, fingerprint })),
      });
      expect((await h.call("mcp.status", { workspaceId: h.workspaceId })).servers[0].alwaysAllowed).toEqual([]);
      expect(await askedFor(h.sessionId, "call_d")).toBe(true);

      // Saved again, then forgotten in Settings: asked again.
      h.faux.script([callTool("ping", {}, "call_e"), say("pong")]);
      from = h.events.length;
      await h.call("chat.send", { sessionId: h.sessionId, text: "ping" });
      await h.waitFor("turn.state", (s) => s.status === "awaitingApproval", from);
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "call_e", decision: "approveAlways" });
      await h.waitIdle(from);
      const forgotten = await h.call("mcp.forgetTool", { workspaceId: h.workspaceId, tool });
      expect(forgotten.servers[0].alwaysAllowed).toEqual([]);
      expect(await askedFor(other.id, "call_f")).toBe(true);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
