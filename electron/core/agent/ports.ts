/**
 * What the agent loop needs from the rest of the core. Narrow on purpose:
 * the loop is tested against the real store, adapters and tools, and these
 * interfaces say exactly which parts of them it relies on.
 */
import type { ChangeReview, HunkDecision } from "../../../shared/hunks";
import type { EventName, EventPayload, SessionMode } from "../../../shared/api";
import type { LoadedInstructions } from "./instructions";
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import type {
  AssistantMessage,
  ModelRef,
  ReasoningLevel,
  SessionEntry,
  StoredEntry,
  ToolCall,
  ToolResultMessage,
} from "../../../shared/protocol";
import type { LlmContext, StreamEvent, StreamOptions, ToolSpec } from "../providers/types";
import type { DecidingRule } from "../../../shared/protocol";
import type { PolicyAction, Proposal, ToolOutcome } from "../tools/types";
import type { SubAgents } from "./sub-agent";
import type { TurnLimits } from "./turn-caps";

export interface ResolvedModel {
  model: ModelInfo;
  provider: ProviderConfig;
  /** Null when the provider needs no key (local servers, the demo). */
  apiKey: string | null;
}

export interface AgentStorePort {
  /** `alongside` runs in the entry's own transaction (the audit row of a tool result: one commit). */
  appendEntry(sessionId: string, entry: SessionEntry, alongside?: (seq: number) => void): number;
  loadEntries(sessionId: string): StoredEntry[];
  /** Records the body an assistant entry answered, as sent; called inside that entry's `alongside` (store/request-records.ts). */
  recordRequest?(sessionId: string, seq: number, raw: string): void;
}

export interface ToolRuntimePort {
  specs(): ToolSpec[];
  /** Resets the per-turn run budget; `askEach` (a reason): every side effect not denied is asked this turn, whatever rules allow. */
  beginTurn(turn?: { askEach?: string }): void;
  isSideEffect(name: string): boolean;
  runReadOnly(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome>;
  propose(call: ToolCall): Promise<{ proposal: Proposal } | { outcome: ToolOutcome }>;
  /** The policy's verdict and the rules that decided; "allow" marks the proposal approved, "deny" refuses it. */
  decide(proposal: Proposal): { action: PolicyAction; rules?: DecidingRule[] };
  /** Rules the approval card offers for this call, narrowest first. */
  suggestRules(proposal: Proposal): string[];
  /** Why `pattern` would not cover this call (a rule offered for a call must), or null. */
  checkRule(proposal: Proposal, pattern: string, action: "allow" | "deny"): string | null;
  /**
   * The user approved once, or for the session (`rule`, or the exact call when absent).
   * `review`: per-hunk decisions / edited text for an edit or write (only accepted hunks are applied).
   */
  /** `unsandboxed`: "Run unsandboxed", this one bash call outside the OS sandbox. */
  approve(proposal: Proposal, options: { forSession: boolean; rule?: string; review?: ChangeReview; unsandboxed?: boolean }): void;
  /** The user (or the policy) refused; the outcome tells the model why. */
  deny(proposal: Proposal, options: { reason?: string }): ToolOutcome;
  /** The turn was aborted while the proposal waited. */
  cancel(proposal: Proposal): ToolOutcome;
  execute(proposal: Proposal, signal: AbortSignal): Promise<ToolOutcome>;
  toResultMessage(call: ToolCall, outcome: ToolOutcome, now: number): ToolResultMessage;
}

export type ToolAuditEvent =
  | { kind: "proposed" | "running"; toolCallId: string; toolName: string; args: Record<string, unknown> }
  | {
      kind: "decided";
      toolCallId: string;
      toolName: string;
      decision: string;
      decidedBy: string;
      reason?: string;
      rules?: DecidingRule[];
      hunks?: HunkDecision[];
      edited?: boolean;
      unsandboxed?: boolean;
    }
  | {
      kind: "finished";
      toolCallId: string;
      toolName: string;
      args: Record<string, unknown>;
      status: "done" | "error" | "aborted" | "denied";
      durationMs: number;
      errorCode?: string;
      outputBytes: number;
    };

export interface AgentDeps {
  store: AgentStorePort;
  tools: ToolRuntimePort;
  resolveModel(ref: ModelRef): ResolvedModel | { error: string };
  stream(resolved: ResolvedModel, context: LlmContext, options: Omit<StreamOptions, "apiKey">): AsyncIterable<StreamEvent>;
  computeCost(model: ModelInfo, message: AssistantMessage): AssistantMessage;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /**
   * Writes the tool-call audit. Throws when the row cannot be written; inside
   * an append's `alongside` that rolls the entry back too (both or neither).
   */
  audit(sessionId: string, event: ToolAuditEvent): void;
  /** Saves an "always allow / always deny" rule: bash/write/edit for the session's workspace; webfetch hosts in the settings. */
  saveRule?(rule: { tool: "bash" | "write" | "edit" | "webfetch"; action: "allow" | "deny"; pattern: string }): void;
  /** Saves "always allow this MCP tool" for the session's workspace (docs/mcp-trust.md#approving-mcp-tools). */
  allowToolAlways?(toolName: string): void;
  now(): number;
  workspaceRoot: string;
  platform: string;
  /** Called when the session's current model changes (persisted by the caller). */
  onModelChanged(sessionId: string, model: ModelRef): void;
  /** Called when the session's reasoning level changes (persisted by the caller). */
  onReasoningChanged?(sessionId: string, level: ReasoningLevel): void;
  /** The setting that sends other models' reasoning as text (read per request). */
  demoteOtherReasoning?(): boolean;
  /** Called after every append, for titles, counters and `session.updated`. */
  onAppended(sessionId: string, seq: number, entry: SessionEntry): void;
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
  /** Waits (bounded) for tool sources still starting (MCP servers) so a turn's first request sees their tools. */
  prepareTools?(): Promise<void>;
  /** The AGENTS.md section for the files touched so far (instructions.ts). */
  instructions?(touched: readonly string[]): Promise<LoadedInstructions>;
  /** Ask mode was switched on or off (persisted by the caller, after the entry `afterSeq`). */
  onModeChanged?(sessionId: string, mode: SessionMode, afterSeq: number): void;
  /**
   * Records the workspace state (docs/checkpoints.md): "turnStart" before the
   * turn's first side effect, "afterTool" after each executed side-effect
   * call; `seq` is the last stored entry. Never throws.
   */
  checkpoint?(sessionId: string, point: { kind: "turnStart" | "afterTool"; seq: number; toolCallId: string }): Promise<unknown>;
  /** The sub-agents this agent starts with the task tool (sub-agent.ts); their approvals show in its turn state. */
  subAgents?: SubAgents;
  /** The turn limits in Settings, read at every check (docs/architecture.md#compaction-and-budgets); absent: none. */
  turnLimits?(): TurnLimits;
  /** The setting that pauses the turn and asks before compacting (read at each compaction). */
  askBeforeCompacting?(): boolean;
}
