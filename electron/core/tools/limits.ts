/**
 * Every limit the tools enforce. Descriptions interpolate these same constants,
 * so what the model is told and what the code does cannot drift apart.
 */

/** read: lines returned per call when no `limit` is given. */
export const READ_MAX_LINES = 2000;
/** read, bash, grep …: bytes of text returned per call. */
export const OUTPUT_MAX_BYTES = 50 * 1024;
/** read: longer lines are cut. */
export const READ_MAX_LINE_CHARS = 2000;
/** read: text files above this size are refused (use grep or offset on a smaller file). */
export const READ_MAX_FILE_BYTES = 20 * 1024 * 1024;
/** read: images above this size are refused. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** read: bytes sniffed to tell binary from text. */
export const BINARY_SNIFF_BYTES = 8192;

/** write/edit: files above this size are not edited in place. */
export const EDIT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** list: entries per page. */
export const LIST_MAX_ENTRIES = 500;
/** glob: paths per page. */
export const GLOB_MAX_RESULTS = 100;
/** grep: matching lines per call. */
export const GREP_MAX_MATCHES = 100;
/** grep: longer lines are cut. */
export const GREP_MAX_LINE_CHARS = 500;
/** grep: context lines at most. */
export const GREP_MAX_CONTEXT = 10;
/** grep: matching lines collected before the search stops and asks to narrow it. */
export const GREP_MAX_COLLECTED = 5000;

/** bash: default and maximum timeout. */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** bash: tail kept for the model. */
export const BASH_MAX_LINES = 2000;
/** bash: SIGTERM, then SIGKILL after this grace. */
export const BASH_KILL_GRACE_MS = 2000;
/** bash: the file of a cut command's output keeps its first this many bytes (the model gets the tail). */
export const BASH_OUTPUT_FILE_MAX_BYTES = 32 * 1024 * 1024;
/** bash: output files kept per session, and for all sessions together; past either, the oldest are removed. */
export const BASH_OUTPUT_SESSION_MAX_BYTES = 128 * 1024 * 1024;
export const BASH_OUTPUT_TOTAL_MAX_BYTES = 512 * 1024 * 1024;

/** A regular expression from the model or the user may run this long on one batch of text before it is stopped. */
export const REGEX_JOB_TIMEOUT_MS = 5_000;

/** Read-only tools give up after this long (file system stuck on a network mount …). */
export const READONLY_TIMEOUT_MS = 60_000;

/** task: characters of the sub-task's short name and of its prompt. */
export const TASK_DESCRIPTION_MAX_CHARS = 80;
export const TASK_PROMPT_MAX_CHARS = 20_000;

export const KB = (bytes: number): string => `${Math.round(bytes / 1024)} KB`;
