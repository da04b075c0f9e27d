/**
 * The approval policy for side-effect tools: ask, allow or deny, per tool, per
 * path glob (write/edit) and per command pattern (bash). Deny always wins.
 *
 * Contract: `evaluatePolicy` is pure. A bash command is auto-allowed by
 * `bashAllow` only when every sub-command (split on && || ; | & and newlines)
 * matches an allow pattern and the command has no substitution or
 * redirection; a deny pattern matching any sub-command (substitutions
 * included) denies the whole command.
 */
import { globMatcher } from "./glob-match";
import type { PolicyAction, ProposalPreview } from "./types";

/** Structurally compatible with `ApprovalPolicy` in shared/api.ts, plus path rules. */
export interface ToolPolicy {
  write: PolicyAction;
  edit: PolicyAction;
  bash: PolicyAction;
  /** Command patterns: `*` is a wildcard; a pattern also matches the same words followed by more arguments. */
  bashAllow: readonly string[];
  bashDeny: readonly string[];
  /** Workspace-relative path globs for write and edit. */
  pathAllow?: readonly string[];
  pathDeny?: readonly string[];
}

export const DEFAULT_TOOL_POLICY: ToolPolicy = {
  write: "ask",
  edit: "ask",
  bash: "ask",
  bashAllow: [],
  bashDeny: [],
  pathAllow: [],
  pathDeny: [],
};

export type SideEffectToolName = "write" | "edit" | "bash";

export interface PolicyVerdict {
  action: PolicyAction;
  /** Which rule decided, for the audit and the denial message. */
  rule: string;
}

export function evaluatePolicy(
  policy: ToolPolicy,
  sessionAllowed: ReadonlySet<string>,
  toolName: SideEffectToolName | (string & {}),
  preview: ProposalPreview,
): PolicyVerdict {
  // External (MCP) tools without readOnlyHint: asked every time unless allowed for this session.
  if (preview.kind === "mcp" || !isBuiltIn(toolName)) {
    if (sessionAllowed.has(toolName)) return { action: "allow", rule: `${toolName}: allowed for this session` };
    return { action: "ask", rule: `${toolName}: ask (external tool)` };
  }
  const toolAction = policy[toolName];
  if (toolAction === "deny") return { action: "deny", rule: `${toolName}: deny` };

  if (preview.kind === "diff") {
    const denied = (policy.pathDeny ?? []).find((g) => globMatch(g, preview.path));
    if (denied) return { action: "deny", rule: `pathDeny: ${denied}` };
    if (sessionAllowed.has(toolName)) return { action: "allow", rule: `${toolName}: allowed for this session` };
    const allowed = (policy.pathAllow ?? []).find((g) => globMatch(g, preview.path));
    if (allowed) return { action: "allow", rule: `pathAllow: ${allowed}` };
  } else {
    const { commands, complex } = splitCommand(preview.command);
    for (const cmd of commands) {
      const denied = policy.bashDeny.find((p) => commandMatches(p, cmd));
      if (denied) return { action: "deny", rule: `bashDeny: ${denied}` };
    }
    if (sessionAllowed.has(toolName)) return { action: "allow", rule: `${toolName}: allowed for this session` };
    if (!complex && commands.length > 0 && commands.every((cmd) => policy.bashAllow.some((p) => commandMatches(p, cmd)))) {
      return { action: "allow", rule: "bashAllow" };
    }
  }
  if (toolAction === "allow") return { action: "allow", rule: `${toolName}: allow` };
  return { action: "ask", rule: `${toolName}: ask` };
}

function isBuiltIn(name: string): name is SideEffectToolName {
  return name === "write" || name === "edit" || name === "bash";
}

function globMatch(glob: string, path: string): boolean {
  return globMatcher(glob)(path);
}

/** Sub-commands of a shell command line, and whether it uses constructs we do not auto-allow. */
export function splitCommand(command: string): { commands: string[]; complex: boolean } {
  const commands: string[] = [];
  let complex = false;
  let cur = "";
  let quote: "'" | '"' | null = null;
  const push = () => {
    const words = cur.trim().replace(/\s+/g, " ");
    // Leading VAR=value assignments do not change which program runs.
    const stripped = words.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, "");
    if (stripped !== "") commands.push(stripped);
    cur = "";
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    const next = command[i + 1];
    if (quote === "'") {
      if (c === "'") quote = null;
      cur += c;
      continue;
    }
    if (c === "\\") {
      cur += c + (next ?? "");
      i++;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "`" || (c === "$" && next === "(")) {
        complex = true;
        push();
        if (c === "$") i++;
        continue;
      }
      cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      cur += c;
      continue;
    }
    if (c === "`" || (c === "$" && next === "(") || c === "(" || c === ")" || c === "{" || c === "}") {
      complex = true;
      push();
      if (c === "$") i++;
      continue;
    }
    if (c === ">" || c === "<") complex = true;
    if (c === ";" || c === "\n" || c === "|" || c === "&") {
      push();
      if ((c === "|" || c === "&") && next === c) i++;
      continue;
    }
    cur += c;
  }
  push();
  return { commands, complex };
}

/** `*` is a wildcard; a pattern also matches the same words followed by more arguments. */
export function commandMatches(pattern: string, command: string): boolean {
  const p = pattern.trim().replace(/\s+/g, " ");
  if (p === "") return false;
  const source = p
    .split("*")
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const re = new RegExp(`^${source}(?: .*)?$`, "s");
  // "/bin/rm -rf x" is still rm.
  const programBase = command.replace(/^\S*\//, "");
  return re.test(command) || re.test(programBase);
}
