/**
 * Helpers for the sub-agent tests: which agent a faux request comes from
 * (a sub-agent's conversation starts with its preamble), and the parent and
 * child scripts answered by one responder.
 */
import type { FauxRecordedRequest, FauxReply, FauxRequest, FauxResponder, FauxStep } from "../../electron/core/faux";
import { readTranscript } from "../../electron/core/faux/transcript";
import type { Harness } from "./harness";

export const SUB_AGENT_MARK = "You are a sub-agent";

export function firstUserText(req: Pick<FauxRequest, "turns">): string {
  const t = req.turns.find((x) => x.role === "user");
  return t?.role === "user" ? t.text : "";
}

export const isChildRequest = (req: Pick<FauxRequest, "turns">): boolean => firstUserText(req).includes(SUB_AGENT_MARK);

/** The same, for a request the faux provider recorded. */
export const isChildRecorded = (r: FauxRecordedRequest): boolean => isChildRequest(readTranscript(r.route, r.body));

/** The task text a child was given (after "Task:"). */
export function childTask(req: FauxRequest): string {
  return firstUserText(req).split("Task:\n")[1] ?? "";
}

/**
 * Answers the main agent's requests from `parent` in order, and every
 * sub-agent's request with `child` (which sees the request, so it can tell
 * the children apart by their task and answer per step).
 */
export function scriptTree(h: Harness, parent: FauxStep[], child: FauxResponder): void {
  const queue = [...parent];
  h.faux.setDefaultResponder(async (req) => {
    if (isChildRequest(req)) return child(req);
    const step = queue.shift();
    if (step === undefined) return { type: "reply", content: [{ type: "text", text: "(parent script exhausted)" }] };
    return typeof step === "function" ? step(req) : step;
  });
}

export function taskCall(id: string, description: string, prompt: string): FauxReply["content"][number] {
  return { type: "toolCall", id, name: "task", arguments: { description, prompt } };
}

/** A child's step count so far: the assistant turns in its request. */
export const childStep = (req: FauxRequest): number => req.turns.filter((t) => t.role === "assistant").length;
