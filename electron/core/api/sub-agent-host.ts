/**
 * The core side of sub-agents (docs/sub-agents.md#sub-agents): stores a
 * child's session and announces it, starts its agent with deps derived from
 * the parent's, and registers it while its task runs so that approvals, Stop
 * and loading its session reach it through the API.
 */
import type { SkillTools } from "../skills/skill-tool";
import type { EventName, EventPayload, SubAgentSettings } from "../../../shared/api";
import type { ModelRef } from "../../../shared/protocol";
import type { AgentDeps, ResolvedModel } from "../agent/ports";
import { SessionAgent } from "../agent/session-agent";
import { taskCapsAt, type SubAgentHost } from "../agent/sub-agent";
import { agentToolSpecs } from "../tools/agent-tools";
import type { ToolSpec } from "../tools/types";
import type { SessionStore } from "../store";

export interface SubAgentHostOptions {
  store: SessionStore;
  settings(): SubAgentSettings;
  resolveModel(ref: ModelRef): ResolvedModel | { error: string };
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** The deps of an agent for this session (the same builder as a top-level session's). */
  depsFor(sessionId: string, tools: AgentDeps["tools"], subAgents: AgentDeps["subAgents"]): AgentDeps;
  /** The API's agents by session. */
  agents: Map<string, SessionAgent>;
  skills?: SkillTools;
}

export function createSubAgentHost(options: SubAgentHostOptions): SubAgentHost {
  const { store, agents } = options;
  const emit: SubAgentHostOptions["emit"] = (event, payload) => options.emit(event, payload);
  return {
    settings: () => options.settings(),
    ...(options.skills ? { skills: options.skills } : {}),
    modelProblem: (ref) => {
      const resolved = options.resolveModel(ref);
      return "error" in resolved ? resolved.error : null;
    },
    createSession: (input) => {
      const session = store.createSubAgentSession(input);
      emit("session.updated", session);
      return session;
    },
    startChild: ({ session, mode, tools, subAgents, onState }) => {
      const base = options.depsFor(session.id, tools, subAgents);
      const deps: AgentDeps = {
        ...base,
        // The parent's turn already waited for tool sources.
        prepareTools: undefined,
        emit: (event, payload) => {
          base.emit(event, payload);
          // The parent's turn shows the child's approvals: announce it again when the child's state changes.
          if (event === "turn.state") onState();
        },
      };
      const agent = new SessionAgent(deps, session.id, session.model, session.reasoning, mode);
      agents.set(session.id, agent);
      return agent;
    },
    release: (sessionId) => {
      const agent = agents.get(sessionId);
      if (agent && agent.turnState().status === "idle") agents.delete(sessionId);
    },
    loadEntries: (sessionId) => store.loadEntries(sessionId),
  };
}

/** How many sub-agent levels below a main agent a session's agent works (0: a session of its own). */
export function subAgentDepth(store: Pick<SessionStore, "getSession">, sessionId: string): number {
  let depth = 0;
  for (let s = store.getSession(sessionId); s?.parentToolCallId && s.parentSessionId && depth < 10; s = store.getSession(s.parentSessionId))
    depth++;
  return depth;
}

/**
 * The tools a session's agent was offered, for "what the model saw": the
 * session's tools (`specs`) with the agent's own by its depth, and for a
 * read-only sub-agent without the side-effect ones (agent/agent-tools.ts).
 */
export function offeredToolSpecs(
  store: Pick<SessionStore, "getSession">,
  sessionId: string,
  settings: SubAgentSettings,
  specs: readonly ToolSpec[],
  isSideEffect: (name: string) => boolean,
): ToolSpec[] {
  const depth = subAgentDepth(store, sessionId);
  const readOnly = depth > 0 && !settings.sideEffects;
  return [...specs.filter((s) => !readOnly || !isSideEffect(s.name)), ...agentToolSpecs(taskCapsAt(settings, depth))];
}
