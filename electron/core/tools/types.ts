/**
 * The contract between the agent loop and the tool runtime.
 *
 * Contract: no function here throws for bad input. Every call ends as a
 * ToolOutcome (success or a typed ToolError), which the loop turns into a
 * ToolResultMessage (`content` for the model, `details` for the UI/audit).
 */
import type { ProposalHunk } from "../../../shared/hunks";
import type { ImageContent, TextContent } from "../../../shared/protocol";
import type { ToolSpec } from "../providers/types";

export const TOOL_ERROR_CODES = [
  "INVALID_ARGUMENTS",
  "UNKNOWN_TOOL",
  "OUTSIDE_WORKSPACE",
  "NOT_FOUND",
  "IS_DIRECTORY",
  "NOT_A_DIRECTORY",
  "BINARY_FILE",
  "TOO_LARGE",
  "NO_MATCH",
  "AMBIGUOUS_MATCH",
  "NO_CHANGE",
  "CONFLICT",
  "TIMEOUT",
  "ABORTED",
  "DENIED",
  "TOOL_BUDGET_EXCEEDED",
  "SPECIAL_FILE",
  "IO_ERROR",
  /** An external (MCP) tool reported a failure, or its server is down, crashed or answered garbage. */
  "TOOL_FAILED",
  "SERVER_UNAVAILABLE",
  /** Ask mode: side-effect tools are refused. */
  "READ_ONLY_MODE",
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export interface ToolError {
  errorCode: ToolErrorCode;
  retryable: boolean;
  message: string;
  hint?: string;
}

export type ToolOutcome =
  | { ok: true; content: (TextContent | ImageContent)[]; details?: Record<string, unknown> }
  | { ok: false; error: ToolError; details?: Record<string, unknown> };

export type SideEffectTier = "readOnly" | "sideEffect";

/** A value or a typed error; used inside the runtime where exceptions must not escape. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ToolError };

/** What the user sees before approving a side-effect call; computed without touching disk. */
export type ProposalPreview =
  | { kind: "diff"; path: string; before: string | null; after: string; unifiedDiff: string; added: number; removed: number; hunks?: ProposalHunk[] }
  | { kind: "command"; command: string; cwd: string; timeoutMs: number }
  /** An MCP tool without readOnlyHint: the server, its own tool name and the arguments, pretty-printed. */
  | { kind: "mcp"; server: string; tool: string; argsJson: string };

export interface Proposal {
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  preview: ProposalPreview;
  /** Content fingerprint of the target when proposed; re-checked before execution. */
  fingerprint?: string;
}

export type PolicyAction = "ask" | "allow" | "deny";

export interface RunBudget {
  maxToolCalls: number;
  maxOutputBytes: number;
  maxDurationMs: number;
  maxSideEffects: number;
}
export type { ToolSpec };
