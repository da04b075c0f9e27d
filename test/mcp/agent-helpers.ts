/** The agent loop with a trusted MCP server from the workspace's `.mcp.json` (our flaky fixture), for the loop tests. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FauxProviderOptions, FauxReply, FauxRequest } from "../../electron/core/faux";
import type { EventPayload } from "../../shared/api";
import type { ModelRef } from "../../shared/protocol";
import { MODELS, startHarness, type Harness } from "../agent/harness";
import { FLAKY_SERVER } from "./helpers";

/** A server name with `.` and `/`: its tools' full names are not valid on any wire as they are. */
export const SERVER = "docs.site/v2";
const MCP_JSON = JSON.stringify({ mcpServers: { [SERVER]: { command: process.execPath, args: [FLAKY_SERVER], timeout: 5000 } } });

/** A harness whose workspace has `files` (the `.mcp.json` above unless they bring one), its servers trusted as Settings does. */
export async function startTrusted(
  files: Record<string, string>,
  model: ModelRef = MODELS.anthropic,
  faux?: FauxProviderOptions,
): Promise<{ harness: Harness; userDir: string }> {
  const userDir = mkdtempSync(join(tmpdir(), "awb-user-"));
  const harness = await startHarness({ files: { ".mcp.json": MCP_JSON, ...files }, model, workbench: { userConfigDir: userDir }, faux });
  // The workspace's .mcp.json starts nothing until trusted (mcp-trust.test.ts): trust what mcp.status shows.
  const { servers } = await harness.call("mcp.status", { workspaceId: harness.workspaceId });
  const trusted = servers.map(({ name, fingerprint }) => ({ name, fingerprint }));
  await harness.call("mcp.trust", { workspaceId: harness.workspaceId, trusted: true, servers: trusted });
  return { harness, userDir };
}

/** Approves, once, every call the session asks about (an MCP tool asks whatever its annotations say). */
export function approveEveryCall(harness: Harness): void {
  const answered = new Set<string>();
  harness.workbench.onEvent((event, payload) => {
    if (event !== "turn.state") return;
    const pending = (payload as EventPayload<"turn.state">).pendingApproval;
    if (!pending || answered.has(pending.toolCallId)) return;
    answered.add(pending.toolCallId);
    void harness.workbench.handle("approval.answer", { sessionId: pending.sessionId, toolCallId: pending.toolCallId, decision: "approve" });
  });
}

/** Calls the offered tool whose wire name ends with `suffix` (the faux provider sees wire names only). */
export function callTool(suffix: string, args: Record<string, unknown>, id = "call_1") {
  return (req: FauxRequest): FauxReply => {
    const tool = req.tools.find((t) => t.name.endsWith(suffix));
    if (!tool) throw new Error(`no offered tool ends with ${suffix}: ${req.tools.map((t) => t.name).join(", ")}`);
    return { type: "reply", content: [{ type: "toolCall", id, name: tool.name, arguments: args }] };
  };
}

export const say = (text: string): FauxReply => ({ type: "reply", content: [{ type: "text", text }] });
