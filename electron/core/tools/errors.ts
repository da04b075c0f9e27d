/**
 * The typed errors the model meets. Messages say what went wrong and hints
 * say what to do next; the golden strings are snapshotted in
 * test/tools/__snapshots__ so a change in wording is a reviewed change.
 */
import { TOOL_ERROR_RETRYABLE, type ToolError, type ToolErrorCode, type ToolOutcome } from "./types";

export function toolError(errorCode: ToolErrorCode, message: string, hint?: string): ToolError {
  const error: ToolError = { errorCode, retryable: TOOL_ERROR_RETRYABLE[errorCode], message };
  if (hint !== undefined) error.hint = hint;
  return error;
}

export function failure(error: ToolError, details?: Record<string, unknown>): ToolOutcome {
  return details === undefined ? { ok: false, error } : { ok: false, error, details };
}

export const errors = {
  invalidJson: (tool: string, reason: string) =>
    toolError(
      "INVALID_ARGUMENTS",
      `The arguments of this ${tool} call are not valid JSON (${reason}).`,
      `Send the ${tool} call again with a complete, valid JSON object as arguments.`,
    ),
  invalidArguments: (tool: string, issues: string) =>
    toolError(
      "INVALID_ARGUMENTS",
      `The ${tool} tool was called with invalid arguments:\n${issues}`,
      `Rewrite the arguments so they match the ${tool} schema and call it again.`,
    ),
  unknownTool: (name: string, available: readonly string[]) =>
    toolError("UNKNOWN_TOOL", `There is no tool named "${name}".`, `Available tools: ${available.join(", ")}.`),
  emptyPath: () => toolError("INVALID_ARGUMENTS", "The path is empty.", "Give a path relative to the workspace root, e.g. src/index.ts."),
  nulInPath: () =>
    toolError("INVALID_ARGUMENTS", "The path contains a NUL byte.", "Give a plain path relative to the workspace root, e.g. src/index.ts."),
  backslashPath: (path: string) =>
    toolError(
      "INVALID_ARGUMENTS",
      `The path "${path}" contains a backslash.`,
      "Use forward slashes, relative to the workspace root, e.g. src/index.ts.",
    ),
  confusablePath: (path: string) =>
    toolError(
      "INVALID_ARGUMENTS",
      `The path "${path}" contains characters that look like "." or "/" but are not.`,
      "Use plain ASCII dots and forward slashes, relative to the workspace root.",
    ),
  outsideWorkspace: (path: string) =>
    toolError(
      "OUTSIDE_WORKSPACE",
      `The path "${path}" is outside the workspace; only files inside the workspace can be used.`,
      "Use a path relative to the workspace root, e.g. src/index.ts.",
    ),
  symlinkOutside: (path: string) =>
    toolError(
      "OUTSIDE_WORKSPACE",
      `The path "${path}" goes through a symbolic link that points outside the workspace.`,
      "Only files whose real location is inside the workspace can be used.",
    ),
  notFound: (path: string, suggestions: readonly string[] = []) =>
    toolError(
      "NOT_FOUND",
      `File not found: ${path}`,
      suggestions.length > 0 ? `Did you mean one of these?\n${suggestions.join("\n")}` : "Check the path with list or glob.",
    ),
  dirNotFound: (path: string) =>
    toolError("NOT_FOUND", `Directory not found: ${path}`, "Check the path with list from the workspace root."),
  isDirectory: (path: string) => toolError("IS_DIRECTORY", `${path} is a directory, not a file.`, "Use list to see what it contains."),
  notADirectory: (path: string) =>
    toolError("NOT_A_DIRECTORY", `${path} is a file, not a directory.`, "Use read to read it, or give its folder."),
  specialFile: (path: string, kind: string) =>
    toolError(
      "SPECIAL_FILE",
      `${path} is a ${kind}, not a regular file; it cannot be used.`,
      "Only regular files and folders can be used.",
    ),
  binaryFile: (path: string) =>
    toolError(
      "BINARY_FILE",
      `${path} is a binary file and cannot be shown as text.`,
      "Use bash (for example `file` or `xxd | head`) if you really need its bytes.",
    ),
  notUtf8: (path: string) =>
    toolError(
      "BINARY_FILE",
      `${path} is not valid UTF-8 text (Latin-1, Windows-1252 or another encoding); editing it would replace every such character with "\uFFFD", so it was left unchanged.`,
      "Change it with bash (for example sed, which keeps the other bytes), or ask the user whether to convert it to UTF-8 (iconv) first.",
    ),
  tooLarge: (path: string, size: number, max: number, hint: string) =>
    toolError("TOO_LARGE", `${path} is ${size} bytes, over the ${max}-byte limit.`, hint),
  offsetPastEnd: (path: string, offset: number, total: number) =>
    toolError(
      "INVALID_ARGUMENTS",
      `offset ${offset} is past the end of ${path} (${total} lines).`,
      total === 0 ? "The file is empty." : `Use an offset between 1 and ${total}.`,
    ),
  noChange: (label: string | null) =>
    toolError(
      "NO_CHANGE",
      `${label ? `${label}: ` : ""}oldText and newText are identical, so there is nothing to change.`,
      "Put the new text in newText, or leave this edit out.",
    ),
  editsChangeNothing: (rel: string) =>
    toolError("NO_CHANGE", `The edits leave ${rel} exactly as it is.`, "Check that newText holds the change you want."),
  writeNoChange: (rel: string) =>
    toolError("NO_CHANGE", `${rel} already has exactly this content; nothing to write.`, "No action is needed."),
  editNotFound: (rel: string, what: string, nearest: { startLine: number; endLine: number; text: string } | null) =>
    nearest
      ? toolError(
          "NO_MATCH",
          `Could not find ${what} in ${rel}. The closest region is lines ${nearest.startLine}-${nearest.endLine}:\n${nearest.text}`,
          `Re-read ${rel} (read with offset=${nearest.startLine}) and copy oldText exactly from it, including whitespace and indentation.`,
        )
      : toolError(
          "NO_MATCH",
          `Could not find ${what} in ${rel}, and no similar region exists.`,
          `Re-read ${rel} with read; it may not contain what you expect. Copy oldText exactly from the current content.`,
        ),
  editCutLine: (rel: string, what: string, marker: string) =>
    toolError(
      "NO_MATCH",
      `Could not find ${what} in ${rel}: it contains "${marker}", which read adds to a line it shortened; that text is not in the file.`,
      "Put only a unique part of the long line in oldText (edit matches part of a line), without the marker.",
    ),
  editAmbiguous: (rel: string, what: string, lines: readonly number[]) =>
    toolError(
      "AMBIGUOUS_MATCH",
      `${what} matches ${lines.length} places in ${rel} (lines ${lines.slice(0, 20).join(", ")}${lines.length > 20 ? ", …" : ""}).`,
      "Add surrounding lines to oldText so it matches only one place, or set replaceAll: true to change all of them.",
    ),
  editOverlap: (rel: string, a: number, b: number) =>
    toolError(
      "INVALID_ARGUMENTS",
      a === b ? `edits[${a}] matches overlapping regions of ${rel}.` : `edits[${b}] overlaps edits[${a}] in ${rel}.`,
      "Merge overlapping edits into one edit whose oldText covers both regions.",
    ),
  conflict: (path: string) =>
    toolError(
      "CONFLICT",
      `${path} changed on disk after this change was proposed; it was not overwritten.`,
      "Read the file again and redo the change against its current content.",
    ),
  timeout: (what: string, ms: number) =>
    toolError("TIMEOUT", `${what} timed out after ${formatSeconds(ms)}.`, "Narrow the request, or raise `timeout` if the tool has one."),
  loneSurrogate: (field: string) =>
    toolError(
      "INVALID_ARGUMENTS",
      `${field} contains half of a surrogate pair (a lone UTF-16 surrogate, e.g. \\ud83d without its partner): it cannot be written as UTF-8 and could match inside an emoji, so nothing was changed.`,
      "Send whole characters: copy the text again from the read output, or write the character as it appears in the file.",
    ),
  regexTooSlow: (pattern: string, what: string, ms: number) =>
    toolError(
      "TIMEOUT",
      `The pattern ${JSON.stringify(pattern)} took longer than ${formatSeconds(ms)} on one batch of ${what} and was stopped: it backtracks catastrophically (nested or adjacent quantifiers such as (a+)+ or many wildcards in a row).`,
      "Simplify the pattern (no nested quantifiers, fewer wildcards), or set literal: true for plain text.",
    ),
  aborted: () => toolError("ABORTED", "The tool call was aborted by the user.", "Do not retry it unless the user asks."),
  denied: (reason?: string) =>
    toolError(
      "DENIED",
      reason ? `The user denied this tool call: ${reason}` : "This tool call was denied.",
      "Do not repeat the same call; change the approach or ask the user.",
    ),
  deniedByPolicy: (rule: string) =>
    toolError(
      "DENIED",
      `This tool call was denied by the workspace policy (${rule}).`,
      "Do not repeat the same call; change the approach or ask the user.",
    ),
  notApproved: () =>
    toolError("DENIED", "This side-effect call was executed without an approval.", "Propose it again; it must be approved before it runs."),
  sandboxUnavailable: (reason: string) =>
    toolError(
      "SANDBOX_UNAVAILABLE",
      `bash is set to run only in the OS sandbox, and this machine has none that works: ${reason}.`,
      "Do the task with the file tools (read, write, edit, list, glob, grep), or tell the user; they can install bubblewrap or allow unsandboxed commands in Settings → Bash sandbox.",
    ),
  readOnlyMode: (tool: string) =>
    toolError(
      "READ_ONLY_MODE",
      `${tool} changes things, and this session is in Ask mode: only read-only tools may run.`,
      "Answer from what read-only tools show, or describe the change you would make; the user can leave Ask mode to let you make it.",
    ),
  budgetExceeded: (limit: string) =>
    toolError(
      "TOOL_BUDGET_EXCEEDED",
      `The tool budget for this turn is used up (limit: ${limit}).`,
      "Do not call more tools: answer the user now from what you already have, and say what is left to do.",
    ),
  badCursor: (cursor: string) =>
    toolError(
      "INVALID_ARGUMENTS",
      `The cursor "${cursor}" is not valid.`,
      "Use the cursor exactly as given at the end of the previous answer, or omit it to start over.",
    ),
  changedDuringUse: (path: string) =>
    toolError(
      "OUTSIDE_WORKSPACE",
      `The path "${path}" changed while it was being opened (a symbolic link or folder was swapped); nothing was done.`,
      "Try again; if it keeps happening, something else is modifying the workspace.",
    ),
  io: (path: string, code: string) =>
    toolError(
      "IO_ERROR",
      `Could not access ${path} (${code}).`,
      "Check the path and permissions; retrying may help if the error was temporary.",
    ),
} as const;

export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
}

/** The `code` of a Node system error, without trusting its shape. */
export function errnoCode(err: unknown): string {
  if (typeof err === "object" && err !== null && "code" in err && typeof err.code === "string") return err.code;
  return "UNKNOWN";
}
