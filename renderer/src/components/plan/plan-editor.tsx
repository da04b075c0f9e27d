/** Editing the plan: each item's text and status, add, remove, move; saved as one edit (session.setPlan). */
import { useState } from "react";
import { TODO_MAX_ITEMS, TODO_MAX_TEXT, TODO_STATUSES, type TodoItem, type TodoStatus } from "../../../../shared/todo";
import { PLAN_STATUS_LABEL } from "./plan-list";

export function PlanEditor({
  items,
  onSave,
  onCancel,
}: {
  items: readonly TodoItem[];
  onSave: (items: TodoItem[]) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<TodoItem[]>(() => items.map((i) => ({ ...i })));
  const set = (index: number, patch: Partial<TodoItem>) =>
    setDraft((d) => d.map((item, i) => (i === index ? { ...item, ...patch } : item)));
  const kept = draft.map((i) => ({ ...i, text: i.text.trim() })).filter((i) => i.text.length > 0);

  return (
    <form
      className="plan-editor"
      aria-label="Edit the plan"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(kept);
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <ol className="plan-items">
        {draft.map((item, i) => (
          <li key={i} className="plan-edit-item">
            <input
              aria-label={`Item ${i + 1}`}
              value={item.text}
              maxLength={TODO_MAX_TEXT}
              autoFocus={i === 0}
              onChange={(e) => set(i, { text: e.target.value })}
            />
            <select
              aria-label={`Status of item ${i + 1}`}
              value={item.status}
              onChange={(e) => set(i, { status: e.target.value as TodoStatus })}
            >
              {TODO_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {PLAN_STATUS_LABEL[s]}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="icon"
              aria-label={`Remove item ${i + 1}`}
              onClick={() => setDraft((d) => d.filter((_, j) => j !== i))}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <div className="plan-editor-buttons">
        <button
          type="button"
          disabled={draft.length >= TODO_MAX_ITEMS}
          title={draft.length >= TODO_MAX_ITEMS ? `A plan holds at most ${TODO_MAX_ITEMS} items` : undefined}
          onClick={() => setDraft((d) => [...d, { text: "", status: "pending" }])}
        >
          Add item
        </button>
        <span className="spacer" />
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary">
          Save plan
        </button>
      </div>
    </form>
  );
}
