/**
 * Our agent as an ACP agent (docs/acp.md#acp-agent): an `AgentApp` from the
 * official SDK whose handlers drive the same `Workbench` the app and the web
 * host serve. So a session an ACP editor runs is one of ours: the loop, the
 * tools and their policy, the providers, the store (replay, export, fork).
 *
 * Contract: a failed request answers a JSON-RPC error with our typed message;
 * nothing here throws into the connection. Each side effect our policy asks
 * about becomes one `session/request_permission`; a client that cannot be
 * asked (closed connection, cancelled request) denies it.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { EventPayload, ModelOption, PendingApproval, RequestMethod, RequestParams, RequestResult } from "../../../shared/api";
import type { AssistantMessage, SessionEntry } from "../../../shared/protocol";
import type { Workbench } from "../api/workbench";
import { configOptions, entryUpdates, MODES, previewContent, refOf, toolKind, toolLocations, toolTitle } from "./agent-updates";

export const ACP_DENIED_REASON = "The user declined this in their editor (ACP permission request).";
export const ACP_UNANSWERED_REASON = "The editor did not answer the permission request, so nothing was run.";

export interface AcpAgentOptions {
  name: string;
  version: string;
}

/** A prompt turn in flight on one of our sessions. */
interface Live {
  workspaceRoot: string;
  /** Characters of each text/thinking block of the streaming message already sent as chunks. */
  sent: Map<number, number>;
  asked: Set<string>;
  last: AssistantMessage | null;
  error: string | null;
  end: () => void;
}

function problem(e: unknown): acp.RequestError {
  if (e instanceof acp.RequestError) return e;
  return acp.RequestError.internalError(undefined, e instanceof Error ? e.message : String(e));
}

export function createAcpAgent(workbench: Workbench, options: AcpAgentOptions): acp.AgentApp {
  const call = async <M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> => {
    const res = await workbench.handle(method, params);
    if (!res.ok) {
      const code = res.error.code === "NOT_FOUND" ? -32002 : res.error.code === "INVALID_REQUEST" ? -32602 : -32603;
      throw new acp.RequestError(code, res.error.message);
    }
    return res.result as RequestResult<M>;
  };

  const live = new Map<string, Live>();
  const roots = new Map<string, string>();
  let client: acp.AgentContext | null = null;
  // Updates go out in the order the core emitted them: one chain per connection.
  let chain: Promise<unknown> = Promise.resolve();
  const send = (sessionId: string, update: acp.SessionUpdate): void => {
    const c = client;
    if (!c) return;
    chain = chain.then(() => c.notify(acp.methods.client.session.update, { sessionId, update })).catch(() => undefined);
  };

  const models = (): Promise<ModelOption[]> => call("models.list", {});

  async function rootOf(sessionId: string, workspaceId: string): Promise<string> {
    const known = roots.get(sessionId);
    if (known) return known;
    const recent = await call("workspace.recent", {});
    const root = recent.find((w) => w.id === workspaceId)?.path ?? "";
    roots.set(sessionId, root);
    return root;
  }

  async function sessionState(sessionId: string) {
    const loaded = await call("session.load", { sessionId, tail: 1 });
    const s = loaded.session;
    return {
      modes: { currentModeId: loaded.turn.mode, availableModes: MODES },
      configOptions: configOptions(await models(), s.model, s.reasoning),
    };
  }

  async function ask(sessionId: string, pending: PendingApproval, turn: Live): Promise<void> {
    const options: acp.PermissionOption[] = [
      { optionId: "allow_once", name: "Allow", kind: "allow_once" },
      ...(pending.suggestedRules?.[0]
        ? [{ optionId: "allow_session", name: `Allow for this session: ${pending.suggestedRules[0]}`, kind: "allow_always" as const }]
        : []),
      { optionId: "reject_once", name: "Deny", kind: "reject_once" },
    ];
    let decision: RequestParams<"approval.answer">;
    const base = { sessionId: pending.sessionId, toolCallId: pending.toolCallId };
    try {
      const c = client;
      if (!c) throw new Error("no client");
      await chain;
      const res = await c.request(acp.methods.client.session.requestPermission, {
        sessionId,
        toolCall: {
          toolCallId: pending.toolCallId,
          title: toolTitle(pending.toolName, pending.args),
          kind: toolKind(pending.toolName),
          status: "pending",
          rawInput: pending.args,
          content: previewContent(pending.preview, turn.workspaceRoot),
          locations: toolLocations(pending.args, turn.workspaceRoot),
        },
        options,
      });
      const picked = res.outcome.outcome === "selected" ? res.outcome.optionId : null;
      if (picked === "allow_once") decision = { ...base, decision: "approve" };
      else if (picked === "allow_session") decision = { ...base, decision: "approveForSession", rule: pending.suggestedRules![0] };
      else decision = { ...base, decision: "deny", reason: ACP_DENIED_REASON };
    } catch {
      decision = { ...base, decision: "deny", reason: ACP_UNANSWERED_REASON };
    }
    // The turn may have been cancelled meanwhile: then there is nothing left to answer.
    await workbench.handle("approval.answer", decision);
  }

  function onCoreEvent(event: string, payload: unknown): void {
    if (event === "stream.partial") {
      const { sessionId, message } = payload as EventPayload<"stream.partial">;
      const turn = live.get(sessionId);
      if (turn) sendDeltas(sessionId, turn, message);
    } else if (event === "session.entry") {
      const { sessionId, entry } = payload as EventPayload<"session.entry">;
      const turn = live.get(sessionId);
      if (turn) onEntry(sessionId, turn, entry);
    } else if (event === "tool.status") {
      const s = payload as EventPayload<"tool.status">;
      if (live.has(s.sessionId) && s.status === "running") {
        send(s.sessionId, { sessionUpdate: "tool_call_update", toolCallId: s.toolCallId, status: "in_progress" });
      }
    } else if (event === "turn.state") {
      const state = payload as EventPayload<"turn.state">;
      const turn = live.get(state.sessionId);
      const pending = state.pendingApproval;
      if (!turn || !pending) return;
      const key = `${pending.sessionId}\u0000${pending.toolCallId}`;
      if (turn.asked.has(key)) return;
      turn.asked.add(key);
      void ask(state.sessionId, pending, turn);
    } else if (event === "turn.error") {
      const { sessionId, message } = payload as EventPayload<"turn.error">;
      const turn = live.get(sessionId);
      if (turn) turn.error = message;
    } else if (event === "stream.end") {
      const { sessionId } = payload as EventPayload<"stream.end">;
      live.get(sessionId)?.end();
    }
  }

  function sendDeltas(sessionId: string, turn: Live, message: AssistantMessage): void {
    message.content.forEach((block, i) => {
      if (block.type !== "text" && block.type !== "thinking") return;
      const text = block.type === "text" ? block.text : block.thinking;
      const done = turn.sent.get(i) ?? 0;
      if (text.length <= done) return;
      turn.sent.set(i, text.length);
      const content: acp.ContentBlock = { type: "text", text: text.slice(done) };
      send(
        sessionId,
        block.type === "text" ? { sessionUpdate: "agent_message_chunk", content } : { sessionUpdate: "agent_thought_chunk", content },
      );
    });
  }

  function onEntry(sessionId: string, turn: Live, entry: SessionEntry): void {
    if (entry.type === "message" && entry.message.role === "user") return; // the client sent it
    if (entry.type === "message" && entry.message.role === "assistant") {
      sendDeltas(sessionId, turn, entry.message);
      turn.sent.clear();
      turn.last = entry.message;
    }
    for (const update of entryUpdates(entry, turn.workspaceRoot, true)) send(sessionId, update);
  }

  function promptText(blocks: readonly acp.ContentBlock[]): {
    text: string;
    images: Array<{ type: "image"; data: string; mimeType: string }>;
  } {
    const parts: string[] = [];
    const images: Array<{ type: "image"; data: string; mimeType: string }> = [];
    for (const b of blocks) {
      if (b.type === "text") parts.push(b.text);
      else if (b.type === "image") images.push({ type: "image", data: b.data, mimeType: b.mimeType });
      else if (b.type === "resource_link") parts.push(`[${b.name}](${b.uri})`);
      else if (b.type === "resource" && "text" in b.resource)
        parts.push(`<context uri="${b.resource.uri}">\n${b.resource.text}\n</context>`);
    }
    return { text: parts.join("\n\n"), images };
  }

  const stopReasonOf = (m: AssistantMessage | null): acp.StopReason => {
    if (!m) return "end_turn";
    if (m.stopReason === "aborted") return "cancelled";
    if (m.limit) return "max_turn_requests";
    if (m.stopReason === "length") return "max_tokens";
    return "end_turn";
  };

  const app = acp.agent({ name: options.name });
  app.onConnect((connection) => {
    client = connection.client;
    const off = workbench.onEvent(onCoreEvent);
    void connection.closed.finally(() => {
      off();
      client = null;
      // An editor that went away leaves no turn running on its behalf.
      for (const id of live.keys()) void workbench.handle("chat.abort", { sessionId: id });
    });
  });

  app.onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      sessionCapabilities: { list: {} },
    },
    agentInfo: { name: options.name, title: "Agent Workbench", version: options.version },
    authMethods: [],
  }));

  app.onRequest(acp.methods.agent.session.new, async ({ params }) => {
    try {
      const workspace = await call("workspace.open", { path: params.cwd });
      const session = await call("session.create", { workspaceId: workspace.id });
      roots.set(session.id, workspace.path);
      return { sessionId: session.id, ...(await sessionState(session.id)) };
    } catch (e) {
      throw problem(e);
    }
  });

  app.onRequest(acp.methods.agent.session.load, async ({ params }) => {
    try {
      const loaded = await call("session.load", { sessionId: params.sessionId });
      const root = await rootOf(params.sessionId, loaded.session.workspaceId);
      for (const { entry } of loaded.entries) for (const update of entryUpdates(entry, root)) send(params.sessionId, update);
      await chain;
      return {
        modes: { currentModeId: loaded.turn.mode, availableModes: MODES },
        configOptions: configOptions(await models(), loaded.session.model, loaded.session.reasoning),
      };
    } catch (e) {
      throw problem(e);
    }
  });

  app.onRequest(acp.methods.agent.session.list, async ({ params }) => {
    try {
      if (!params.cwd) return { sessions: [] };
      const workspace = await call("workspace.open", { path: params.cwd });
      const { sessions } = await call("session.list", { workspaceId: workspace.id, limit: 100 });
      return {
        sessions: sessions.map((s) => ({
          sessionId: s.id,
          cwd: workspace.path,
          title: s.title,
          updatedAt: new Date(s.updatedAt).toISOString(),
        })),
      };
    } catch (e) {
      throw problem(e);
    }
  });

  app.onRequest(acp.methods.agent.session.setMode, async ({ params }) => {
    if (params.modeId !== "agent" && params.modeId !== "ask")
      throw acp.RequestError.invalidParams(undefined, `unknown mode ${params.modeId}`);
    try {
      await call("session.setMode", { sessionId: params.sessionId, mode: params.modeId });
    } catch (e) {
      throw problem(e);
    }
  });

  app.onRequest(acp.methods.agent.session.setConfigOption, async ({ params }) => {
    try {
      const value = String(params.value);
      if (params.configId === "model") {
        const pick = (await models()).find((m) => refOf(m) === value && m.configured);
        if (!pick) throw acp.RequestError.invalidParams(undefined, `unknown or unconfigured model ${value}`);
        await call("chat.switchModel", { sessionId: params.sessionId, model: { provider: pick.provider, api: pick.api, id: pick.id } });
      } else if (params.configId === "reasoning") {
        const level = ["default", "off", "low", "medium", "high"].find((l) => l === value);
        if (!level) throw acp.RequestError.invalidParams(undefined, `unknown reasoning level ${value}`);
        await call("chat.setReasoning", { sessionId: params.sessionId, level: level as RequestParams<"chat.setReasoning">["level"] });
      } else {
        throw acp.RequestError.invalidParams(undefined, `unknown config option ${params.configId}`);
      }
      return { configOptions: (await sessionState(params.sessionId)).configOptions };
    } catch (e) {
      throw problem(e);
    }
  });

  app.onRequest(acp.methods.agent.session.prompt, async ({ params }) => {
    const { sessionId } = params;
    if (live.has(sessionId)) throw acp.RequestError.invalidRequest(undefined, "a prompt is already running in this session");
    try {
      const loaded = await call("session.load", { sessionId, tail: 1 });
      const { text, images } = promptText(params.prompt);
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      const turn: Live = {
        workspaceRoot: await rootOf(sessionId, loaded.session.workspaceId),
        sent: new Map(),
        asked: new Set(),
        last: null,
        error: null,
        end,
      };
      live.set(sessionId, turn);
      try {
        await call("chat.send", { sessionId, text, ...(images.length > 0 ? { images } : {}) });
        await ended;
        await chain;
      } finally {
        live.delete(sessionId);
      }
      // A refusal ends the turn as an error in our transcript; ACP has its own stop reason for it.
      if (turn.last?.stopReason === "error" && turn.last.errorMessage?.startsWith("refusal")) return { stopReason: "refusal" as const };
      if (turn.last?.stopReason === "error" || (turn.error !== null && turn.last?.stopReason !== "aborted")) {
        throw acp.RequestError.internalError(undefined, turn.error ?? turn.last?.errorMessage ?? "the turn failed");
      }
      return { stopReason: stopReasonOf(turn.last) };
    } catch (e) {
      throw problem(e);
    }
  });

  app.onNotification(acp.methods.agent.session.cancel, async ({ params }) => {
    await workbench.handle("chat.abort", { sessionId: params.sessionId });
  });

  return app;
}
