/** The plan as text (docs/sub-agents.md#the-todo-plan). No zod: the offline HTML replay bundles it. */

export interface PlanLine {
  text: string;
  status: "pending" | "in_progress" | "done";
}

const MARK: Record<PlanLine["status"], string> = { pending: "[ ]", in_progress: "[~]", done: "[x]" };

/** The plan as the model reads it: one numbered line per item. */
export function formatPlan(items: readonly PlanLine[]): string {
  if (items.length === 0) return "(the plan is empty)";
  return items.map((item, i) => `${i + 1}. ${MARK[item.status]} ${item.text}`).join("\n");
}
