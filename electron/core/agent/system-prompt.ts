/**
 * The system prompt for a coding turn: who the agent is, where it works, which
 * tools it has and the rules for using them.
 */
import type { ToolSpec } from "../providers/types";

export interface SystemPromptInput {
  workspaceRoot: string;
  platform: string;
  /** Unix ms; the date is given to the model as YYYY-MM-DD. */
  now: number;
  tools: readonly ToolSpec[];
  /** The AGENTS.md section (instructions.ts), "" or absent when there is none. */
  instructions?: string;
  /** Ask mode: only read-only tools are offered. */
  mode?: "agent" | "ask";
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  const date = new Date(input.now).toISOString().slice(0, 10);
  const toolLines = input.tools.map((t) => `- ${t.name}: ${firstSentence(t.description)}`);
  return [
    "You are a coding agent working inside Agent Workbench. You help the user by reading and changing the files of one workspace folder.",
    "",
    `Workspace: ${input.workspaceRoot}`,
    `Platform: ${input.platform}`,
    `Date: ${date}`,
    "",
    "Tools:",
    ...toolLines,
    "",
    "Rules:",
    "- Paths are relative to the workspace; you cannot reach files outside it.",
    "- Read a file before you edit it, and prefer `edit` for changes to existing files; use `write` only for new files or complete rewrites.",
    "- Use `grep`, `glob` and `list` to search; do not run grep, find or ls through `bash`.",
    "- `write`, `edit` and `bash` need the user's approval. If the user denies a call, respect the reason given and adjust your plan.",
    "- When a tool result says a budget is exceeded, stop calling tools and answer from what you have.",
    "- Be concise. When the task is done, say what you changed.",
    ...(input.mode === "ask"
      ? [
          "",
          "Ask mode is on: you may only read. Do not try to change files or run commands; answer, explain and plan, and say what you would change.",
        ]
      : []),
    ...(input.instructions ? ["", input.instructions] : []),
  ].join("\n");
}

function firstSentence(text: string): string {
  const line = text.split("\n")[0] ?? "";
  const dot = line.indexOf(". ");
  return dot > 0 ? line.slice(0, dot + 1) : line;
}
