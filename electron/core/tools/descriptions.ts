/**
 * What the model reads about each tool: when to use it, when not, its limits
 * (interpolated from limits.ts, the same constants the code enforces) and how
 * to continue after truncation. Snapshotted in test/tools.
 */
import {
  BASH_DEFAULT_TIMEOUT_MS,
  BASH_MAX_LINES,
  BASH_MAX_TIMEOUT_MS,
  BASH_OUTPUT_FILE_MAX_BYTES,
  GLOB_MAX_RESULTS,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_MATCHES,
  IMAGE_MAX_BYTES,
  KB,
  LIST_MAX_ENTRIES,
  OUTPUT_MAX_BYTES,
  READ_MAX_FILE_BYTES,
  READ_MAX_LINE_CHARS,
  READ_MAX_LINES,
} from "./limits";
import { TODO_MAX_ITEMS, TODO_MAX_TEXT } from "../../../shared/todo";
import type { BashSettings } from "./context";
import { EDIT_MAX_EDITS, LIST_DEFAULT_DEPTH } from "./schemas";

const MB = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

export const READ_DESCRIPTION = `Read a file in the workspace.

- Returns up to ${READ_MAX_LINES} lines or ${KB(OUTPUT_MAX_BYTES)} from the start (or from \`offset\`), whichever comes first. Each line is prefixed with its line number and a tab ("12\\t"); that prefix is not part of the file.
- When there is more, the answer ends with e.g. "[Showing lines 1-${READ_MAX_LINES} of 9000. Use offset=${READ_MAX_LINES + 1} to continue.]": call read again with that offset.
- Lines longer than ${READ_MAX_LINE_CHARS} characters are cut. Files over ${MB(READ_MAX_FILE_BYTES)} are refused: use grep to find what you need.
- PNG, JPEG, GIF and WebP images up to ${MB(IMAGE_MAX_BYTES)} come back as images. Other binary files are refused.
- Use read, not bash cat/head/tail. Use list or glob to find files, grep to search their content. Read a file before you edit it.
- A missing file answers "File not found: <path>" with close matches when there are some.`;

export const WRITE_DESCRIPTION = `Create a file, or replace a file's whole content.

- Folders are created as needed. An existing file keeps its permissions, its line-ending style (CRLF stays CRLF) and its byte-order mark.
- Prefer edit for changes to an existing file: it is smaller and safer. Use write for new files or complete rewrites, and read the file first if it exists.
- The user may be asked to approve the change; they see the diff. A denied call answers "The user denied this tool call: <reason>" — do not repeat it.
- If the file changed on disk after you proposed the change, nothing is written and you get "changed on disk after this change was proposed": read it again and redo the change.`;

export const EDIT_DESCRIPTION = `Replace exact text in an existing file. Use this for changes to existing files instead of rewriting them with write, and instead of sed or awk in bash.

- Read the file first. Copy oldText from the read output exactly, without the line-number prefix, with enough surrounding lines to be unique.
- \`edits\` holds 1-${EDIT_MAX_EDITS} replacements. Each is matched against the original file (not against the result of the previous one); they must not overlap. All are applied or none.
- If oldText is not found exactly, differences in indentation, trailing whitespace, whitespace runs, blank lines around the block, line endings and over-escaped characters (\\n written for a newline) are tolerated when the match is still unique; any other difference (a changed word, quote or number) is not, and the edit fails with the nearest region. newText is applied in the file's indentation style (tabs or spaces). Only the matched region changes; the rest of the file keeps its bytes, line endings and byte-order mark.
- Errors and what to do:
  - "Could not find oldText in <path>" (edits[i].oldText when there are several) comes with the closest region and its line numbers: read the file again and copy the text exactly.
  - "oldText matches N places in <path> (lines …)": add surrounding lines to make it unique, or set replaceAll: true.
  - "oldText and newText are identical": nothing to change.
  - "oldText contains half of a surrogate pair": send whole characters (an emoji is two UTF-16 units).
  - "<path> is not valid UTF-8 text": only UTF-8 files are edited (the file was left unchanged); change it with bash.
- To create a new file use write. The user may be asked to approve the change and sees the diff.`;

export const LIST_DESCRIPTION = `List a folder of the workspace as a tree (folders end with "/").

- Descends ${LIST_DEFAULT_DEPTH} levels by default (\`depth\` to change); folders not expanded end with "/ …". Skips .git, node_modules and paths ignored by .gitignore unless includeIgnored is true. Symbolic links are shown as "name -> target" and not followed.
- At most ${LIST_MAX_ENTRIES} entries per call; when there are more, the answer ends with a cursor: call list again with the same arguments and that cursor.
- Use glob to find files by name pattern, grep to search contents.`;

export const GLOB_DESCRIPTION = `Find files by name with a glob pattern, e.g. "**/*.ts", "src/**/*.test.ts", "*.{json,yaml}".

- The pattern is relative to \`path\` (default: the workspace root). A pattern without "/" matches file names at any depth ("*.ts" finds every .ts file).
- Returns workspace-relative paths, newest modified first. Skips .git, node_modules and paths ignored by .gitignore.
- At most ${GLOB_MAX_RESULTS} paths per call; when there are more, the answer says how many and gives a cursor: call glob again with the same arguments and that cursor.
- Use glob, not bash find or ls. Use grep to search inside files.`;

export const GREP_DESCRIPTION = `Search file contents with a regular expression (or plain text with literal: true).

- Answers "path:" headings, then matching lines as "LINE: text" and context lines as "LINE- text", sorted by path and line.
- Filter files with include and path (a file or folder). include is a glob matched against the file name when it has no "/" ("*.ts", "*.{ts,tsx}"), otherwise against the workspace-relative path ("src/**/*.ts"). Skips .git, node_modules, binary files and paths ignored by .gitignore.
- At most ${GREP_MAX_MATCHES} matching lines per call; lines are cut at ${GREP_MAX_LINE_CHARS} characters. When there are more matches, the answer says so: narrow the pattern, path or include, or read the file around a match.
- The regex syntax is Rust/ripgrep style (like JavaScript without lookaround); escape special characters such as ( [ { . with a backslash, or use literal: true.
- Use grep, not bash grep or rg.`;

export const BASH_DESCRIPTION = `Run a shell command (bash -c) in the workspace folder, for builds, tests, git and other programs.

- Do not use it to read, find, search or edit files: use read, list, glob, grep, edit and write, which are faster and safer.
- The user may be asked to approve each command. A denied call answers "The user denied this tool call: <reason>" — do not repeat it.
- Default timeout ${BASH_DEFAULT_TIMEOUT_MS / 1000} s (\`timeout\` in seconds, up to ${BASH_MAX_TIMEOUT_MS / 1000}). On timeout the whole process group is killed and you get the output so far.
- Output is stdout and stderr together, as plain text: colour codes are removed and a progress bar shows only its last state. Only the last ${BASH_MAX_LINES} lines or ${KB(OUTPUT_MAX_BYTES)} are returned; when more was cut, the answer says so and where the output was saved (up to its first ${MB(BASH_OUTPUT_FILE_MAX_BYTES)}), which you can read with bash (e.g. grep or tail on that file).
- The exit code is reported; a non-zero exit code is not an error of the tool, read the output.
- Commands are not interactive (no stdin). Background processes (&) are killed when the command ends. API keys and other secrets are removed from the environment.
- Quote paths with spaces. Chain dependent commands with &&.`;

/** Where bash commands run, as the model reads it, so a sandbox refusal is recognised rather than retried. */
export function bashSandboxNote(bash: Pick<BashSettings, "sandbox" | "required" | "network">): string {
  if (bash.sandbox.kind === "none") {
    if (bash.required)
      return `- Commands are refused here: the user's settings require a sandbox and none is available (${bash.sandbox.reason ?? "no sandbox"}). Do not retry; tell the user.`;
    return "- Commands run without a sandbox, with all of the user's permissions: they can change files outside the workspace and use the network. Stay inside the workspace unless the user asks otherwise.";
  }
  const network = bash.network
    ? "Network access is allowed."
    : "There is no network (not even localhost): downloads, package installs, git fetch/push and calls to local servers fail. The user can allow network access in Settings.";
  const sockets =
    bash.sandbox.kind === "bwrap"
      ? "No Unix socket can be opened (EPERM), so tools that talk to a daemon or open an IPC pipe fail: e.g. run TypeScript with `node --import tsx file.ts` rather than the `tsx` command."
      : "Unix sockets outside the workspace cannot be reached.";
  return `- Commands run in an OS sandbox (${bash.sandbox.kind === "bwrap" ? "bubblewrap" : "sandbox-exec"}): the workspace is writable, except git's config and hooks (.git/config, .git/hooks, .git/info, .gitmodules), which are read-only (git add and commit still work); everything else is read-only, with a private empty /tmp; secret folders in the home folder (~/.ssh, ~/.aws, ~/.config/gh …) appear empty; other processes of the machine are not visible. ${sockets} ${network}
- A failure caused by the sandbox ("Read-only file system" or "Permission denied" outside the workspace or on git's config, a missing secret, "Operation not permitted" on a socket, a network error) will not go away when the command is retried in another form: write inside the workspace instead, or tell the user what needs to run outside the sandbox.`;
}

export const TODO_DESCRIPTION = `Keep a short plan of your work as a checklist, which the user sees pinned above the message box.

- Use it for work of 3 or more steps: write the plan first, then mark an item in_progress when you start it and done as soon as it is finished (not in a batch at the end). Skip it for one-step tasks.
- Each call sends the whole plan, which replaces the previous one: at most ${TODO_MAX_ITEMS} items of at most ${TODO_MAX_TEXT} characters. An empty list clears it.
- The user may edit the plan; their edit reaches you as a message. The plan is kept when older messages are compacted.
- It changes nothing in the workspace and needs no approval.`;

/** What the task tool promises for the caps in force (docs/sub-agents.md#caps-that-hold). */
export interface TaskDescriptionCaps {
  maxPerTurn: number;
  maxConcurrent: number;
  /** The sub-agents it starts may start their own (depth left below them). */
  childCanDelegate: boolean;
  /** Sub-agents get write, edit and bash (each still approved as the parent's are). */
  sideEffects: boolean;
}

export function taskDescription(caps: TaskDescriptionCaps): string {
  const tools = caps.sideEffects
    ? "It has the same tools as you; its write, edit and bash calls need the user's approval as yours do, and the card names it."
    : "It has the read-only tools (read, list, glob, grep, todo and read-only MCP tools): it can look, not change anything. Make the changes yourself.";
  return `Start a sub-agent: a separate agent with its own context that works on one sub-task you describe and returns its final answer as this tool's result.

- Use it for self-contained work whose details you do not need in your own context: searching a large codebase, reading many files to answer one question, investigating one part of a problem. Do small or sequential work yourself.
- The sub-agent sees nothing of this conversation: put everything it needs in \`prompt\` (the goal, paths, what to report back). It answers once, at the end.
- ${tools} ${caps.childCanDelegate ? "It may start sub-agents of its own." : "It cannot start sub-agents of its own."}
- At most ${caps.maxPerTurn} sub-agent${caps.maxPerTurn === 1 ? "" : "s"} per turn, ${caps.maxConcurrent} running at a time: several task calls in one message run in parallel up to that, the others wait for a free place; calls beyond the per-turn limit are refused. Use them for real parallel work, not one per file.
- The result names the sub-agent's session (its transcript, which the user can open) and holds its final answer, cut to ${KB(OUTPUT_MAX_BYTES)}.`;
}
