/**
 * Handlers for MCP status and restart, @-mention file search, prompt
 * commands, Ask mode, `/compact` and the instruction files in effect.
 */
import type { RequestParams, RequestResult } from "../../../shared/api";
import { listPromptCommands } from "../commands/prompt-commands";
import type { CoreContext } from "./create-workbench";
import { NotFound, requireSession as findSession, requireWorkspace as findWorkspace } from "./lookups";
import { ApiFailure, type HandlerTable } from "./dispatch";

type P<M extends keyof HandlerTable> = RequestParams<M>;
type R<M extends keyof HandlerTable> = RequestResult<M>;

export type EcosystemMethod =
  "session.setMode" | "session.compact" | "session.instructions" | "files.search" | "commands.list" | "mcp.status" | "mcp.restart";

export function createEcosystemHandlers(ctx: CoreContext): Pick<HandlerTable, EcosystemMethod> {
  const { store, services } = ctx;
  const requireSession = (id: string) => findSession(store, id);
  const requireWorkspace = (id: string) => findWorkspace(store, id);
  const mcpStatus = (workspaceId: string): R<"mcp.status"> => {
    requireWorkspace(workspaceId);
    const status = services.mcpStatus(workspaceId);
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
    "session.instructions": async (p: P<"session.instructions">) => {
      requireSession(p.sessionId);
      return { files: await ctx.agent(p.sessionId).instructionFiles() };
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
      if (p.name === undefined) await mcp.reload();
      else if (!(await mcp.restart(p.name))) throw new NotFound(`no MCP server "${p.name}" in this workspace`);
      return mcpStatus(p.workspaceId);
    },
  };
}
