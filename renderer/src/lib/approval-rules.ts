/**
 * Words for approval rules, shared by the approval card, the tool card and Settings (semantics: docs/approvals.md).
 * A pattern's invisible characters are written out (⟨U+202E⟩): the words say what the rule really holds.
 */
import { revealInvisible } from "../../../shared/invisible-chars";
import type { DecidingRule } from "../../../shared/protocol";

/** What a rule allows (or denies), in words. */
export function describeRule(tool: string, pattern: string): string {
  const p = revealInvisible(pattern.trim());
  if (tool !== "bash") return p.includes("*") ? `files matching ${p}` : `the file ${p}`;
  const words = p.split(/\s+/);
  const kinds = "files inside this workspace or plain text; other options only as written here";
  if (words.length > 1 && words[words.length - 1] === "*")
    return `${words.slice(0, -1).join(" ")} with any further arguments that are ${kinds}`;
  return p.includes("*") ? `${p} (* stands for ${kinds})` : `exactly ${p}`;
}

const SOURCE: Record<DecidingRule["source"], string> = {
  session: "this session",
  workspace: "this workspace",
  settings: "settings",
};

/** "allowed by rule `npm test *` (this workspace)" */
export function decidedByText(rules: readonly DecidingRule[]): string {
  const action = rules[0]?.action === "deny" ? "denied" : "allowed";
  return `${action} by rule ${rules.map((r) => `\`${revealInvisible(r.pattern)}\``).join(", ")} (${SOURCE[rules[0]?.source ?? "settings"]})`;
}
