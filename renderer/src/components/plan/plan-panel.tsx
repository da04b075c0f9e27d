/**
 * The todo plan pinned above the composer (and in replay, as of the step):
 * the items with their status, collapsible, and the user's edit, which the
 * agent reads with its next request (docs/sub-agents.md#the-todo-plan).
 */
import { useState } from "react";
import type { TodoItem } from "../../../../shared/todo";
import { PlanEditor } from "./plan-editor";
import { PlanList, planSummary } from "./plan-list";
import "./plan.css";

export function PlanPanel({
  items,
  label = "Plan",
  pending = false,
  onSave,
}: {
  items: readonly TodoItem[];
  label?: string;
  /** The user's edit waits for the running turn's next tool boundary. */
  pending?: boolean;
  /** Absent: read-only (replay). */
  onSave?: (items: TodoItem[]) => Promise<boolean>;
}) {
  const [open, setOpen] = useState(true);
  const [editing, setEditing] = useState(false);
  const current = items.find((i) => i.status === "in_progress");
  return (
    <section className="plan-panel" aria-label={label}>
      <header className="plan-head">
        <button type="button" className="link-button plan-toggle" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
          <span aria-hidden>{open ? "▾" : "▸"}</span> {label}
        </button>
        <span className="muted small">{planSummary(items)}</span>
        {!open && current && <span className="plan-current small">Now: {current.text}</span>}
        {pending && <span className="badge small">your edit reaches the agent at its next step</span>}
        {onSave && open && !editing && (
          <button type="button" className="link-button plan-edit-button" onClick={() => setEditing(true)}>
            Edit plan
          </button>
        )}
      </header>
      {open && !editing && <PlanList items={items} />}
      {open && editing && onSave && (
        <PlanEditor
          items={items}
          onCancel={() => setEditing(false)}
          onSave={(next) => {
            void onSave(next).then((ok) => ok && setEditing(false));
          }}
        />
      )}
    </section>
  );
}
