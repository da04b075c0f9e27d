/** The plan's items as a read-only list, and the transcript row of the user's edit (docs/sub-agents.md#the-todo-plan). */
import { memo } from "react";
import type { PlanEditEntry } from "../../../../shared/protocol";
import type { TodoItem, TodoStatus } from "../../../../shared/todo";
import { formatTime } from "../../lib/format";

export const PLAN_STATUS_LABEL: Record<TodoStatus, string> = { pending: "pending", in_progress: "in progress", done: "done" };
const MARK: Record<TodoStatus, string> = { pending: "○", in_progress: "◐", done: "✓" };

export function planSummary(items: readonly TodoItem[]): string {
  const done = items.filter((i) => i.status === "done").length;
  return `${done} of ${items.length} done`;
}

export function PlanList({ items }: { items: readonly TodoItem[] }) {
  return (
    <ol className="plan-items" aria-label="Plan items">
      {items.map((item, i) => (
        <li key={i} className={`plan-item plan-${item.status}`} aria-label={`${item.text}: ${PLAN_STATUS_LABEL[item.status]}`}>
          <span className="plan-mark" aria-hidden>
            {MARK[item.status]}
          </span>
          <span className="plan-text">{item.text}</span>
        </li>
      ))}
    </ol>
  );
}

export const PlanEditRow = memo(function PlanEditRow({ entry }: { entry: PlanEditEntry }) {
  return (
    <div className="marker plan-edit" role="note" aria-label="Plan edited">
      <span>You edited the plan ({planSummary(entry.items)}); the agent reads it with its next request</span>
      <time>{formatTime(entry.timestamp)}</time>
    </div>
  );
});
