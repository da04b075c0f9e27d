/**
 * The approval policy for side-effect tools: ask, allow or deny, from the
 * per-tool setting and the rules (global settings, saved per workspace,
 * approved for this session). See docs/approvals.md.
 *
 * Contract: `evaluatePolicy` is pure (where the command's paths point comes
 * in `context.inside`, resolved beforehand: operand-places.ts). Deny wins:
 * the tool set to deny, or any deny rule matching any command the line may
 * run (bash) or the path (write/edit). Then `context.askEach` (a headless run
 * with --approve none or read-only) asks for everything. A bash command is
 * auto-allowed by rules only when the shell grammar reads it as plain
 * commands joined by ; && || | and every one of them is covered by an allow
 * rule (`shell-parse.ts`, `rule-match.ts`); without an OS sandbox on the
 * machine nothing auto-allows bash. A write or edit inside `.git/` is never
 * auto-allowed. webfetch is decided by host rules (deny wins), else asked.
 * The verdict names the rules that decided.
 */
import type { DecidingRule } from "../../../../shared/protocol";
import { allCommands, plainCommands } from "../shell-parse";
import type { PolicyAction, ProposalPreview } from "../types";
import { parseWords } from "./command-words";
import { LAUNCHERS } from "./launchers";
import { programSpec } from "./programs";
import { hostCovers, suggestHostRules } from "../../webfetch/hosts";
import { bashAllowCovers, bashDenyCovers, commandFolders, pathCovers } from "./rule-match";

/** What the policy knows beyond the call: where paths point, and a run that asks for everything. */
export interface PolicyContext {
  /** Whether an absolute path is inside the workspace (operand-places.ts); absent: every path is outside. */
  inside?: (path: string) => boolean;
  /** Every side effect not denied is asked, whatever the rules and settings allow (headless --approve none/read-only). */
  askEach?: string;
}

/** Structurally compatible with `ApprovalPolicy` in shared/api.ts, plus path rules. */
export interface ToolPolicy {
  write: PolicyAction;
  edit: PolicyAction;
  bash: PolicyAction;
  /** Command rules (rule-match.ts): `npm test` exactly, `npm test *` with any further arguments. */
  bashAllow: readonly string[];
  bashDeny: readonly string[];
  /** Workspace-relative path globs for write and edit. */
  pathAllow?: readonly string[];
  pathDeny?: readonly string[];
  /** webfetch: absent is ask. Its rules are hosts (`docs.example.com`, `*.example.com`, webfetch/hosts.ts). */
  webfetch?: PolicyAction;
  hostAllow?: readonly string[];
  hostDeny?: readonly string[];
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

export type SideEffectToolName = "write" | "edit" | "bash" | "webfetch";

/** A rule as the policy sees it (saved, session or from the settings). */
export type PolicyRule = DecidingRule;

export interface PolicyVerdict {
  action: PolicyAction;
  /** Which rule decided, in words, for the audit and the denial message. */
  rule: string;
  /** The rules that decided, when rules did. */
  rules?: DecidingRule[];
  /** Why an allow rule could not apply to this bash command (it has a redirection, …), when one was tried. */
  notCoverable?: string;
}

/** The settings' lists as rules. */
export function settingsRules(policy: ToolPolicy): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const pattern of policy.bashDeny) rules.push({ tool: "bash", action: "deny", pattern, source: "settings" });
  for (const pattern of policy.bashAllow) rules.push({ tool: "bash", action: "allow", pattern, source: "settings" });
  for (const tool of ["write", "edit"] as const) {
    for (const pattern of policy.pathDeny ?? []) rules.push({ tool, action: "deny", pattern, source: "settings" });
    for (const pattern of policy.pathAllow ?? []) rules.push({ tool, action: "allow", pattern, source: "settings" });
  }
  for (const pattern of policy.hostDeny ?? []) rules.push({ tool: "webfetch", action: "deny", pattern, source: "settings" });
  for (const pattern of policy.hostAllow ?? []) rules.push({ tool: "webfetch", action: "allow", pattern, source: "settings" });
  return rules;
}

/** `externalAllowed`: external (MCP) tool names approved for this session; rules do not apply to them. */
export function evaluatePolicy(
  policy: ToolPolicy,
  extraRules: readonly PolicyRule[],
  toolName: SideEffectToolName | (string & {}),
  preview: ProposalPreview,
  externalAllowed: ReadonlySet<string> = new Set(),
  context: PolicyContext = {},
): PolicyVerdict {
  // External (MCP) tools without readOnlyHint: asked every time unless allowed for this session.
  if (preview.kind === "mcp" || !isBuiltIn(toolName)) {
    if (context.askEach) return { action: "ask", rule: `${toolName}: ask (${context.askEach})` };
    if (externalAllowed.has(toolName)) return { action: "allow", rule: `${toolName}: allowed for this session` };
    return { action: "ask", rule: `${toolName}: ask (external tool)` };
  }
  const toolAction = policy[toolName] ?? "ask";
  if (toolAction === "deny") return { action: "deny", rule: `${toolName}: deny` };
  const rules = [...settingsRules(policy), ...extraRules].filter((r) => r.tool === toolName);
  const denies = rules.filter((r) => r.action === "deny");
  const allows = rules.filter((r) => r.action === "allow");
  let notCoverable: string | undefined;

  if (preview.kind === "fetch") {
    const denied = denies.find((r) => hostCovers(r.pattern, preview.host));
    if (denied) return ruled("deny", [denied]);
    if (context.askEach) return { action: "ask", rule: `${toolName}: ask (${context.askEach})` };
    const allowed = allows.find((r) => hostCovers(r.pattern, preview.host));
    if (allowed) return ruled("allow", [allowed]);
  } else if (preview.kind === "diff") {
    const denied = denies.find((r) => pathCovers(r.pattern, preview.path, "deny"));
    if (denied) return ruled("deny", [denied]);
    if (context.askEach) return { action: "ask", rule: `${toolName}: ask (${context.askEach})` };
    // .git/config and .git/hooks hold commands git runs later, outside any sandbox: always asked.
    if (isGitInternal(preview.path)) return { action: "ask", rule: `${toolName}: ask (a file inside .git/)` };
    const allowed = allows.find((r) => pathCovers(r.pattern, preview.path, "allow"));
    if (allowed) return ruled("allow", [allowed]);
  } else {
    const everything = allCommands(preview.command);
    for (const words of everything) {
      const denied = denies.find((r) => bashDenyCovers(r.pattern, words));
      if (denied) return ruled("deny", [denied]);
    }
    if (context.askEach) return { action: "ask", rule: `${toolName}: ask (${context.askEach})` };
    // No OS sandbox on this machine: an approval is the only control left, so every call asks.
    if (preview.sandboxed === false && preview.sandboxOff !== true)
      return { action: "ask", rule: "bash: ask (no OS sandbox on this machine)" };
    const plain = plainCommands(preview.command);
    if (allows.length > 0) {
      if (plain.ok) {
        const folders = commandFolders(plain.commands, preview.cwd);
        const inside = context.inside ?? (() => false);
        const deciding: PolicyRule[] = [];
        for (const [i, words] of plain.commands.entries()) {
          const rule = allows.find((r) => bashAllowCovers(r.pattern, words, { cwds: folders[i], inside }));
          if (!rule) {
            deciding.length = 0;
            break;
          }
          if (!deciding.includes(rule)) deciding.push(rule);
        }
        if (deciding.length > 0) return ruled("allow", deciding);
      } else {
        notCoverable = plain.reason;
      }
    }
    // Deny rules read only what they can see: a line they cannot read (`$(echo rm) -rf x`) is asked, not let through by the setting.
    if (toolAction === "allow" && denies.length > 0 && !plain.ok)
      return { action: "ask", rule: `bash: ask (the deny rules cannot read this command: ${plain.reason})`, notCoverable: plain.reason };
  }
  if (toolAction === "allow") return { action: "allow", rule: `${toolName}: allow` };
  return { action: "ask", rule: `${toolName}: ask`, ...(notCoverable ? { notCoverable } : {}) };
}

function isGitInternal(path: string): boolean {
  return path.split("/").includes(".git");
}

function ruled(action: "allow" | "deny", rules: PolicyRule[]): PolicyVerdict {
  const names = rules.map((r) => `\`${r.pattern}\``).join(", ");
  const from = rules[0].source === "session" ? " (this session)" : rules[0].source === "workspace" ? " (this workspace)" : " (settings)";
  return {
    action,
    rule: `${action === "allow" ? "allowed" : "denied"} by rule ${names}${from}`,
    rules: rules.map(({ tool, action: a, pattern, source }) => ({ tool, action: a, pattern, source })),
  };
}

function isBuiltIn(name: string): name is SideEffectToolName {
  return name === "write" || name === "edit" || name === "bash" || name === "webfetch";
}

/**
 * Rules a card offers for this call, narrowest first. bash: the exact command
 * (when an allow rule can cover it at all), then — for a program with a
 * table that does not mark it never-suggest — the program, its sub-commands
 * and the options it used that are not harmless, followed by `*`
 * (`git push --force origin main` → `git push --force *`); never when an
 * option runs, writes or reads something of its own choosing, or an operand
 * is code or a command. write/edit: the file, then its folder.
 */
export function suggestRules(toolName: SideEffectToolName, preview: ProposalPreview): string[] {
  if (preview.kind === "fetch") return suggestHostRules(preview.host);
  if (preview.kind === "diff") {
    const slash = preview.path.lastIndexOf("/");
    return slash === -1 ? [preview.path] : [preview.path, `${preview.path.slice(0, slash)}/**`];
  }
  if (toolName !== "bash" || preview.kind !== "command") return [];
  const plain = plainCommands(preview.command);
  if (!plain.ok || plain.commands.length !== 1) return [];
  const words = plain.commands[0];
  if (words.some((w) => /\s|\*/.test(w)) || LAUNCHERS.has(words[0])) return [];
  const out = [words.join(" ")];
  const wide = wildcardRule(words);
  if (wide !== null && wide !== out[0]) out.push(wide);
  return out;
}

function wildcardRule(words: readonly string[]): string | null {
  const spec = programSpec(words[0]);
  if (!spec || spec.neverSuggestWildcard) return null;
  const parsed = parseWords(words.slice(1), spec);
  if (!parsed.ok || parsed.value.spec.neverSuggestWildcard) return null;
  const { path, options, operands } = parsed.value;
  if (options.some((o) => o.spec.effect) || operands.some((o) => o.kind === "code" || o.kind === "command")) return null;
  const kept = options.filter((o) => !o.spec.free);
  const spelled = kept.map((o) =>
    o.values.length === 0
      ? o.canonical
      : o.canonical.startsWith("--") && o.values.length === 1
        ? `${o.canonical}=${o.values[0]}`
        : [o.canonical, ...o.values].join(" "),
  );
  return [words[0], ...path, ...spelled, "*"].join(" ");
}
