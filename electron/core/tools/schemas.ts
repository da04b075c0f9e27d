/**
 * Input schemas of the tools (zod, unknown fields rejected) and their JSON
 * Schema form for providers. Field descriptions are part of what the model
 * sees and are snapshotted with the tool descriptions.
 */
import { z } from "zod";
import { TodoPlanInputSchema } from "../../../shared/todo";
import {
  BASH_DEFAULT_TIMEOUT_MS,
  BASH_MAX_TIMEOUT_MS,
  GLOB_MAX_RESULTS,
  GREP_MAX_CONTEXT,
  LIST_MAX_ENTRIES,
  READ_MAX_LINES,
  TASK_DESCRIPTION_MAX_CHARS,
  TASK_PROMPT_MAX_CHARS,
} from "./limits";

const path = (what: string) => z.string().min(1).describe(`${what}, relative to the workspace root (e.g. src/index.ts).`);
const cursor = z.string().min(1).optional().describe("Opaque cursor from a previous truncated answer, to get the next page.");

export const ReadArgsSchema = z.strictObject({
  path: path("File to read"),
  offset: z.int().min(1).optional().describe("1-based line number to start from. Default 1."),
  limit: z.int().min(1).max(READ_MAX_LINES).optional().describe(`Number of lines to return. Default and maximum ${READ_MAX_LINES}.`),
});

export const WriteArgsSchema = z.strictObject({
  path: path("File to create or overwrite"),
  content: z.string().describe("The complete new content of the file."),
});

export const EditSchema = z.strictObject({
  oldText: z.string().min(1).describe("Text to find in the file as it is now. Copy it from read output, without the line-number prefix."),
  newText: z.string().describe("Text that replaces oldText."),
  replaceAll: z.boolean().optional().describe("Replace every occurrence of oldText instead of requiring exactly one. Default false."),
});

export const EDIT_MAX_EDITS = 50;

export const EditArgsSchema = z.strictObject({
  path: path("File to edit"),
  edits: z
    .array(EditSchema)
    .min(1)
    .max(EDIT_MAX_EDITS)
    .describe("One or more replacements. Each is matched against the original file; they must not overlap. All apply or none."),
});

export const ListArgsSchema = z.strictObject({
  path: path("Folder to list").optional().describe("Folder to list, relative to the workspace root. Default: the workspace root."),
  depth: z.int().min(1).max(20).optional().describe("How many folder levels to descend. Default 3."),
  includeIgnored: z.boolean().optional().describe("Also list .git, node_modules and .gitignored paths. Default false."),
  cursor,
});

export const GlobArgsSchema = z.strictObject({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/test-*.js".'),
  path: path("Folder to search in")
    .optional()
    .describe("Folder to search in, relative to the workspace root. Default: the workspace root."),
  cursor,
});

export const GrepArgsSchema = z.strictObject({
  pattern: z.string().min(1).describe("Regular expression to search for (or plain text with literal: true)."),
  path: z.string().min(1).optional().describe("File or folder to search, relative to the workspace root. Default: the workspace root."),
  include: z.string().min(1).optional().describe('Only search files whose path matches this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}".'),
  literal: z.boolean().optional().describe("Treat pattern as plain text, not a regular expression. Default false."),
  ignoreCase: z.boolean().optional().describe("Case-insensitive search. Default false."),
  context: z
    .int()
    .min(0)
    .max(GREP_MAX_CONTEXT)
    .optional()
    .describe(`Lines of context before and after each match (0-${GREP_MAX_CONTEXT}). Default 0.`),
});

export const BashArgsSchema = z.strictObject({
  command: z.string().min(1).describe("The shell command to run (bash -c)."),
  timeout: z
    .int()
    .min(1)
    .max(BASH_MAX_TIMEOUT_MS / 1000)
    .optional()
    .describe(`Timeout in seconds. Default ${BASH_DEFAULT_TIMEOUT_MS / 1000}, maximum ${BASH_MAX_TIMEOUT_MS / 1000}.`),
  workdir: z.string().min(1).optional().describe("Folder to run in, relative to the workspace root. Default: the workspace root."),
  description: z.string().max(200).optional().describe("What the command does, in 5-10 words, shown to the user when asking for approval."),
});

/** skill: load a skill's instructions, or one of its files (docs/conventions.md#skills). */
export const SkillArgsSchema = z.strictObject({
  name: z.string().min(1).max(64).describe("The skill's name, as listed under Skills in the system prompt."),
  file: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe("A file of the skill, relative to its folder, as the skill lists them. Absent: the skill's instructions."),
});
export type SkillArgs = z.infer<typeof SkillArgsSchema>;

/** todo: the whole plan each time (docs/sub-agents.md#the-todo-plan). */
export const TodoArgsSchema = z.strictObject({ items: TodoPlanInputSchema });

/** task: one sub-task for a sub-agent (docs/sub-agents.md#sub-agents). */
export const TaskArgsSchema = z.strictObject({
  description: z
    .string()
    .trim()
    .min(1)
    .max(TASK_DESCRIPTION_MAX_CHARS)
    .describe(`A short name for the sub-task (3-8 words, at most ${TASK_DESCRIPTION_MAX_CHARS} characters), shown to the user.`),
  prompt: z
    .string()
    .trim()
    .min(1)
    .max(TASK_PROMPT_MAX_CHARS)
    .describe(
      `Everything the sub-agent needs, since it sees nothing of this conversation: the goal, the files or places to look at, and what to report back (at most ${TASK_PROMPT_MAX_CHARS} characters).`,
    ),
});

export type ReadArgs = z.infer<typeof ReadArgsSchema>;
export type WriteArgs = z.infer<typeof WriteArgsSchema>;
export type EditArgs = z.infer<typeof EditArgsSchema>;
export type EditOp = z.infer<typeof EditSchema>;
export type ListArgs = z.infer<typeof ListArgsSchema>;
export type GlobArgs = z.infer<typeof GlobArgsSchema>;
export type GrepArgs = z.infer<typeof GrepArgsSchema>;
export type BashArgs = z.infer<typeof BashArgsSchema>;
export type TodoArgs = z.infer<typeof TodoArgsSchema>;
export type TaskArgs = z.infer<typeof TaskArgsSchema>;

export const LIST_DEFAULT_DEPTH = 3;
export { GLOB_MAX_RESULTS, LIST_MAX_ENTRIES };

/**
 * JSON Schema for providers: root type object, no `$schema`, no `$ref`, no
 * combinators, no safe-integer bounds that zod adds to `int()`.
 */
export function toProviderSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" });
  return clean(json) as Record<string, unknown>;
}

function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema") continue;
    if ((key === "maximum" && value === Number.MAX_SAFE_INTEGER) || (key === "minimum" && value === Number.MIN_SAFE_INTEGER)) continue;
    out[key] = clean(value);
  }
  return out;
}

/** One line per issue: `path: message`. Deterministic, for the golden strings. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where =
        issue.path.length === 0
          ? "(root)"
          : issue.path
              .map((p) => (typeof p === "number" ? `[${p}]` : String(p)))
              .join(".")
              .replace(/\.\[/g, "[");
      return `- ${where}: ${issue.message}`;
    })
    .join("\n");
}

/** webfetch: one URL, read from `offset` on (docs/conventions.md#web-fetch). */
export const WebFetchArgsSchema = z.strictObject({
  url: z.string().min(1).max(2000).describe("The http(s) URL to read. Only the URL is sent: no workspace content, no cookies."),
  offset: z
    .int()
    .min(0)
    .optional()
    .describe("Character offset in the page's text to read from, to continue a page that was cut. Default 0."),
});
export type WebFetchArgs = z.infer<typeof WebFetchArgsSchema>;
