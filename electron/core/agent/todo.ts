/**
 * The todo plan on the agent's side (docs/sub-agents.md#the-todo-plan): what
 * must outlive a compaction. The plan is derived from every stored entry (not
 * only those after the last compaction), so a plan set long ago and compacted
 * away is still carried into the next summary.
 */
import type { StoredEntry } from "../../../shared/protocol";
import { formatPlan, planFromEntries } from "../../../shared/todo";
import type { CompactionCarry } from "./compaction";
import { latestCompaction } from "./context";

export const PLAN_SURVIVOR_HEAD = "Your plan (todo) as it stood when the conversation was compacted:";
const PLAN_SURVIVOR_TAIL = "Keep it current with the todo tool.";

/** The texts a compaction appends to its summary: the current plan, when there is one. */
export function compactionSurvivors(entries: readonly StoredEntry[]): string[] {
  const plan = planFromEntries(entries);
  if (plan === null || plan.length === 0) return [];
  return [`${PLAN_SURVIVOR_HEAD}\n${formatPlan(plan)}\n${PLAN_SURVIVOR_TAIL}`];
}

/**
 * What the plan carries into a compaction: the plan the entries set, or, when
 * the journal no longer holds the call that set it (compacted away), the plan
 * the last compaction carried.
 */
export function planCarry(entries: readonly StoredEntry[]): CompactionCarry | null {
  const text = compactionSurvivors(entries)[0] ?? carriedPlan(latestCompaction(entries)?.carried);
  return text ? { forSummary: text, reinject: text } : null;
}

/** The plan's part of what a compaction carried (other carriers' text stays theirs). */
function carriedPlan(carried: string | undefined): string | undefined {
  const start = carried?.indexOf(PLAN_SURVIVOR_HEAD) ?? -1;
  if (carried === undefined || start === -1) return undefined;
  const end = carried.indexOf(PLAN_SURVIVOR_TAIL, start);
  return end === -1 ? undefined : carried.slice(start, end + PLAN_SURVIVOR_TAIL.length);
}
