/**
 * The summary request of a compaction: the part to summarise as a plain-text
 * transcript in one user message, with no tools. Plain text is valid on every
 * API whatever the history held (no tool-call pairing, no thinking signatures)
 * and can be cut to fit: the oldest messages are left out first. The user's
 * own messages are listed word for word ahead of the transcript (their goal is
 * what a summary must not lose), within a share of the budget: the first one
 * and then the newest, the others counted, so a session with thousands of
 * prompts still gets a request that fits.
 */
import type { Message, ToolCall } from "../../../shared/protocol";
import type { LlmContext } from "../providers/types";
import { textTokens } from "./tokens";

export const COMPACTION_SYSTEM_PROMPT = [
  "You compact coding-agent conversations. Write a summary that lets the agent continue the work without the original messages, under these headings:",
  "## Goal: the user's request and constraints, in their words where it matters.",
  "## Plan: the plan or checklist as it stands (what is done, in progress, left).",
  "## Files changed: every file created, edited or deleted, with its path and what changed.",
  "## Decisions: what was decided and why; what was tried and failed.",
  "## Open problems: errors not yet solved, questions, and the next steps.",
  "Be factual and complete; no preamble.",
].join("\n");
export const COMPACTION_REQUEST = "Summarise the conversation above for your own continuation, as instructed.";

const USER_TEXT_MAX_CHARS = 4_000;
const RESULT_MAX_CHARS = 2_000;
const ARGS_MAX_CHARS = 500;
const EDITING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);
/** The share of the budget the user's own messages may take ahead of the transcript. */
const GOAL_SHARE = 0.4;
/** Changed paths named in the request; the summary entry itself keeps them all. */
const PATHS_MAX = 200;

export interface SummaryRequestInput {
  /** The part to summarise, as the model saw it (a previous summary first). */
  older: readonly Message[];
  /** What must survive, from the session's carriers (the plan). */
  keep: readonly string[];
  /** Tokens the request may hold. */
  budget: number;
}

export interface SummaryRequest {
  context: LlmContext;
  /** Paths the summarised part wrote or edited. */
  filesChanged: string[];
}

export function summaryRequest(input: SummaryRequestInput, now: number): SummaryRequest {
  const { older, keep, budget } = input;
  const goal = boundedGoal(
    older.flatMap((m) => (m.role === "user" ? [clip(textOf(m), USER_TEXT_MAX_CHARS)] : [])).filter(Boolean),
    budget * GOAL_SHARE,
  );
  const filesChanged = changedPaths(older);
  const named =
    filesChanged.length > PATHS_MAX
      ? `${filesChanged.slice(-PATHS_MAX).join(", ")} and ${filesChanged.length - PATHS_MAX} earlier ones`
      : filesChanged.join(", ");
  const head = [
    ...(goal.length > 0 ? ["The user's messages in this part, verbatim:", ...goal.map((g) => `- ${g}`), ""] : []),
    ...(filesChanged.length > 0 ? [`Files the agent wrote or edited in this part: ${named}`, ""] : []),
    ...(keep.length > 0 ? ["Keep this in the summary as it stands:", ...keep, ""] : []),
  ].join("\n");
  const tail = `\n${COMPACTION_REQUEST}`;
  let room = budget - textTokens(COMPACTION_SYSTEM_PROMPT) - textTokens(head) - textTokens(tail) - 50;
  const lines: string[] = [];
  let omitted = 0;
  for (let i = older.length - 1; i >= 0; i--) {
    const line = render(older[i]);
    const cost = textTokens(line) + 1;
    if (cost > room) {
      omitted = i + 1;
      break;
    }
    room -= cost;
    lines.push(line);
  }
  lines.reverse();
  if (omitted > 0) lines.unshift(`[${omitted} earlier message${omitted === 1 ? "" : "s"} left out: they did not fit]`);
  const text = `${head}The conversation:\n\n${lines.join("\n\n")}\n${tail}`;
  return {
    context: {
      systemPrompt: COMPACTION_SYSTEM_PROMPT,
      messages: [{ role: "user", content: [{ type: "text", text }], timestamp: now }],
      tools: [],
    },
    filesChanged,
  };
}

/** The user's messages within `budget` tokens: the first (the goal as first stated), then the newest; the rest counted. */
function boundedGoal(goal: readonly string[], budget: number): string[] {
  if (goal.length === 0) return [];
  let room = budget - textTokens(goal[0]) - 1;
  const newest: string[] = [];
  for (let i = goal.length - 1; i >= 1; i--) {
    const cost = textTokens(goal[i]) + 1;
    if (cost > room) break;
    room -= cost;
    newest.push(goal[i]);
  }
  newest.reverse();
  const left = goal.length - 1 - newest.length;
  return [goal[0], ...(left > 0 ? [`[${left} more of the user's messages left out here: they did not fit]`] : []), ...newest];
}

/** A user message's text as the user wrote it (clipped), for keeping it word for word. */
export function userText(m: Message): string {
  return clip(textOf(m), USER_TEXT_MAX_CHARS);
}

function textOf(m: Message): string {
  return m.content.flatMap((b) => (b.type === "text" ? [b.text] : b.type === "image" ? ["[image]"] : [])).join("\n");
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} characters cut]` : text;
}

function callLine(call: ToolCall): string {
  return `Tool call ${call.name} ${clip(JSON.stringify(call.arguments), ARGS_MAX_CHARS)}`;
}

function render(m: Message): string {
  switch (m.role) {
    case "user":
      return `User: ${textOf(m)}`;
    case "assistant": {
      const parts = m.content.flatMap((b) => (b.type === "text" ? [b.text] : b.type === "toolCall" ? [callLine(b)] : []));
      if (m.stopReason === "error") parts.push(`(the request failed: ${m.errorMessage ?? "error"})`);
      return `Assistant: ${parts.join("\n")}`;
    }
    case "toolResult":
      return `Tool result (${m.toolName}${m.isError ? ", error" : ""}): ${clip(textOf(m), RESULT_MAX_CHARS)}`;
  }
}

/** Paths of successful write/edit calls, in order, once each. */
function changedPaths(messages: readonly Message[]): string[] {
  const calls = new Map<string, ToolCall>();
  const paths: string[] = [];
  for (const m of messages) {
    if (m.role === "assistant") for (const b of m.content) if (b.type === "toolCall" && EDITING_TOOLS.has(b.name)) calls.set(b.id, b);
    if (m.role === "toolResult" && !m.isError) {
      const path = calls.get(m.toolCallId)?.arguments.path;
      if (typeof path === "string" && !paths.includes(path)) paths.push(path);
    }
  }
  return paths;
}
