/**
 * Settings → the open workspace's saved approval rules ("always allow" /
 * "always deny"): listed, edited (pattern and action) and revoked, each change
 * saved at once. Deny wins over allow. Semantics: docs/approvals.md.
 */
import { useCallback, useEffect, useState } from "react";
import type { ApprovalRule } from "../../../../shared/api";
import { hasInvisible, revealInvisible } from "../../../../shared/invisible-chars";
import { client } from "../../api/current";
import { describeRule } from "../../lib/approval-rules";
import { useAppStore } from "../../stores/app-store";
import { useWorkspaceStore } from "../../stores/workspace-store";

type Tool = ApprovalRule["tool"];
type Action = ApprovalRule["action"];

export function WorkspaceRules({ headingId }: { headingId: string }) {
  const workspace = useWorkspaceStore((s) => s.workspace);
  const [rules, setRules] = useState<ApprovalRule[] | null>(null);
  const [tool, setTool] = useState<Tool>("bash");
  const [action, setAction] = useState<Action>("allow");
  const [pattern, setPattern] = useState("");

  const report = (what: string, err: unknown) => useAppStore.getState().reportError(what, err);
  const load = useCallback(async () => {
    if (!workspace) return;
    try {
      setRules(await client().call("rules.list", { workspaceId: workspace.id }));
    } catch (err) {
      report("Could not load the rules", err);
    }
  }, [workspace]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- loads the rules when the dialog opens for a workspace (async; sets state when they arrive)
    void load();
  }, [load]);

  if (!workspace) {
    return (
      <section aria-labelledby={headingId}>
        <h3 id={headingId}>Rules for this workspace</h3>
        <p className="muted">Open a workspace to see its rules.</p>
      </section>
    );
  }

  const add = async () => {
    try {
      await client().call("rules.add", { workspaceId: workspace.id, tool, action, pattern: pattern.trim() });
      setPattern("");
      await load();
    } catch (err) {
      report("Could not add the rule", err);
    }
  };
  const update = async (rule: ApprovalRule, patch: { action?: Action; pattern?: string }) => {
    try {
      await client().call("rules.update", { workspaceId: workspace.id, id: rule.id, ...patch });
    } catch (err) {
      report("Could not change the rule", err);
    }
    await load();
  };
  const remove = async (rule: ApprovalRule) => {
    try {
      await client().call("rules.remove", { workspaceId: workspace.id, id: rule.id });
    } catch (err) {
      report("Could not revoke the rule", err);
    }
    await load();
  };

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Rules for this workspace</h3>
      <p className="muted">
        Saved from an approval card (“Always allow”) or here, for <code>{workspace.name}</code> only, in the app's database (not in the
        folder). Deny wins. bash: <code>npm test</code> is exactly that command, <code>npm test *</code> adds any further arguments;
        write/edit: a path or glob such as <code>docs/**</code>.
      </p>
      {rules && rules.length === 0 && <p className="muted">No saved rules.</p>}
      <ul className="rule-list" aria-label="Saved rules">
        {(rules ?? []).map((r) => (
          <RuleRow key={r.id} rule={r} onUpdate={(patch) => void update(r, patch)} onRemove={() => void remove(r)} />
        ))}
      </ul>
      <div className="rule-add">
        <select aria-label="New rule tool" value={tool} onChange={(e) => setTool(e.target.value as Tool)}>
          <option value="bash">bash</option>
          <option value="write">write</option>
          <option value="edit">edit</option>
        </select>
        <select aria-label="New rule action" value={action} onChange={(e) => setAction(e.target.value as Action)}>
          <option value="allow">always allow</option>
          <option value="deny">always deny</option>
        </select>
        <input
          aria-label="New rule pattern"
          value={pattern}
          placeholder={tool === "bash" ? "npm test *" : "docs/**"}
          onChange={(e) => setPattern(e.target.value)}
          spellCheck={false}
        />
        <button type="button" disabled={pattern.trim() === ""} onClick={() => void add()}>
          Add rule
        </button>
      </div>
    </section>
  );
}

function RuleRow({
  rule,
  onUpdate,
  onRemove,
}: {
  rule: ApprovalRule;
  onUpdate(patch: { action?: Action; pattern?: string }): void;
  onRemove(): void;
}) {
  const [text, setText] = useState(rule.pattern);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- resets local editing state when the item it edits changes; the component is reused across items
  useEffect(() => setText(rule.pattern), [rule.pattern]);
  const commit = () => {
    if (text.trim() && text.trim() !== rule.pattern) onUpdate({ pattern: text.trim() });
    else setText(rule.pattern);
  };
  // The box draws the pattern as the browser does (a bidi override reorders it): the words name it as it is.
  const shown = revealInvisible(rule.pattern);
  return (
    <li className="rule-row" data-rule={rule.pattern}>
      <span className="badge">{rule.tool}</span>
      <select aria-label={`Action of ${shown}`} value={rule.action} onChange={(e) => onUpdate({ action: e.target.value as Action })}>
        <option value="allow">always allow</option>
        <option value="deny">always deny</option>
      </select>
      <input
        aria-label={`Pattern of ${shown}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === "Enter" && commit()}
        spellCheck={false}
      />
      <span className="muted">
        {describeRule(rule.tool, rule.pattern)}
        {hasInvisible(rule.pattern) ? " (it holds invisible or control characters)" : ""}
      </span>
      {rule.problem ? (
        <span className="rule-problem" role="note">
          Covers nothing now: {rule.problem}
        </span>
      ) : null}
      <button type="button" className="danger" onClick={onRemove} aria-label={`Revoke ${shown}`}>
        Revoke
      </button>
    </li>
  );
}
