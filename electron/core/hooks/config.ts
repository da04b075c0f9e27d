/**
 * Hook definitions in Claude Code's settings shape:
 * `{ "hooks": { "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "…", "timeout": 30 }] }] } }`,
 * read from the workspace's `.claude/settings.json` and the user's
 * `<config folder>/settings.json` through the prompt-file reader (links out
 * refused, 256 KB at most). A workspace's hooks come with the repository, so
 * they run only once the user trusted them, pinned by content: any change to
 * them makes them untrusted again. See docs/conventions.md#hooks.
 *
 * Contract: nothing here throws; a file that cannot be read or parsed is
 * reported with the reason and contributes no hooks.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { PromptFileReader, promptText } from "../prompt-files/reader";

export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
export const HOOK_FILE_MAX_BYTES = 256 * 1024;
export const HOOK_DEFAULT_TIMEOUT_S = 60;
export const WORKSPACE_HOOKS_FILE = ".claude/settings.json";
export const USER_HOOKS_FILE = "settings.json";

const CommandHook = z.object({
  type: z.literal("command"),
  command: z.string().min(1).max(8000),
  timeout: z.number().positive().max(600).optional(),
});
const Matcher = z.object({ matcher: z.string().max(500).optional(), hooks: z.array(CommandHook).max(50) });
const HooksFile = z.object({ hooks: z.partialRecord(z.enum(HOOK_EVENTS), z.array(Matcher).max(50)).optional() }).loose();

export interface HookDef {
  event: HookEvent;
  matcher: string;
  command: string;
  timeoutS: number;
  source: "workspace" | "user";
}

export interface LoadedHooks {
  hooks: HookDef[];
  /** sha256 of the workspace's hook definitions (what trust pins), null without any. */
  workspaceFingerprint: string | null;
  problems: { path: string; reason: string }[];
}

function defsOf(parsed: z.infer<typeof HooksFile>, source: HookDef["source"]): HookDef[] {
  const out: HookDef[] = [];
  for (const event of HOOK_EVENTS) {
    for (const m of parsed.hooks?.[event] ?? []) {
      for (const h of m.hooks)
        out.push({ event, matcher: m.matcher ?? "", command: h.command, timeoutS: h.timeout ?? HOOK_DEFAULT_TIMEOUT_S, source });
    }
  }
  return out;
}

export function fingerprintOf(defs: readonly HookDef[]): string {
  const canonical = JSON.stringify(defs.map((d) => [d.event, d.matcher, d.command, d.timeoutS]));
  return createHash("sha256").update(canonical).digest("hex");
}

async function readFile(
  root: string | null,
  scope: "workspace" | "user",
  rel: string,
  problems: LoadedHooks["problems"],
): Promise<HookDef[]> {
  if (!root) return [];
  const reader = await PromptFileReader.open(root, scope);
  if (!reader) return [];
  const read = await reader.read(rel, { maxBytes: HOOK_FILE_MAX_BYTES, over: "refuse" });
  if (!read.ok) {
    if (!read.missing) problems.push({ path: read.path, reason: read.reason });
    return [];
  }
  let json: unknown;
  try {
    json = JSON.parse(promptText(read.file));
  } catch (err) {
    problems.push({ path: read.file.path, reason: `not valid JSON (${err instanceof Error ? err.message : "?"})` });
    return [];
  }
  const parsed = HooksFile.safeParse(json);
  if (!parsed.success) {
    problems.push({ path: read.file.path, reason: `its hooks are not in the expected shape: ${parsed.error.issues[0]?.message ?? "?"}` });
    return [];
  }
  return defsOf(parsed.data, scope);
}

export async function loadHooks(input: { workspaceRoot: string; userDir: string | null }): Promise<LoadedHooks> {
  const problems: LoadedHooks["problems"] = [];
  const user = await readFile(input.userDir, "user", USER_HOOKS_FILE, problems);
  const workspace = await readFile(input.workspaceRoot, "workspace", WORKSPACE_HOOKS_FILE, problems);
  return { hooks: [...user, ...workspace], workspaceFingerprint: workspace.length > 0 ? fingerprintOf(workspace) : null, problems };
}

/** Claude Code's names for our tools, so that its matchers (`Bash`, `Write|Edit`) apply. */
const CLAUDE_NAMES: Record<string, string> = {
  bash: "Bash",
  write: "Write",
  edit: "Edit",
  read: "Read",
  glob: "Glob",
  grep: "Grep",
  list: "LS",
  webfetch: "WebFetch",
  todo: "TodoWrite",
  task: "Task",
  skill: "Skill",
};

export function claudeToolName(tool: string): string {
  return CLAUDE_NAMES[tool] ?? tool;
}

/** Whether a matcher selects the tool: empty or `*` is every tool; else a regular expression on our name or Claude Code's. */
export function matches(matcher: string, tool: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${matcher})$`);
  } catch {
    return false;
  }
  return re.test(tool) || re.test(claudeToolName(tool));
}
