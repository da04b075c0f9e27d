/**
 * The provider-neutral message protocol. Stored as is, never rewritten.
 * Every provider adapter reads and writes these shapes; the boundary transform
 * turns a copy of them into each provider's wire format.
 *
 * Pure module: zod only (see docs/architecture.md#layers).
 */
import { z } from "zod";
import { TodoItemSchema } from "./todo";

// ---------------------------------------------------------------- content blocks

export const TextContentSchema = z.object({
  type: z.literal("text"),
  text: z.string(),
});
export type TextContent = z.infer<typeof TextContentSchema>;

export const ImageContentSchema = z.object({
  type: z.literal("image"),
  /** base64, no data: prefix */
  data: z.string(),
  mimeType: z.string(),
});
export type ImageContent = z.infer<typeof ImageContentSchema>;

export const ThinkingContentSchema = z.object({
  type: z.literal("thinking"),
  thinking: z.string(),
  /**
   * Opaque provider signature (Anthropic `signature`, OpenAI Responses encrypted
   * reasoning item as JSON). Only valid for the model that produced it.
   */
  signature: z.string().optional(),
  /** Anthropic `redacted_thinking`: `thinking` is empty and `signature` holds the data. */
  redacted: z.boolean().optional(),
});
export type ThinkingContent = z.infer<typeof ThinkingContentSchema>;

export const ToolCallSchema = z.object({
  type: z.literal("toolCall"),
  /** Opaque: echoed verbatim, never parsed (invariant 2). */
  id: z.string(),
  name: z.string(),
  /** Parsed arguments when the stream ended with valid JSON; {} otherwise. */
  arguments: z.record(z.string(), z.unknown()),
  /** Present when the arguments could not be parsed: the raw text as streamed. */
  rawArguments: z.string().optional(),
  /** Why the arguments are unusable (invalid JSON, lone surrogate, truncated). */
  argumentsError: z.string().optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const UserContentSchema = z.discriminatedUnion("type", [TextContentSchema, ImageContentSchema]);
export type UserContent = z.infer<typeof UserContentSchema>;

export const AssistantContentSchema = z.discriminatedUnion("type", [TextContentSchema, ThinkingContentSchema, ToolCallSchema]);
export type AssistantContent = z.infer<typeof AssistantContentSchema>;

// ---------------------------------------------------------------- model, usage

export const ApiSchema = z.enum([
  "anthropic-messages",
  "openai-completions",
  "openai-responses",
  "google-generative-ai",
  "bedrock-converse-stream",
]);
export type Api = z.infer<typeof ApiSchema>;

export const ModelRefSchema = z.object({
  /** Provider key as configured, e.g. "anthropic", "openai", "mistral", "ollama". */
  provider: z.string(),
  api: ApiSchema,
  /** The model id as the provider knows it. */
  id: z.string(),
});
export type ModelRef = z.infer<typeof ModelRefSchema>;

export const CostSchema = z.object({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  total: z.number(),
  /** No price is known for the model: the numbers are zeros that are not a cost (absent in sessions stored before). */
  unknown: z.boolean().optional(),
});
export type Cost = z.infer<typeof CostSchema>;

export const UsageSchema = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative(),
  cacheWrite: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  /**
   * Reasoning tokens the provider reported, already counted in `output` (and billed
   * as output); absent when it reported none, and in sessions stored before.
   */
  reasoningTokens: z.number().int().nonnegative().optional(),
  cost: CostSchema,
});
export type Usage = z.infer<typeof UsageSchema>;

export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

export const StopReasonSchema = z.enum(["stop", "toolUse", "length", "error", "aborted"]);
export type StopReason = z.infer<typeof StopReasonSchema>;

/** Why the provider stopped, in its own words (Anthropic's `stop_details` on a refusal: category, explanation). */
export const StopDetailsSchema = z.object({
  type: z.string().optional(),
  category: z.string().optional(),
  explanation: z.string().optional(),
});
export type StopDetails = z.infer<typeof StopDetailsSchema>;

// ---------------------------------------------------------------- messages

/** The limit a turn reached (docs/architecture.md#compaction-and-budgets). */
export const TurnLimitKindSchema = z.enum(["cost", "roundTrips", "wallTime", "toolBudget"]);
export type TurnLimitKind = z.infer<typeof TurnLimitKindSchema>;
export const TurnLimitHitSchema = z.object({
  kind: TurnLimitKindSchema,
  /** For the user and the model: "the turn's cost limit of $0.05 ($0.0512 spent)". */
  detail: z.string(),
});
export type TurnLimitHit = z.infer<typeof TurnLimitHitSchema>;

export const UserMessageSchema = z.object({
  role: z.literal("user"),
  content: z.array(UserContentSchema),
  /** Unix milliseconds. */
  timestamp: z.number(),
});
export type UserMessage = z.infer<typeof UserMessageSchema>;

export const AssistantMessageSchema = z.object({
  role: z.literal("assistant"),
  content: z.array(AssistantContentSchema),
  stopReason: StopReasonSchema,
  model: ModelRefSchema,
  usage: UsageSchema,
  /** Set when stopReason is "error" (and sometimes "aborted"); never contains an API key. */
  errorMessage: z.string().optional(),
  /** Provider-side response id, for the review view. */
  responseId: z.string().optional(),
  /** The provider's details of why it stopped (a refusal's category and explanation); absent in older sessions. */
  stopDetails: StopDetailsSchema.optional(),
  /**
   * Set on the answer to the one tool-less request a turn makes when it reached
   * a limit (cost, round trips, wall time, the tool budget): the turn stopped there.
   */
  limit: TurnLimitHitSchema.optional(),
  timestamp: z.number(),
});
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

export const ToolResultMessageSchema = z.object({
  role: z.literal("toolResult"),
  toolCallId: z.string(),
  toolName: z.string(),
  isError: z.boolean(),
  /** What the model sees. */
  content: z.array(UserContentSchema),
  /** What only the UI and the audit see: diff, exit code, durations, byte counts, error code. */
  details: z.unknown().optional(),
  timestamp: z.number(),
});
export type ToolResultMessage = z.infer<typeof ToolResultMessageSchema>;

export const MessageSchema = z.discriminatedUnion("role", [UserMessageSchema, AssistantMessageSchema, ToolResultMessageSchema]);
export type Message = z.infer<typeof MessageSchema>;

// ---------------------------------------------------------------- session entries that are not messages

/** The reasoning level of a session: the model's default (nothing requested), off, or an effort. */
export const ReasoningLevelSchema = z.enum(["default", "off", "low", "medium", "high"]);
export type ReasoningLevel = z.infer<typeof ReasoningLevelSchema>;

/** The session's reasoning level changed (applies from the next request); a marker like a model switch. */
export const ReasoningChangeEntrySchema = z.object({
  type: z.literal("reasoningChange"),
  from: ReasoningLevelSchema,
  to: ReasoningLevelSchema,
  timestamp: z.number(),
});

export const ModelSwitchEntrySchema = z.object({
  type: z.literal("modelSwitch"),
  from: ModelRefSchema.nullable(),
  to: ModelRefSchema,
  timestamp: z.number(),
});

export const ApprovalDecisionSchema = z.enum(["approved", "approvedForSession", "denied", "autoApproved", "autoDenied"]);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** The rule that decided a call, stored with the decision and shown on the tool card. */
export const DecidingRuleSchema = z.object({
  tool: z.enum(["bash", "write", "edit", "webfetch"]),
  action: z.enum(["allow", "deny"]),
  pattern: z.string(),
  source: z.enum(["settings", "workspace", "session"]),
});
export type DecidingRule = z.infer<typeof DecidingRuleSchema>;

export const ApprovalEntrySchema = z.object({
  type: z.literal("approval"),
  toolCallId: z.string(),
  toolName: z.string(),
  decision: ApprovalDecisionSchema,
  /** The user's reason on a denial, passed to the model. */
  reason: z.string().optional(),
  /** Who decided: "user" or "policy". */
  decidedBy: z.string(),
  /** The rule(s) that decided (policy), or the rule the user saved with the decision. */
  rules: z.array(DecidingRuleSchema).optional(),
  /** The user reviewed a write/edit hunk by hunk: the decision per hunk, in the preview's order. */
  hunks: z.array(z.enum(["accepted", "rejected"])).optional(),
  /** The user edited the proposed text before approving. */
  edited: z.boolean().optional(),
  /** The user chose to run this bash call outside the OS sandbox ("Run unsandboxed"). */
  unsandboxed: z.boolean().optional(),
  timestamp: z.number(),
});

/**
 * The model's view of the session from here on (docs/architecture.md#compaction-and-budgets):
 * the summary, then the entries from `firstKeptSeq`, with the tool results
 * stored before `prunedBeforeSeq` shown as a short stub. The latest one is the
 * whole view, so a prune step carries the summary it kept.
 */
export const CompactionEntrySchema = z.object({
  type: z.literal("compaction"),
  /** The summary of everything before `firstKeptSeq` ("" when nothing was summarised yet). */
  summary: z.string(),
  /** Sequence number of the first entry kept verbatim after the summary. */
  firstKeptSeq: z.number().int(),
  tokensBefore: z.number().int().nonnegative(),
  model: ModelRefSchema,
  timestamp: z.number(),
  /** What this step did: replaced old tool outputs by stubs, or summarised (absent: "summary"). */
  step: z.enum(["prune", "summary"]).optional(),
  /** Tool results stored before this seq reach the model as a stub naming the call. */
  prunedBeforeSeq: z.number().int().optional(),
  /** Tool outputs this step replaced by stubs. */
  pruned: z.number().int().nonnegative().optional(),
  /** The estimated size of the next request after this step. */
  tokensAfter: z.number().int().nonnegative().optional(),
  /** Why it ran: the context passed the threshold, the provider reported an overflow, or the user asked. */
  trigger: z.enum(["threshold", "overflow", "manual"]).optional(),
  /** The user's latest request before the cut, word for word (kept from compaction to compaction). */
  userRequest: z.string().optional(),
  /** Text put back right after the summary, verbatim (what must survive compaction: the plan). */
  carried: z.string().optional(),
  /** What the summary request cost (absent for a prune step). */
  usage: UsageSchema.optional(),
});

export const RenameEntrySchema = z.object({
  type: z.literal("rename"),
  title: z.string(),
  timestamp: z.number(),
});

export const ForkEntrySchema = z.object({
  type: z.literal("fork"),
  sourceSessionId: z.string(),
  /** Entries with seq <= this were copied from the source. */
  sourceSeq: z.number().int(),
  timestamp: z.number(),
});

/**
 * The user edited the todo plan (docs/sub-agents.md#the-todo-plan): it replaces
 * the model's, and the model reads it as a user message on its next request.
 */
export const PlanEditEntrySchema = z.object({
  type: z.literal("planEdit"),
  items: z.array(TodoItemSchema),
  timestamp: z.number(),
});

export const MessageEntrySchema = z.object({
  type: z.literal("message"),
  message: MessageSchema,
});

export const SessionEntrySchema = z.discriminatedUnion("type", [
  MessageEntrySchema,
  ModelSwitchEntrySchema,
  ReasoningChangeEntrySchema,
  ApprovalEntrySchema,
  CompactionEntrySchema,
  RenameEntrySchema,
  ForkEntrySchema,
  PlanEditEntrySchema,
]);
export type SessionEntry = z.infer<typeof SessionEntrySchema>;
export type MessageEntry = z.infer<typeof MessageEntrySchema>;
export type ModelSwitchEntry = z.infer<typeof ModelSwitchEntrySchema>;
export type ReasoningChangeEntry = z.infer<typeof ReasoningChangeEntrySchema>;
export type ApprovalEntry = z.infer<typeof ApprovalEntrySchema>;
export type CompactionEntry = z.infer<typeof CompactionEntrySchema>;
export type RenameEntry = z.infer<typeof RenameEntrySchema>;
export type ForkEntry = z.infer<typeof ForkEntrySchema>;
export type PlanEditEntry = z.infer<typeof PlanEditEntrySchema>;
export type SessionEntryType = SessionEntry["type"];

/** An entry as loaded from the store: its sequence number within the session. */
export interface StoredEntry {
  seq: number;
  entry: SessionEntry;
}

/** Text of a message for search and titles (no thinking, no tool arguments). */
export function messageText(message: Message): string {
  const parts: string[] = [];
  for (const block of message.content) {
    if (block.type === "text") parts.push(block.text);
  }
  return parts.join("\n");
}
