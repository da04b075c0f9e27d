/**
 * The tool runtime: sandboxed file tools and bash for the agent loop.
 * See runtime.ts for the contract.
 */
export { createToolRuntime } from "./runtime";
export type { ToolCallInput, ToolRuntime, ToolRuntimeOptions, UserAnswer } from "./runtime-types";
export { errorText } from "./tool-outcome";
export { defaultToolSpecs, TOOL_NAMES, type ToolName } from "./registry";
export {
  DEFAULT_TOOL_POLICY,
  evaluatePolicy,
  settingsRules,
  suggestRules,
  type PolicyRule,
  type PolicyVerdict,
  type SideEffectToolName,
  type ToolPolicy,
} from "./approval/policy";
export { ensureShellParser } from "./shell-parse";
export { DEFAULT_RUN_BUDGET, type BudgetUsage } from "./budget";
export type { AuditEvent, AuditSink } from "./audit";
export * from "./types";
