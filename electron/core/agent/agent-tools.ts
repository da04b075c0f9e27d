/**
 * The tool ports an agent is given (docs/sub-agents.md):
 * - `withAgentTools` adds the agent's own tools to a port: `todo` (answered
 *   here, the plan lives in the stored calls) and `task` (a sub-agent). Both
 *   are read-only for the loop: they run in the batch's first, parallel part,
 *   need no approval, and are stored and audited like any call.
 * - `childToolPort` is what a sub-agent gets: a view on its root session's
 *   runtime, so policy, session rules, sandbox and the per-turn tool budget
 *   are the parent's; read-only unless the settings say otherwise; its turns
 *   never reset the parent's budget.
 */
import { TODO_TOOL } from "../../../shared/todo";
import type { SkillTools } from "../skills/skill-tool";
import { AGENT_TOOL_NAMES, agentToolSpecs, runTodo, SKILL_TOOL, subAgentErrors, TASK_TOOL } from "../tools/agent-tools";
import { errors, failure } from "../tools/errors";
import type { Proposal, ToolOutcome } from "../tools/types";
import type { ToolRuntimePort } from "./ports";
import type { AgentTree, SubAgents } from "./sub-agent";

const isAgentTool = (name: string) => AGENT_TOOL_NAMES.includes(name);

export function withAgentTools(inner: ToolRuntimePort, subAgents: SubAgents, skills?: SkillTools): ToolRuntimePort {
  const timed = async (run: () => ToolOutcome | Promise<ToolOutcome>): Promise<ToolOutcome> => {
    const started = Date.now();
    const outcome = await run();
    const details = { ...(outcome.details ?? {}), durationMs: Date.now() - started };
    return outcome.ok ? { ...outcome, details } : { ...outcome, details };
  };
  return {
    specs: () => {
      const skill = skills?.spec();
      return [...inner.specs().filter((s) => !isAgentTool(s.name)), ...agentToolSpecs(subAgents.taskCaps()), ...(skill ? [skill] : [])];
    },
    beginTurn: (turn) => {
      inner.beginTurn(turn);
      subAgents.beginTurn();
    },
    isSideEffect: (name) => !isAgentTool(name) && inner.isSideEffect(name),
    runReadOnly: (call, signal) => {
      if (!isAgentTool(call.name)) return inner.runReadOnly(call, signal);
      if (call.argumentsError !== undefined) return Promise.resolve(failure(errors.invalidJson(call.name, call.argumentsError)));
      if (call.name === TODO_TOOL) return timed(() => runTodo(call.arguments));
      if (call.name === SKILL_TOOL && skills) return timed(() => skills.run(call.arguments));
      return timed(() => (call.name === TASK_TOOL ? subAgents.run(call, signal) : failure(errors.unknownTool(call.name, []))));
    },
    propose: (call) => inner.propose(call),
    decide: (proposal) => inner.decide(proposal),
    suggestRules: (proposal) => inner.suggestRules(proposal),
    checkRule: (proposal, pattern, action) => inner.checkRule(proposal, pattern, action),
    approve: (proposal, options) => inner.approve(proposal, options),
    deny: (proposal, options) => inner.deny(proposal, options),
    cancel: (proposal) => inner.cancel(proposal),
    execute: (proposal, signal) => inner.execute(proposal, signal),
    toResultMessage: (call, outcome, now) => inner.toResultMessage(call, outcome, now),
  };
}

export function childToolPort(root: ToolRuntimePort, tree: AgentTree, sideEffects: () => boolean): ToolRuntimePort {
  /** Each proposal holds the tree's side-effect lock until it is executed, denied or cancelled. */
  const held = new WeakMap<Proposal, () => void>();
  const releasing = <T>(proposal: Proposal, result: T): T => {
    held.get(proposal)?.();
    held.delete(proposal);
    return result;
  };
  return {
    specs: () => (sideEffects() ? root.specs() : root.specs().filter((s) => !root.isSideEffect(s.name))),
    // The parent's turn owns the budget and the pending proposals.
    beginTurn: () => undefined,
    isSideEffect: (name) => root.isSideEffect(name),
    runReadOnly: (call, signal) => root.runReadOnly(call, signal),
    propose: async (call) => {
      if (!sideEffects()) return { outcome: failure(subAgentErrors.readOnly(call.name)) };
      const release = await tree.lockSideEffects();
      const proposed = await root.propose(call);
      if ("outcome" in proposed) release();
      else held.set(proposed.proposal, release);
      return proposed;
    },
    decide: (proposal) => root.decide(proposal),
    suggestRules: (proposal) => root.suggestRules(proposal),
    checkRule: (proposal, pattern, action) => root.checkRule(proposal, pattern, action),
    approve: (proposal, options) => root.approve(proposal, options),
    deny: (proposal, options) => releasing(proposal, root.deny(proposal, options)),
    cancel: (proposal) => releasing(proposal, root.cancel(proposal)),
    execute: async (proposal, signal) => {
      try {
        return await root.execute(proposal, signal);
      } finally {
        releasing(proposal, undefined);
      }
    },
    toResultMessage: (call, outcome, now) => root.toResultMessage(call, outcome, now),
  };
}
