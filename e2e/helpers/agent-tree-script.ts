/**
 * The faux agent's part in the plan, sub-agent and steering specs (e2e/web/sub-agents.spec.ts,
 * e2e/web/steering.spec.ts), answered by e2e/helpers/host-main.ts:
 *
 * - "[plan-delegate]": the agent plans three items with the todo tool, delegates the second to a
 *   sub-agent with the task tool, checks the items off as it goes and answers. The sub-agent (its
 *   prompt carries "[child-answer]") reads README.md and reports.
 * - "[plan-delegate-hang]": the same start, but the sub-agent (prompt "[child-hang]") reads, then
 *   proposes an edit of README.md and waits for its approval (with side effects allowed for
 *   sub-agents): a call in flight in the sub-agent that the spec stops.
 * - "[delegate-edit]": the agent has a sub-agent (prompt "[child-edit]") edit README.md, which needs
 *   the user's approval when the settings give sub-agents side effects.
 * - "[steer-loop]": the agent keeps reading README.md, slowly, until a user message follows its
 *   first one (a steering message), then answers "Steered: <that message>".
 */
import { reply, text, toolCall, type FauxReply, type FauxRequest } from "../../electron/core/faux";

export const PLAN_ITEMS = ["Read the README", "Survey the project with a sub-agent", "Write the summary"];
const STATUSES = [
  ["in_progress", "pending", "pending"],
  ["done", "in_progress", "pending"],
  ["done", "done", "in_progress"],
  ["done", "done", "done"],
] as const;
export const CHILD_REPORT = "The README says this is a demo project.";
export const FINAL_ANSWER = "All three items are done.";
export const EDIT_TASK = "Tidy the README";

const plan = (step: number) => ({ items: PLAN_ITEMS.map((item, i) => ({ text: item, status: STATUSES[step][i] })) });
const userTurns = (r: FauxRequest) => r.turns.flatMap((t) => (t.role === "user" ? [t.text] : []));
const steps = (r: FauxRequest) => r.turns.filter((t) => t.role === "assistant").length;

/** The reply for a request of these specs, or null when the request is not theirs. */
export function agentTreeReply(request: FauxRequest): FauxReply | null {
  const users = userTurns(request);
  const first = users[0] ?? "";
  const n = steps(request);
  if (first.includes("[child-answer]")) return n === 0 ? reply(toolCall("read", { path: "README.md" })) : reply(CHILD_REPORT);
  if (first.includes("[child-hang]")) {
    if (n === 0) return reply(toolCall("read", { path: "README.md" }));
    return reply(toolCall("edit", { path: "README.md", edits: [{ oldText: "A tiny project", newText: "A stopped project" }] }));
  }
  if (first.includes("[child-edit]")) {
    if (n > 0) return reply("The README is tidy.");
    return reply(toolCall("edit", { path: "README.md", edits: [{ oldText: "A tiny project", newText: "A tiny, tidy project" }] }));
  }
  if (first.includes("[delegate-edit]")) {
    if (n > 0) return reply("The sub-agent tidied the README.");
    return reply(toolCall("task", { description: EDIT_TASK, prompt: "[child-edit] Make the README's wording tidier." }));
  }
  const hang = first.includes("[plan-delegate-hang]");
  if (hang || first.includes("[plan-delegate]")) {
    const marker = hang ? "[child-hang]" : "[child-answer]";
    switch (n) {
      case 0:
        return reply([text("I'll plan this first."), toolCall("todo", plan(0))]);
      case 1:
        return reply([
          toolCall("todo", plan(1)),
          toolCall("task", { description: "Survey the project", prompt: `${marker} Read README.md and say what the project is.` }),
        ]);
      case 2:
        return reply([toolCall("todo", plan(2)), toolCall("read", { path: "src/math.ts" })]);
      case 3:
        return reply(toolCall("todo", plan(3)));
      default:
        return reply(FINAL_ANSWER);
    }
  }
  if (first.includes("[steer-loop]")) {
    if (users.length > 1) return reply(`Steered: ${users[users.length - 1]}`);
    if (n >= 40) return reply("No steering message arrived.");
    return { ...reply(toolCall("read", { path: "README.md" })), chunkSize: 4, chunkDelayMs: 25 };
  }
  return null;
}
