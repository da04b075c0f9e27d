/**
 * PreToolUse and PostToolUse hooks around a session's tool port. Before a
 * call, the matching hooks run with Claude Code's JSON on stdin
 * (`session_id`, `cwd`, `hook_event_name`, `tool_name`, `tool_input`); a hook
 * denies with exit status 2 (stderr is the reason) or with
 * `hookSpecificOutput.permissionDecision` "deny" (or the older
 * `decision: "block"`), the reason going to the model; "ask" makes the call
 * wait for the user even where the rules would allow it. Hooks only make
 * things stricter: an "allow" never lifts the approval policy's ask or deny,
 * so a repository's hook cannot approve its own `rm -rf`. After a call,
 * PostToolUse hooks get `tool_response` too. Every run (command, exit
 * status, output, decision; or why it did not run) is stored in the result's
 * `details.hooks`. Workspace hooks run only when the user trusted their
 * current content. See docs/conventions.md#hooks.
 */
import type { ToolCall } from "../../../shared/protocol";
import type { ToolRuntimePort } from "../agent/ports";
import { failure, toolError } from "../tools/errors";
import type { Proposal, ToolOutcome } from "../tools/types";
import { claudeToolName, matches, type HookDef, type HookEvent, type LoadedHooks } from "./config";
import { runHookCommand, type HookRunContext } from "./runner";

export interface HookRecord {
  event: HookEvent;
  command: string;
  source: HookDef["source"];
  ran: boolean;
  /** Why it did not run (untrusted). */
  skipped?: string;
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  timedOut?: boolean;
  decision?: "allow" | "deny" | "ask";
  reason?: string;
}

export interface HookHost {
  sessionId: string;
  load(): Promise<LoadedHooks>;
  /** Whether the user trusted the workspace's hooks with this fingerprint. */
  trusted(fingerprint: string): boolean;
  runContext(): HookRunContext;
}

export const UNTRUSTED_HOOK = "not run: a workspace hook runs only once the user trusted the workspace's hooks as they are now";

type Decision = { decision: "allow" | "deny" | "ask" | null; reason?: string; records: HookRecord[] };

/** A hook's answer from its exit status and stdout (Claude Code's contract). */
export function hookDecision(
  exitCode: number | null,
  stdout: string,
  stderr: string,
): { decision?: "allow" | "deny" | "ask"; reason?: string } {
  if (exitCode === 2) return { decision: "deny", reason: stderr.trim() || "a hook blocked this call" };
  if (exitCode !== 0) return {};
  let out: unknown;
  try {
    out = JSON.parse(stdout.trim() || "null");
  } catch {
    return {};
  }
  if (typeof out !== "object" || out === null) return {};
  const o = out as {
    hookSpecificOutput?: { permissionDecision?: unknown; permissionDecisionReason?: unknown };
    decision?: unknown;
    reason?: unknown;
  };
  const specific = o.hookSpecificOutput?.permissionDecision;
  const reasonOf = (r: unknown) => (typeof r === "string" && r.trim() !== "" ? r.trim() : undefined);
  if (specific === "deny" || specific === "ask" || specific === "allow")
    return { decision: specific, reason: reasonOf(o.hookSpecificOutput?.permissionDecisionReason) };
  if (o.decision === "block") return { decision: "deny", reason: reasonOf(o.reason) };
  if (o.decision === "approve") return { decision: "allow", reason: reasonOf(o.reason) };
  return {};
}

export function withHooks(inner: ToolRuntimePort, host: HookHost): ToolRuntimePort {
  const pending = new WeakMap<Proposal, Decision>();

  const run = async (event: HookEvent, call: ToolCall, extra: Record<string, unknown> = {}): Promise<Decision> => {
    let loaded: LoadedHooks;
    try {
      loaded = await host.load();
    } catch {
      return { decision: null, records: [] };
    }
    const selected = loaded.hooks.filter((h) => h.event === event && matches(h.matcher, call.name));
    if (selected.length === 0) return { decision: null, records: [] };
    const workspaceTrusted = loaded.workspaceFingerprint !== null && host.trusted(loaded.workspaceFingerprint);
    const ctx = host.runContext();
    const records: HookRecord[] = [];
    let decision: Decision["decision"] = null;
    let reason: string | undefined;
    const rank = { allow: 1, ask: 2, deny: 3 } as const;
    for (const hook of selected) {
      const base = { event, command: hook.command, source: hook.source };
      if (hook.source === "workspace" && !workspaceTrusted) {
        records.push({ ...base, ran: false, skipped: UNTRUSTED_HOOK });
        continue;
      }
      const input = {
        session_id: host.sessionId,
        cwd: ctx.workspaceRoot,
        hook_event_name: event,
        tool_name: claudeToolName(call.name),
        tool_input: call.arguments,
        ...extra,
      };
      const result = await runHookCommand(hook.command, input, hook.timeoutS, ctx);
      const said = hookDecision(result.exitCode, result.stdout, result.stderr);
      records.push({
        ...base,
        ran: true,
        exitCode: result.exitCode,
        stdout: result.stdout,
        stderr: result.stderr,
        ...(result.timedOut ? { timedOut: true } : {}),
        ...(said.decision ? { decision: said.decision } : {}),
        ...(said.reason ? { reason: said.reason } : {}),
      });
      if (event === "PreToolUse" && said.decision && (decision === null || rank[said.decision] > rank[decision])) {
        decision = said.decision;
        reason = said.reason;
      }
    }
    return { decision, ...(reason ? { reason } : {}), records };
  };

  const withRecords = (outcome: ToolOutcome, records: HookRecord[]): ToolOutcome => {
    if (records.length === 0) return outcome;
    const details = { ...(outcome.details ?? {}), hooks: records };
    return outcome.ok ? { ...outcome, details } : { ...outcome, details };
  };
  const denied = (d: Decision): ToolOutcome =>
    withRecords(
      failure(
        toolError(
          "DENIED",
          `A PreToolUse hook denied this call: ${d.reason ?? "no reason given"}`,
          "Do not retry the same call: follow the reason, or ask the user.",
        ),
      ),
      d.records,
    );

  return {
    ...inner,
    specs: () => inner.specs(),
    beginTurn: (turn) => inner.beginTurn(turn),
    isSideEffect: (name) => inner.isSideEffect(name),
    runReadOnly: async (call, signal) => {
      const pre = await run("PreToolUse", call);
      // A read-only call is never asked: a hook's "ask" refuses it like a deny, with its reason.
      if (pre.decision === "deny" || pre.decision === "ask") return denied(pre);
      const outcome = await inner.runReadOnly(call, signal);
      const post = await run("PostToolUse", call, { tool_response: outcome.ok ? outcome.content : outcome.error });
      return withRecords(outcome, [...pre.records, ...post.records]);
    },
    propose: async (call) => {
      const pre = await run("PreToolUse", call);
      if (pre.decision === "deny") return { outcome: denied(pre) };
      const proposed = await inner.propose(call);
      if ("outcome" in proposed) return { outcome: withRecords(proposed.outcome, pre.records) };
      pending.set(proposed.proposal, pre);
      return proposed;
    },
    decide: (proposal) => {
      const verdict = inner.decide(proposal);
      // Stricter only: "ask" turns the policy's allow into a question; "allow" changes nothing.
      if (verdict.action === "allow" && pending.get(proposal)?.decision === "ask") return { action: "ask" };
      return verdict;
    },
    suggestRules: (proposal) => inner.suggestRules(proposal),
    checkRule: (proposal, pattern, action) => inner.checkRule(proposal, pattern, action),
    approve: (proposal, options) => inner.approve(proposal, options),
    deny: (proposal, options) => withRecords(inner.deny(proposal, options), pending.get(proposal)?.records ?? []),
    cancel: (proposal) => withRecords(inner.cancel(proposal), pending.get(proposal)?.records ?? []),
    execute: async (proposal, signal) => {
      const outcome = await inner.execute(proposal, signal);
      const call: ToolCall = { type: "toolCall", id: proposal.toolCallId, name: proposal.toolName, arguments: proposal.args };
      const post = await run("PostToolUse", call, { tool_response: outcome.ok ? outcome.content : outcome.error });
      return withRecords(outcome, [...(pending.get(proposal)?.records ?? []), ...post.records]);
    },
    toResultMessage: (call, outcome, now) => inner.toResultMessage(call, outcome, now),
  };
}
