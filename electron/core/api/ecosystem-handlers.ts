/**
 * Handlers for MCP status and restart, @-mention file search, prompt
 * commands, Ask mode, `/compact` and the instruction files in effect.
 */
import { loadHooks } from "../hooks/config";
import { HookTrust } from "../hooks/trust";
import type { RequestParams, RequestResult } from "../../../shared/api";
import { listPromptCommands } from "../commands/prompt-commands";
import type { CoreContext } from "./create-workbench";
import type { HandlerTable } from "./dispatch";
import { ApiFailure, NotFound, requireSession as findSession, requireWorkspace as findWorkspace } from "./errors";

type P<M extends keyof HandlerTable> = RequestParams<M>;
type R<M extends keyof HandlerTable> = RequestResult<M>;

export type EcosystemMethod =
  | "session.setMode"
  | "session.compact"
  | "session.answerCompaction"
  | "session.contextMeter"
  | "session.instructions"
  | "files.search"
  | "commands.list"
  | "mcp.status"
  | "mcp.restart"
  | "mcp.forgetTool"
  | "mcp.trust"
  | "hooks.status"
  | "hooks.trust";

export function createEcosystemHandlers(ctx: CoreContext): Pick<HandlerTable, EcosystemMethod> {
  const { store, services } = ctx;
  const requireSession = (id: string) => findSession(store, id);
  const requireWorkspace = (id: string) => findWorkspace(store, id);
  const hookTrust = new HookTrust(store);
  const mcpStatus = async (workspaceId: string): Promise<R<"mcp.status">> => {
    requireWorkspace(workspaceId);
    const status = await services.mcpStatus(workspaceId);
    if (!status) throw new NotFound(`no workspace ${workspaceId}`);
    return status;
  };

  return {
    "session.setMode": (p: P<"session.setMode">) => {
      requireSession(p.sessionId);
      const agent = ctx.agent(p.sessionId);
      agent.setMode(p.mode);
      return agent.turnState();
    },
    "session.compact": async (p: P<"session.compact">) => {
      requireSession(p.sessionId);
      const done = await ctx.agent(p.sessionId).compactNow();
      if (!done.ok) throw new ApiFailure("CONFLICT", done.error);
      return { ok: true as const };
    },
    "session.answerCompaction": (p: P<"session.answerCompaction">) => {
      requireSession(p.sessionId);
      if (!ctx.activeAgent(p.sessionId)?.answerCompaction(p.decision))
        throw new ApiFailure("CONFLICT", "no compaction is waiting for an answer");
      return { ok: true as const };
    },
    "session.contextMeter": (p: P<"session.contextMeter">) => {
      requireSession(p.sessionId);
      // Only a session the core holds already: opening a long session must not load its whole history for a meter.
      return ctx.activeAgent(p.sessionId)?.contextMeter() ?? null;
    },
    "session.instructions": async (p: P<"session.instructions">) => {
      requireSession(p.sessionId);
      return ctx.agent(p.sessionId).instructionFiles();
    },
    "files.search": async (p: P<"files.search">) => {
      requireWorkspace(p.workspaceId);
      const index = services.fileIndex(p.workspaceId);
      if (!index) throw new NotFound(`no workspace ${p.workspaceId}`);
      return index.search(p.query, p.limit);
    },
    "commands.list": (p: P<"commands.list">) => listPromptCommands(requireWorkspace(p.workspaceId).path, ctx.configDir),
    "mcp.status": (p: P<"mcp.status">) => mcpStatus(p.workspaceId),
    "mcp.restart": async (p: P<"mcp.restart">) => {
      requireWorkspace(p.workspaceId);
      const mcp = services.mcp(p.workspaceId);
      if (!mcp) throw new NotFound(`no workspace ${p.workspaceId}`);
      await mcp.configured();
      if (p.name !== undefined && mcp.status().servers.find((s) => s.name === p.name)?.state === "untrusted") {
        throw new ApiFailure("CONFLICT", `MCP server "${p.name}" comes from the workspace's .mcp.json and is not trusted: trust it first`);
      }
      if (p.name === undefined) await mcp.reload();
      else if (!(await mcp.restart(p.name))) throw new NotFound(`no MCP server "${p.name}" in this workspace`);
      return mcpStatus(p.workspaceId);
    },
    "mcp.forgetTool": async (p: P<"mcp.forgetTool">) => {
      requireWorkspace(p.workspaceId);
      if (!services.forgetMcpTool(p.workspaceId, p.tool)) throw new NotFound(`${p.tool} is not always allowed in this workspace`);
      return mcpStatus(p.workspaceId);
    },
    "hooks.status": async (p: P<"hooks.status">) => {
      const workspace = requireWorkspace(p.workspaceId);
      const loaded = await loadHooks({ workspaceRoot: workspace.path, userDir: ctx.configDir });
      const fingerprint = loaded.workspaceFingerprint;
      return {
        hooks: loaded.hooks,
        fingerprint,
        trusted: fingerprint !== null && hookTrust.trusted(workspace.id, fingerprint),
        problems: loaded.problems,
      };
    },
    "hooks.trust": async (p: P<"hooks.trust">) => {
      const workspace = requireWorkspace(p.workspaceId);
      const { workspaceFingerprint } = await loadHooks({ workspaceRoot: workspace.path, userDir: ctx.configDir });
      // Only what the user was shown: hooks changed since are not trusted by an old fingerprint.
      if (p.trusted && workspaceFingerprint !== p.fingerprint)
        throw new ApiFailure(
          "INVALID_REQUEST",
          "the workspace's hooks changed since they were shown: look at them again before trusting them",
        );
      hookTrust.set(workspace.id, p.trusted ? p.fingerprint : null);
      return { ok: true as const };
    },
    "mcp.trust": async (p: P<"mcp.trust">) => {
      const current = (await mcpStatus(p.workspaceId)).servers;
      for (const wanted of p.servers) {
        const server = current.find((s) => s.name === wanted.name);
        if (!server) throw new NotFound(`no MCP server "${wanted.name}" in this workspace`);
        if (server.source !== "workspace") {
          throw new ApiFailure("INVALID_REQUEST", `MCP server "${wanted.name}" is from your own mcp.json and needs no trust`);
        }
        if (server.fingerprint !== wanted.fingerprint) {
          throw new ApiFailure("CONFLICT", `the configuration of MCP server "${wanted.name}" changed since it was shown: review it again`);
        }
      }
      await services.setMcpTrust(p.workspaceId, p.servers, p.trusted);
      return mcpStatus(p.workspaceId);
    },
  };
}
