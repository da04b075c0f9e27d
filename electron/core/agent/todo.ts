/**
 * The todo plan on the agent's side (docs/sub-agents.md#the-todo-plan): what
 * must outlive a compaction. The plan is derived from every stored entry (not
 * only those after the last compaction), so a plan set long ago and compacted
 * away is still carried into the next summary.
 */
import type { StoredEntry } from "../../../shared/protocol";
import { formatPlan, planFromEntries } from "../../../shared/todo";

export const PLAN_SURVIVOR_HEAD = "Your plan (todo) as it stood when the conversation was compacted:";

/** The texts a compaction appends to its summary: the current plan, when there is one. */
export function compactionSurvivors(entries: readonly StoredEntry[]): string[] {
  const plan = planFromEntries(entries);
  if (plan === null || plan.length === 0) return [];
  return [`${PLAN_SURVIVOR_HEAD}\n${formatPlan(plan)}\nKeep it current with the todo tool.`];
}
