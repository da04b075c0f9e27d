/** Rules as the approval card offers them: the exact rule for a call, and whether a rule covers a proposal. */
import type { ToolCallInput } from "../runtime-types";
import { plainCommands } from "../shell-parse";
import type { Proposal } from "../types";
import { evaluatePolicy, type PolicyContext, type PolicyRule, type SideEffectToolName } from "./policy";
import { hostRuleProblem } from "../../webfetch/hosts";
import { invalidBashAllow } from "./rule-match";

/** Why this rule would not cover the proposal (it must, to be offered for it), or null. */
export function ruleProblem(
  proposal: Proposal,
  pattern: string,
  action: "allow" | "deny" = "allow",
  context: PolicyContext = {},
): string | null {
  const tool = proposal.toolName;
  if (!isBuiltInSideEffect(tool)) return `rules apply to bash, write, edit and webfetch, not ${tool}`;
  const rule: PolicyRule = { tool, action, pattern: pattern.trim(), source: "session" };
  if (tool === "webfetch") {
    const invalid = hostRuleProblem(rule.pattern);
    if (invalid) return invalid;
  }
  if (tool === "bash" && action === "allow") {
    const invalid = invalidBashAllow(rule.pattern);
    if (invalid) return invalid;
    const p = proposal.preview;
    if (p.kind === "command" && p.sandboxed === false && p.sandboxOff !== true)
      return "this machine has no OS sandbox, so no rule allows bash here; approve it once instead";
  }
  const bare = { write: "ask", edit: "ask", bash: "ask", bashAllow: [], bashDeny: [] } as const;
  const verdict = evaluatePolicy(bare, [rule], tool, proposal.preview, new Set(), context.inside ? { inside: context.inside } : {});
  if (verdict.action === action) return null;
  if (verdict.notCoverable) return `no rule can cover this command: it has ${verdict.notCoverable}; approve it once instead`;
  return `the rule \`${rule.pattern}\` does not cover this ${tool === "bash" ? "command" : tool === "webfetch" ? "host" : "file"}`;
}

/** The rule that covers exactly this call: the command's words, or the file. Null when none can (a command with a redirection, …). */
export function exactRule(proposal: Proposal): string | null {
  if (proposal.preview.kind === "diff") return proposal.preview.path;
  if (proposal.preview.kind === "fetch") return proposal.preview.host;
  if (proposal.preview.kind !== "command") return null;
  const words = plainCommands(proposal.preview.command);
  if (!words.ok || words.commands.length !== 1 || words.commands[0].some((w) => /\s|\*/.test(w))) return null;
  return words.commands[0].join(" ");
}

export function isBuiltInSideEffect(name: string): name is SideEffectToolName {
  return name === "write" || name === "edit" || name === "bash" || name === "webfetch";
}

export function callOf(proposal: Proposal): Pick<ToolCallInput, "id" | "name"> {
  return { id: proposal.toolCallId, name: proposal.toolName };
}

export function sameProposal(a: Proposal, b: Proposal): boolean {
  return a === b || (a.toolName === b.toolName && a.fingerprint === b.fingerprint && JSON.stringify(a.args) === JSON.stringify(b.args));
}
