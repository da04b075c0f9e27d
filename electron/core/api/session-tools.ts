/**
 * The tool runtime for one session, following the user's settings: the
 * approval policy and run budget are read when a turn begins, so a change in
 * Settings applies from the next turn. Tools approved "for this session"
 * stay approved when the runtime is rebuilt.
 */
import type { Settings } from "../../../shared/api";
import type { ToolRuntimePort } from "../agent/ports";
import { createToolRuntime, type SideEffectToolName, type ToolRuntime } from "../tools";

export interface SessionToolsOptions {
  workspaceRoot: string;
  settings(): Settings;
  env: Record<string, string | undefined>;
}

export function createSessionTools(options: SessionToolsOptions): ToolRuntimePort {
  let builtFrom: string | null = null;
  let runtime: ToolRuntime | null = null;
  const allowedForSession = new Set<SideEffectToolName>();

  const current = (): ToolRuntime => {
    const { approvalPolicy, budget } = options.settings();
    const key = JSON.stringify({ approvalPolicy, budget });
    if (!runtime || key !== builtFrom) {
      runtime = createToolRuntime({ workspaceRoot: options.workspaceRoot, policy: approvalPolicy, budget, env: options.env });
      for (const tool of allowedForSession) runtime.allowForSession(tool);
      builtFrom = key;
    }
    return runtime;
  };
  // Within a turn the runtime must stay the same (its budget and pending proposals live in it).
  let turnRuntime: ToolRuntime = current();

  return {
    specs: () => turnRuntime.specs(),
    beginTurn: () => {
      turnRuntime = current();
      turnRuntime.beginTurn();
    },
    isSideEffect: (name) => turnRuntime.tier(name) === "sideEffect",
    runReadOnly: (call, signal) => turnRuntime.runReadOnly(call, signal),
    propose: (call) => turnRuntime.propose(call),
    decide: (proposal) => turnRuntime.decide(proposal),
    approve: (proposal, { forSession, review }) => {
      if (forSession) allowedForSession.add(proposal.toolName as SideEffectToolName);
      turnRuntime.approve(proposal, { forSession, ...(review ? { review } : {}) });
    },
    deny: (proposal, { reason }) => turnRuntime.deny(proposal, { reason }),
    cancel: (proposal) => turnRuntime.cancel(proposal),
    execute: (proposal, signal) => turnRuntime.execute(proposal, signal),
    toResultMessage: (call, outcome, now) => turnRuntime.toResultMessage(call, outcome, now),
  };
}
