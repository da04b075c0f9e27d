/**
 * The tools that act on the agent rather than on the workspace: `todo` (the
 * plan) and `task` (a sub-agent). Defined like the workspace tools (schema in
 * schemas.ts, description in descriptions.ts from the enforced constants,
 * typed errors) but run by the agent (electron/core/agent/agent-tools.ts),
 * which owns the plan and the sub-agents. Neither is a side effect: no
 * approval; each call is stored and audited like any other
 * (docs/sub-agents.md).
 */
import { formatPlan, planCounts, TODO_TOOL } from "../../../shared/todo";
import { TODO_DESCRIPTION, taskDescription, type TaskDescriptionCaps } from "./descriptions";
import { toolError } from "./errors";
import { parser } from "./registry";
import { SkillArgsSchema, TaskArgsSchema, TodoArgsSchema, toProviderSchema, type SkillArgs, type TaskArgs, type TodoArgs } from "./schemas";
import type { Result, ToolError, ToolOutcome, ToolSpec } from "./types";

export const TASK_TOOL = "task";
export const SKILL_TOOL = "skill";
export const AGENT_TOOL_NAMES: readonly string[] = [TODO_TOOL, TASK_TOOL, SKILL_TOOL];

export const parseTodoArgs: (raw: unknown) => Result<TodoArgs> = parser(TODO_TOOL, TodoArgsSchema);
export const parseTaskArgs: (raw: unknown) => Result<TaskArgs> = parser(TASK_TOOL, TaskArgsSchema);

let todoParameters: Record<string, unknown> | null = null;
let taskParameters: Record<string, unknown> | null = null;

/** What providers get for the agent tools: todo always, task when this agent may start sub-agents. */
export function agentToolSpecs(task: TaskDescriptionCaps | null): ToolSpec[] {
  todoParameters ??= toProviderSchema(TodoArgsSchema);
  taskParameters ??= toProviderSchema(TaskArgsSchema);
  const specs: ToolSpec[] = [{ name: TODO_TOOL, description: TODO_DESCRIPTION, parameters: structuredClone(todoParameters) }];
  if (task) specs.push({ name: TASK_TOOL, description: taskDescription(task), parameters: structuredClone(taskParameters) });
  return specs;
}

/** The todo call's answer: the plan as the model wrote it, counted. Pure: the plan lives in the stored calls. */
export function runTodo(raw: unknown): ToolOutcome {
  const parsed = parseTodoArgs(raw);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const { items } = parsed.value;
  const n = planCounts(items);
  const head =
    items.length === 0
      ? "The plan is cleared."
      : `The plan is updated: ${n.done} done, ${n.in_progress} in progress, ${n.pending} pending.`;
  return {
    ok: true,
    content: [{ type: "text", text: items.length === 0 ? head : `${head}\n${formatPlan(items)}` }],
    details: { plan: items },
  };
}

const sub = (n: number) => `${n} sub-agent${n === 1 ? "" : "s"}`;

/** The refusals a task call can meet: what the model reads when a cap holds. */
export const subAgentErrors = {
  perTurn: (limit: number) =>
    toolError(
      "TOOL_BUDGET_EXCEEDED",
      `No sub-agent was started: this turn has already started ${sub(limit)}, the most one turn may start.`,
      "Do not call task again in this turn: do the remaining work yourself, or finish and tell the user what is left.",
    ),
  depth: (maxDepth: number) =>
    toolError(
      "DENIED",
      maxDepth === 0
        ? "No sub-agent was started: sub-agents are turned off in the settings."
        : `No sub-agent was started: a sub-agent cannot start sub-agents here (at most ${maxDepth} level${maxDepth === 1 ? "" : "s"} below the main agent).`,
      "Do the work yourself with the tools you have.",
    ),
  budget: (why: string) =>
    toolError(
      "TOOL_BUDGET_EXCEEDED",
      `No sub-agent was started: ${why}.`,
      "Do not call task again: answer from what you have and say what is left to do.",
    ),
  noModel: (why: string) => toolError("IO_ERROR", `No sub-agent was started: ${why}`, "Do the work yourself, or tell the user."),
  readOnly: (tool: string) =>
    toolError(
      "READ_ONLY_MODE",
      `${tool} changes things, and sub-agents may only use read-only tools here.`,
      "Report what should change in your final answer; the agent that started you will make the change.",
    ),
  failed: (why: string): ToolError =>
    toolError(
      "TOOL_FAILED",
      `The sub-agent stopped without an answer: ${why}`,
      "Do the work yourself, or try once more with a clearer prompt.",
    ),
};

export const parseSkillArgs: (raw: unknown) => Result<SkillArgs> = parser(SKILL_TOOL, SkillArgsSchema);
let skillParameters: Record<string, unknown> | null = null;

export const SKILL_DESCRIPTION = `Load a skill: the instructions for a kind of task, listed under Skills in the system prompt with what each is for.

- Call it with the skill's name before starting a task that matches its description, then follow the instructions.
- The instructions may list files of the skill (templates, scripts, references): load one with \`file\`, relative to the skill's folder.`;

/** What providers get for the skill tool (only offered when there are skills). */
export function skillToolSpec(): ToolSpec {
  skillParameters ??= toProviderSchema(SkillArgsSchema);
  return { name: SKILL_TOOL, description: SKILL_DESCRIPTION, parameters: structuredClone(skillParameters) };
}
