/** The tool runtime's public shapes (the contract is in runtime.ts). */
import type { ChangeReview } from "../../../shared/hunks";
import type { ToolResultMessage } from "../../../shared/protocol";
import type { AuditSink } from "./audit";
import type { BashSandboxInfo, BashSandboxMode } from "./bash-sandbox";
import type { BudgetUsage } from "./budget";
import type { PolicyRule, PolicyVerdict, ToolPolicy } from "./approval/policy";
import type { ToolDef } from "./registry";
import type { PolicyAction, Proposal, RunBudget, SideEffectTier, ToolError, ToolOutcome, ToolSpec } from "./types";

/** A tool call as the loop has it (the protocol's ToolCall fits). */
export interface ToolCallInput {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Set when the streamed arguments were not valid JSON. */
  argumentsError?: string;
}

export interface ToolRuntimeOptions {
  /**
   * W3C trace context for a side-effect call's commands (`TRACEPARENT`), so a user's instrumented
   * tools nest under the call's execute_tool span (docs/observability.md); null: none.
   */
  traceparent?: (toolCallId: string) => string | null;
  workspaceRoot: string;
  /** As a function: read at every decision, so a change in Settings applies to the next call. */
  policy?: ToolPolicy | (() => ToolPolicy);
  /** As a function: read at every check, so a change in Settings applies to the next call. */
  budget?: RunBudget | (() => RunBudget);
  auditSink?: AuditSink;
  /** Base environment for bash (default process.env); secrets are stripped from it. */
  env?: Record<string, string | undefined>;
  /** ripgrep binary; default: `rg` on PATH; null forces the built-in grep. */
  rgPath?: string | null;
  /** Where bash keeps full output that was cut (the app: the session's folder; default <tmp>/agent-workbench-tool-output). */
  outputDir?: string;
  /** Called after bash kept an output file (the app bounds all sessions' files together). */
  onOutputKept?: () => Promise<void>;
  /** Clock for audit timestamps. */
  now?: () => number;
  /** Saved rules (per workspace), read at every decision so an edit in Settings applies at once. */
  rules?: () => readonly PolicyRule[];
  /**
   * Tools from outside (MCP servers), asked for at each lookup so a restarted
   * server's tools apply. Their names never shadow the built-in tools.
   */
  externalTools?: () => { defs: readonly ToolDef[]; specs: readonly ToolSpec[] };
  /** External (MCP) tools the user chose to always allow in this workspace, read at every decision. */
  externalAllowed?: () => ReadonlySet<string>;
  /** Deadline of a read-only call (default READONLY_TIMEOUT_MS). */
  readOnlyTimeoutMs?: number;
  /**
   * "auto" (default): bash runs in the OS sandbox when there is one, unconfined
   * (and the card says so) when not; "required": no sandbox, no bash
   * (SANDBOX_UNAVAILABLE); "off": unconfined.
   */
  bashSandbox?: BashSandboxMode;
  /** The sandbox this machine offers (default: probed once, detectBashSandbox). */
  bashSandboxInfo?: BashSandboxInfo;
  /** Network inside the bash sandbox (default false). */
  bashNetwork?: boolean;
  /** Folders sandboxed bash cannot see besides the home secrets (the app's data folder). */
  bashHidden?: readonly string[];
  /** webfetch's CA file and whether it may reach private addresses, read at every call (default: none, refused). */
  webFetch?: () => { caFile: string | null; allowPrivate: boolean };
}

export type UserAnswer =
  { approved: true; forSession?: boolean; rule?: string; review?: ChangeReview } | { approved: false; reason?: string };

export interface ToolRuntime {
  readonly workspaceRoot: string;
  specs(): ToolSpec[];
  /** null for an unknown tool. */
  tier(name: string): SideEffectTier | null;
  validate(call: ToolCallInput): { ok: true; args: Record<string, unknown> } | { ok: false; error: ToolError };
  runReadOnly(call: ToolCallInput, signal?: AbortSignal): Promise<ToolOutcome>;
  propose(call: ToolCallInput): Promise<{ proposal: Proposal } | { outcome: ToolOutcome }>;
  decide(proposal: Proposal): PolicyAction;
  /** The verdict with the rule that produced it; no side effects, no audit. */
  explain(proposal: Proposal): PolicyVerdict;
  /** Adds an allow rule for the rest of the session (runtime rebuilds keep it through `sessionRules`). */
  addSessionRule(rule: PolicyRule): void;
  sessionRules(): readonly PolicyRule[];
  /** An external (MCP) tool by its full name, allowed for the rest of the session (built-in tools use rules). */
  allowForSession(toolName: string): void;
  /** Why this allow rule would not cover the proposal (it must, to be offered for it), or null. */
  checkRule(proposal: Proposal, pattern: string, action?: "allow" | "deny"): string | null;
  /** `forSession` with `rule`: that rule is allowed from now on; without it, the exact call (command or file); an external tool: the tool. */
  /** `review`: the user accepted only some hunks of a write/edit, or edited it; applied by `execute`. */
  /** `unsandboxed`: the user chose to run this one bash call outside the OS sandbox (docs/tool-sandbox.md). */
  approve(proposal: Proposal, options?: { forSession?: boolean; rule?: string; review?: ChangeReview; unsandboxed?: boolean }): void;
  deny(proposal: Proposal, options?: { reason?: string }): ToolOutcome;
  cancel(proposal: Proposal): ToolOutcome;
  execute(proposal: Proposal, signal?: AbortSignal): Promise<ToolOutcome>;
  /** Drives one call end to end; `ask` answers for the user (none: ask → denied). */
  run(call: ToolCallInput, options?: { signal?: AbortSignal; ask?: (proposal: Proposal) => Promise<UserAnswer> }): Promise<ToolOutcome>;
  /** A new turn: the budget resets; `askEach` (a reason) makes every side effect not denied ask, whatever rules allow. */
  beginTurn(turn?: { askEach?: string }): void;
  usage(): BudgetUsage;
  toResultMessage(call: Pick<ToolCallInput, "id" | "name">, outcome: ToolOutcome, now?: number): ToolResultMessage;
}
