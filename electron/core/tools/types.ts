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

/** Every tool error code, and whether a model can sensibly retry it (with changed arguments or later). */
export const TOOL_ERROR_RETRYABLE = {
  INVALID_ARGUMENTS: true,
  UNKNOWN_TOOL: true,
  OUTSIDE_WORKSPACE: true,
  NOT_FOUND: true,
  IS_DIRECTORY: true,
  NOT_A_DIRECTORY: true,
  BINARY_FILE: true,
  TOO_LARGE: true,
  NO_MATCH: true,
  AMBIGUOUS_MATCH: true,
  NO_CHANGE: true,
  CONFLICT: true,
  TIMEOUT: true,
  ABORTED: false,
  DENIED: false,
  TOOL_BUDGET_EXCEEDED: false,
  SPECIAL_FILE: true,
  IO_ERROR: true,
  /** An external (MCP) tool reported a failure, or its server is down, crashed or answered garbage. */
  TOOL_FAILED: true,
  SERVER_UNAVAILABLE: true,
  /** Ask mode: side-effect tools are refused. */
  READ_ONLY_MODE: false,
  /** The settings require the bash sandbox and this machine has none that works. */
  SANDBOX_UNAVAILABLE: false,
} as const satisfies Record<string, boolean>;
export type ToolErrorCode = keyof typeof TOOL_ERROR_RETRYABLE;
export const TOOL_ERROR_CODES = Object.keys(TOOL_ERROR_RETRYABLE) as [ToolErrorCode, ...ToolErrorCode[]];

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
  | {
      kind: "diff";
      path: string;
      before: string | null;
      after: string;
      /** Empty when `tooLarge`. */
      unifiedDiff: string;
      added: number;
      removed: number;
      /** Absent when `tooLarge`: the change is approved or denied whole. */
      hunks?: ProposalHunk[];
      /** The diff was too large to send (tools/diff.ts DIFF_MAX_CHARS). */
      tooLarge?: { diffChars: number };
      /** `before` and `after` are left out (empty) past 512 KB; the diff still shows the change. */
      textsOmitted?: boolean;
    }
  | {
      kind: "command";
      command: string;
      cwd: string;
      timeoutMs: number;
      /** Where it runs, in words for the approval card ("Sandboxed (bubblewrap): …" or "Not sandboxed: …"). */
      sandbox?: string;
      sandboxed?: boolean;
      /** Unsandboxed because the user turned the sandbox off in Settings (not because the machine has none). */
      sandboxOff?: boolean;
      /** What running it trusts, in words (the programs' tables, approval/programs). */
      runsWorkspaceCode?: string[];
    }
  /** An MCP tool: the server, its own tool name and the arguments, pretty-printed; `readOnlyHint`: the server's claim, shown only. */
  | { kind: "mcp"; server: string; tool: string; argsJson: string; readOnlyHint?: boolean }
  /** webfetch: the whole URL (all the request carries) and the host the rules match. */
  | { kind: "fetch"; url: string; host: string };

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
