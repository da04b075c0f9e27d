/**
 * The todo plan: a short checklist the model keeps with the `todo` tool and the
 * user may edit (docs/sub-agents.md#the-todo-plan). The plan is never stored on
 * its own: at any step it is derived from the stored entries up to that step
 * (the last successful todo call, or the user's last edit, whichever is later),
 * so the live view, replay and the core agree by construction.
 *
 * Pure module: zod only (see docs/architecture.md#layers).
 */
import { z } from "zod";
import type { PlanEditEntry, StoredEntry, ToolCall } from "./protocol";
import { formatPlan } from "./todo-format";

export { formatPlan };

/** Items a plan holds at most. */
export const TODO_MAX_ITEMS = 20;
/** Characters an item's text holds at most. */
export const TODO_MAX_TEXT = 200;
export const TODO_TOOL = "todo";

export const TODO_STATUSES = ["pending", "in_progress", "done"] as const;
export const TodoStatusSchema = z.enum(TODO_STATUSES);
export type TodoStatus = z.infer<typeof TodoStatusSchema>;

/** An item as stored (lenient: a stored plan stays readable if the bounds change). */
export const TodoItemSchema = z.object({ text: z.string(), status: TodoStatusSchema });
export type TodoItem = z.infer<typeof TodoItemSchema>;

/** An item as the model or the user sends it: bounded, unknown fields refused. */
export const TodoItemInputSchema = z.strictObject({
  text: z
    .string()
    .trim()
    .min(1)
    .max(TODO_MAX_TEXT)
    .describe(`What to do, in a short imperative sentence (at most ${TODO_MAX_TEXT} characters).`),
  status: TodoStatusSchema.describe("pending (not started), in_progress (being worked on now) or done."),
});

/** The whole plan, replacing the previous one. */
export const TodoPlanInputSchema = z
  .array(TodoItemInputSchema)
  .max(TODO_MAX_ITEMS)
  .describe(`The whole plan, in order (at most ${TODO_MAX_ITEMS} items); it replaces the previous one. An empty list clears it.`);

export function planCounts(items: readonly TodoItem[]): Record<TodoStatus, number> {
  const out: Record<TodoStatus, number> = { pending: 0, in_progress: 0, done: 0 };
  for (const item of items) out[item.status]++;
  return out;
}

/** The items of a todo call's arguments, or null when they do not match the tool's schema. */
export function planOfCall(call: Pick<ToolCall, "name" | "arguments">): TodoItem[] | null {
  if (call.name !== TODO_TOOL) return null;
  const parsed = TodoPlanInputSchema.safeParse(call.arguments.items);
  return parsed.success ? parsed.data : null;
}

/**
 * Follows a session's entries in order and says when the plan changes: a todo
 * call counts once its result is stored without an error (a refused or
 * aborted call changed nothing), a `planEdit` entry at once.
 */
export class PlanTracker {
  /** Todo calls still waiting for their result, by id (ids may repeat: the latest wins). */
  private readonly open = new Map<string, ToolCall>();
  plan: TodoItem[] | null = null;

  /** Returns the new plan when this entry changed it, else undefined. */
  feed(entry: StoredEntry["entry"]): TodoItem[] | undefined {
    if (entry.type === "planEdit") return (this.plan = entry.items);
    if (entry.type !== "message") return undefined;
    const m = entry.message;
    if (m.role === "assistant") {
      for (const block of m.content) if (block.type === "toolCall" && block.name === TODO_TOOL) this.open.set(block.id, block);
      return undefined;
    }
    if (m.role !== "toolResult" || m.toolName !== TODO_TOOL) return undefined;
    const call = this.open.get(m.toolCallId);
    this.open.delete(m.toolCallId);
    if (!call || m.isError) return undefined;
    const items = planOfCall(call);
    return items === null ? undefined : (this.plan = items);
  }
}

/** The plan as of the last of `entries` (null: no plan was ever set). */
export function planFromEntries(entries: readonly StoredEntry[]): TodoItem[] | null {
  const tracker = new PlanTracker();
  for (const { entry } of entries) tracker.feed(entry);
  return tracker.plan;
}

/** The user's edit of the plan as the model reads it on its next request. */
export function planEditText(entry: Pick<PlanEditEntry, "items">): string {
  return `[Agent Workbench] The user edited your plan (todo). It is now:\n${formatPlan(entry.items)}\nWork from this plan and keep it current with the todo tool.`;
}
