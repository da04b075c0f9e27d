/**
 * What the agent loop needs from the rest of the core. Narrow on purpose:
 * the loop is tested against the real store, adapters and tools, and these
 * interfaces say exactly which parts of them it relies on.
 */
import type { EventName, EventPayload } from "../../../shared/api";
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import type {
  AssistantMessage,
  ModelRef,
  SessionEntry,
  StoredEntry,
  ToolCall,
  ToolResultMessage,
} from "../../../shared/protocol";
import type { LlmContext, StreamEvent, StreamOptions, ToolSpec } from "../providers/types";
import type { PolicyAction, Proposal, ToolOutcome } from "../tools/types";

export interface ResolvedModel {
  model: ModelInfo;
  provider: ProviderConfig;
  /** Null when the provider needs no key (local servers, the demo). */
  apiKey: string | null;
}

export interface AgentStorePort {
  /** `alongside` runs in the entry's own transaction (the audit row of a tool result: one commit). */
  appendEntry(sessionId: string, entry: SessionEntry, alongside?: () => void): number;
  loadEntries(sessionId: string): StoredEntry[];
}

export interface ToolRuntimePort {
  specs(): ToolSpec[];
  /** Resets the per-turn run budget. */
  beginTurn(): void;
  isSideEffect(name: string): boolean;
  runReadOnly(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome>;
  propose(call: ToolCall): Promise<{ proposal: Proposal } | { outcome: ToolOutcome }>;
  /** The policy's verdict; "allow" marks the proposal approved, "deny" refuses it. */
  decide(proposal: Proposal): PolicyAction;
  /** The user approved (once, or for the rest of the session). */
  approve(proposal: Proposal, options: { forSession: boolean }): void;
  /** The user (or the policy) refused; the outcome tells the model why. */
  deny(proposal: Proposal, options: { reason?: string }): ToolOutcome;
  /** The turn was aborted while the proposal waited. */
  cancel(proposal: Proposal): ToolOutcome;
  execute(proposal: Proposal, signal: AbortSignal): Promise<ToolOutcome>;
  toResultMessage(call: ToolCall, outcome: ToolOutcome, now: number): ToolResultMessage;
}

export type ToolAuditEvent =
  | { kind: "proposed" | "running"; toolCallId: string; toolName: string; args: Record<string, unknown> }
  | { kind: "decided"; toolCallId: string; toolName: string; decision: string; decidedBy: string; reason?: string }
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
  /** Writes the tool-call audit; never throws (a failed audit must not break the turn). */
  audit(sessionId: string, event: ToolAuditEvent): void;
  now(): number;
  workspaceRoot: string;
  platform: string;
  /** Called when the session's current model changes (persisted by the caller). */
  onModelChanged(sessionId: string, model: ModelRef): void;
  /** Called after every append, for titles, counters and `session.updated`. */
  onAppended(sessionId: string, seq: number, entry: SessionEntry): void;
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * Records the workspace state (docs/checkpoints.md): "turnStart" before the
   * turn's first side effect, "afterTool" after each executed side-effect
   * call; `seq` is the last stored entry. Never throws.
   */
  checkpoint?(sessionId: string, point: { kind: "turnStart" | "afterTool"; seq: number; toolCallId: string }): Promise<unknown>;
}
