/**
 * The tool runtime for one session, following the user's settings: the
 * approval policy, the run budget and the workspace's saved rules are read at
 * every decision, so a change in Settings (bash set to deny) applies to the
 * next call, also in a running turn. The bash sandbox settings apply from the
 * next turn: they shape bash's description, which the model is given once a
 * turn. Rules approved "for this session" stay when the runtime is rebuilt.
 */
import type { Settings } from "../../../shared/api";
import type { ToolRuntimePort } from "../agent/ports";
import {
  createToolRuntime,
  suggestRules,
  type PolicyRule,
  type SideEffectToolName,
  type ToolRuntime,
  type ToolRuntimeOptions,
} from "../tools";

export interface SessionToolsOptions {
  workspaceRoot: string;
  settings(): Settings;
  env: Record<string, string | undefined>;
  /** The workspace's saved rules. */
  rules?: () => readonly PolicyRule[];
  /** The workspace's MCP tools (asked at each lookup: servers come and go). */
  externalTools?: ToolRuntimeOptions["externalTools"];
  /** Folders sandboxed bash must not see (the app's data folder). */
  bashHidden?: readonly string[];
  /** MCP tools always allowed in this workspace (docs/mcp-trust.md#approving-mcp-tools). */
  externalAllowed?: ToolRuntimeOptions["externalAllowed"];
  /** The session's folder for bash's output files, and the bound on all sessions' (tools/output-files.ts). */
  outputDir?: string;
  onOutputKept?: () => Promise<void>;
  traceparent?: ToolRuntimeOptions["traceparent"];
}

export function createSessionTools(options: SessionToolsOptions): ToolRuntimePort {
  let builtFrom: string | null = null;
  let runtime: ToolRuntime | null = null;
  let sessionRules: readonly PolicyRule[] = [];
  /** External (MCP) tools approved for the session; built-in tools keep their session rules instead. */
  const allowedForSession = new Set<string>();

  const current = (): ToolRuntime => {
    const { bashSandbox } = options.settings();
    const key = JSON.stringify(bashSandbox);
    if (!runtime || key !== builtFrom) {
      if (runtime) sessionRules = runtime.sessionRules().slice();
      runtime = createToolRuntime({
        workspaceRoot: options.workspaceRoot,
        policy: () => options.settings().approvalPolicy,
        budget: () => options.settings().budget,
        env: options.env,
        externalTools: options.externalTools,
        externalAllowed: options.externalAllowed,
        bashHidden: options.bashHidden,
        outputDir: options.outputDir,
        onOutputKept: options.onOutputKept,
        traceparent: options.traceparent,
        bashSandbox: bashSandbox.mode,
        bashNetwork: bashSandbox.network,
        webFetch: () => {
          const s = options.settings();
          return { caFile: s.network.caFile ?? null, allowPrivate: s.approvalPolicy.fetchPrivate === true };
        },
        ...(options.rules ? { rules: options.rules } : {}),
      });
      for (const rule of sessionRules) runtime.addSessionRule(rule);
      for (const tool of allowedForSession) runtime.allowForSession(tool);
      builtFrom = key;
    }
    return runtime;
  };
  // Within a turn the runtime must stay the same (its budget and pending proposals live in it).
  let turnRuntime: ToolRuntime = current();

  return {
    specs: () => turnRuntime.specs(),
    beginTurn: (turn) => {
      turnRuntime = current();
      turnRuntime.beginTurn(turn);
    },
    isSideEffect: (name) => turnRuntime.tier(name) === "sideEffect",
    runReadOnly: (call, signal) => turnRuntime.runReadOnly(call, signal),
    propose: (call) => turnRuntime.propose(call),
    decide: (proposal) => {
      const action = turnRuntime.decide(proposal);
      const { rules } = turnRuntime.explain(proposal);
      return rules && action !== "ask" ? { action, rules } : { action };
    },
    // Only rules that would in fact cover this call (`sh *` never does).
    suggestRules: (proposal) =>
      suggestRules(proposal.toolName as SideEffectToolName, proposal.preview).filter((r) => turnRuntime.checkRule(proposal, r) === null),
    checkRule: (proposal, pattern, action) => turnRuntime.checkRule(proposal, pattern, action),
    approve: (proposal, { forSession, rule, review, unsandboxed }) => {
      if (forSession && !["bash", "write", "edit", "webfetch"].includes(proposal.toolName)) allowedForSession.add(proposal.toolName);
      turnRuntime.approve(proposal, {
        forSession,
        ...(rule ? { rule } : {}),
        ...(review ? { review } : {}),
        ...(unsandboxed ? { unsandboxed } : {}),
      });
    },
    deny: (proposal, { reason }) => turnRuntime.deny(proposal, { reason }),
    cancel: (proposal) => turnRuntime.cancel(proposal),
    execute: (proposal, signal) => turnRuntime.execute(proposal, signal),
    toResultMessage: (call, outcome, now) => turnRuntime.toResultMessage(call, outcome, now),
  };
}
