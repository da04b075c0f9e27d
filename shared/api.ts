/**
 * The WorkbenchApi: the one typed contract between the UI and the core.
 * Every request and event has a zod schema; both transports (Electron IPC and
 * the web-mode WebSocket) carry exactly these shapes, and the core parses every
 * payload on arrival (docs/architecture.md#transports-and-the-api-contract).
 */
import { z } from "zod";
import { AgentListingSchema, ForeignAgentSchema } from "./foreign-agents";
import { lazyTable } from "./lazy-table";
import {
  AssistantMessageSchema,
  ImageContentSchema,
  ModelRefSchema,
  ReasoningLevelSchema,
  SessionEntrySchema,
  UsageSchema,
} from "./protocol";
import { ModelInfoSchema } from "./models";
import { SearchEverythingParamsSchema, SearchEverythingResultSchema } from "./search";
import { OtelStatusSchema, OtelTargetSchema, OtelUpdateSchema } from "./otel";
import { TodoItemSchema, TodoPlanInputSchema } from "./todo";
import { ChangeReviewSchema, ProposalHunkSchema } from "./hunks";
import {
  ChangeDiffSchema,
  ChangeSetSchema,
  ExportFileSchema,
  ExportFormatSchema,
  FileStatesSchema,
  IMPORT_LIMITS,
  ModelViewHeadSchema,
  ModelViewSchema,
  ModelViewTextSchema,
  NoteVerdictSchema,
  ReviewNoteSchema,
  TimelineSchema,
} from "./review";
import {
  CheckpointFileDiffSchema,
  CheckpointSchema,
  CheckpointSettingsSchema,
  CheckpointStatusSchema,
  RewindModeSchema,
  RewindPreviewSchema,
  RewindTargetSchema,
} from "./checkpoints";

import { TEAM_ERROR_CODES, teamEvents, teamRequests } from "./team";

// ---------------------------------------------------------------- shared shapes

export const WorkspaceSchema = z.object({
  id: z.string(),
  path: z.string(),
  name: z.string(),
  lastOpenedAt: z.number(),
});
export type Workspace = z.infer<typeof WorkspaceSchema>;

/**
 * A stored entry that could not be read (`INVALID_JSON`, `INVALID_ENTRY`: its
 * bytes stay in the database and go into a JSON export) or a run of entries
 * that are gone (`MISSING`, `toSeq` the last of the run).
 */
export const DamagedEntrySchema = z.object({
  seq: z.number().int(),
  toSeq: z.number().int().optional(),
  kind: z.string(),
  code: z.enum(["INVALID_JSON", "INVALID_ENTRY", "MISSING"]),
  message: z.string(),
});
export type DamagedEntry = z.infer<typeof DamagedEntrySchema>;

export const SessionSummarySchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  model: ModelRefSchema.nullable(),
  /** Reasoning level asked of the session's models (sent only to models that take it). */
  reasoning: ReasoningLevelSchema,
  parentSessionId: z.string().nullable(),
  parentSeq: z.number().int().nullable(),
  /**
   * Set on a sub-agent's session: the task call of the parent step (`parentSessionId`, `parentSeq`: the
   * parent's assistant entry holding it) that started it (docs/sub-agents.md#sub-agents). Absent on forks.
   */
  parentToolCallId: z.string().optional(),
  entryCount: z.number().int(),
  totalCost: z.number(),
  totalTokens: z.number().int(),
  /** Imported from another agent's files (the sidebar's badge); absent on sessions recorded here. */
  origin: ForeignAgentSchema.optional(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const StoredEntrySchema = z.object({
  seq: z.number().int(),
  entry: SessionEntrySchema,
});

export const ToolStatusSchema = z.enum(["pending", "awaitingApproval", "running", "done", "error", "denied", "aborted"]);
export type ToolStatus = z.infer<typeof ToolStatusSchema>;

export const ProposalPreviewSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("diff"),
    path: z.string(),
    before: z.string().nullable(),
    after: z.string(),
    unifiedDiff: z.string(),
    added: z.number().int(),
    removed: z.number().int(),
    /** The change as hunks, for per-hunk accept/reject (shared/hunks.ts); absent when `tooLarge`. */
    hunks: z.array(ProposalHunkSchema).optional(),
    /** The diff was too large to send (`unifiedDiff` is empty): the UI says so; approve or deny the change whole. */
    tooLarge: z.object({ diffChars: z.number().int() }).optional(),
    /** `before` and `after` are left out (empty strings; `before` stays null for a new file) past 512 KB. */
    textsOmitted: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal("command"),
    command: z.string(),
    cwd: z.string(),
    timeoutMs: z.number(),
    sandbox: z.string().optional(),
    sandboxed: z.boolean().optional(),
    /** Unsandboxed because the user turned the sandbox off in Settings (not because the machine has none). */
    sandboxOff: z.boolean().optional(),
    /** What running it trusts, in words: "npm test runs a script from package.json, which is code from the workspace". */
    runsWorkspaceCode: z.array(z.string()).optional(),
  }),
  /** An MCP tool the server does not mark read-only. */
  /** `readOnlyHint`: the server says the tool only reads (a hint, not a guarantee: it is asked all the same). */
  z.object({ kind: z.literal("mcp"), server: z.string(), tool: z.string(), argsJson: z.string(), readOnlyHint: z.boolean().optional() }),
  /** webfetch: the whole URL (all the request carries) and the host its rules match. */
  z.object({ kind: z.literal("fetch"), url: z.string(), host: z.string() }),
]);

export const PendingApprovalSchema = z.object({
  sessionId: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  args: z.record(z.string(), z.unknown()),
  preview: ProposalPreviewSchema,
  /** Rules the card offers for "approve for this session" / "always", narrowest first (bash: the exact command, then a prefix). */
  suggestedRules: z.array(z.string()).optional(),
  /** A sub-agent asks (its session is `sessionId`): the name of its task. Absent: the session's own agent asks. */
  agent: z.object({ name: z.string() }).optional(),
});
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;

/** A turn paused before compacting (the "ask before compacting" setting): the user compacts or stops the turn. */
export const PendingCompactionSchema = z.object({
  /** The estimated size of the next request and the model's window, in tokens. */
  tokens: z.number().int().nonnegative(),
  window: z.number().int().positive(),
  /** threshold: the next request would pass the compaction threshold; overflow: the provider refused it as too long. */
  reason: z.enum(["threshold", "overflow"]),
});
export type PendingCompaction = z.infer<typeof PendingCompactionSchema>;

/** How full the model's context is (the header's meter and headless `--json`): docs/architecture.md#compaction-and-budgets. */
export const ContextMeterSchema = z.object({
  sessionId: z.string(),
  model: ModelRefSchema,
  /** The estimated size of the next request (the provider's count of the last one plus what was added since). */
  tokens: z.number().int().nonnegative(),
  window: z.number().int().positive(),
  /** The size above which the agent compacts before sending. */
  compactAt: z.number().int().nonnegative(),
  /** What compacting would do now: stub old tool outputs, summarise older messages, or nothing is left to compact. */
  next: z.enum(["prune", "summarize", "nothing"]),
});
export type ContextMeter = z.infer<typeof ContextMeterSchema>;

/** Per-turn limits (docs/architecture.md#compaction-and-budgets); null: no limit. */
export const TurnLimitsSchema = z.object({
  maxCostUsd: z.number().positive().nullable(),
  maxRoundTrips: z.number().int().positive().nullable(),
  maxWallTimeMs: z.number().int().positive().nullable(),
});
export type TurnLimitsSettings = z.infer<typeof TurnLimitsSchema>;

/** "ask": only read-only tools are offered and side-effect calls are refused (plan before touching anything). */
export const SessionModeSchema = z.enum(["agent", "ask"]);
export type SessionMode = z.infer<typeof SessionModeSchema>;

export const ModeChangeSchema = z.object({ mode: SessionModeSchema, afterSeq: z.number().int().nonnegative(), timestamp: z.number() });
export type ModeChange = z.infer<typeof ModeChangeSchema>;

export const TurnStateSchema = z.object({
  sessionId: z.string(),
  mode: SessionModeSchema,
  status: z.enum(["idle", "running", "awaitingApproval"]),
  /** Follow-ups typed during the turn: each starts a turn of its own once this one ends. */
  queued: z.array(z.string()),
  /** Steering messages typed during the turn, delivered after the current tool batch, before the next request. */
  steering: z.array(z.string()).optional(),
  /** The user's edit of the plan, recorded at the next tool boundary. */
  pendingPlan: z.array(TodoItemSchema).optional(),
  /** Approval waiting for the user, if any. */
  pendingApproval: PendingApprovalSchema.nullable(),
  /** The turn waits for the user to compact or stop (absent: not waiting). */
  pendingCompaction: PendingCompactionSchema.nullable().optional(),
});
export type TurnState = z.infer<typeof TurnStateSchema>;

export const ModelOptionSchema = ModelInfoSchema.extend({
  /** An API key is configured (or none is needed). */
  configured: z.boolean(),
  providerLabel: z.string(),
  /**
   * Local servers only (Ollama, LM Studio), once asked (`models.refresh`):
   * whether the server listed this model, or could not be reached.
   */
  local: z.enum(["installed", "notInstalled", "unreachable"]).optional(),
  /** Reasoning levels the model takes, from its declared capabilities; empty: no reasoning control. */
  reasoningLevels: z.array(ReasoningLevelSchema),
});
export type ModelOption = z.infer<typeof ModelOptionSchema>;

export const ApprovalPolicySchema = z.object({
  write: z.enum(["ask", "allow", "deny"]),
  edit: z.enum(["ask", "allow", "deny"]),
  bash: z.enum(["ask", "allow", "deny"]),
  /** Command patterns (glob-like prefix) always allowed / always denied for bash. Deny wins. */
  bashAllow: z.array(z.string()),
  bashDeny: z.array(z.string()),
  /** webfetch (docs/conventions.md#web-fetch): asked per host unless a host rule decides; absent: ask. */
  webfetch: z.enum(["ask", "allow", "deny"]).optional(),
  /** Host rules for webfetch saved with "always": `docs.example.com` or `*.example.com`. Deny wins. */
  hostAllow: z.array(z.string()).optional(),
  hostDeny: z.array(z.string()).optional(),
  /** webfetch may reach loopback and private addresses (off: refused). */
  fetchPrivate: z.boolean().optional(),
});
export type ApprovalPolicy = z.infer<typeof ApprovalPolicySchema>;

/** A saved or session approval rule. bash: command words (`npm test *`); write/edit: a workspace-relative glob. See docs/approvals.md. */
export const RuleToolSchema = z.enum(["bash", "write", "edit"]);
export const ApprovalRuleSchema = z.object({
  id: z.string(),
  tool: RuleToolSchema,
  action: z.enum(["allow", "deny"]),
  pattern: z.string().min(1).max(2000),
  /** settings: the global approval policy; workspace: saved for one workspace; session: until the app closes. */
  source: z.enum(["settings", "workspace", "session"]),
  createdAt: z.number(),
  /** Why a saved rule covers nothing any more (a `*` rule for a program without a table, a launcher…). */
  problem: z.string().optional(),
});
export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;

export const BudgetSchema = z.object({
  maxToolCalls: z.number().int().positive(),
  maxOutputBytes: z.number().int().positive(),
  maxDurationMs: z.number().int().positive(),
  maxSideEffects: z.number().int().nonnegative(),
});

/** How bash commands are confined (docs/tool-sandbox.md#bash-in-the-os-sandbox). */
export const BashSandboxSettingsSchema = z.object({
  /** auto: sandboxed where the OS offers one, else unconfined and the card says so; required: no sandbox, no bash; off: never sandboxed. */
  mode: z.enum(["auto", "required", "off"]),
  /** Network inside the sandbox. */
  network: z.boolean(),
});
export type BashSandboxSettings = z.infer<typeof BashSandboxSettingsSchema>;

/** The sandbox this machine offers bash (what Settings shows). */
export const BashSandboxStatusSchema = z.object({
  kind: z.enum(["bwrap", "sandbox-exec", "none"]),
  /** Why there is none (missing, or cannot create its namespaces here). */
  reason: z.string().optional(),
});
export type BashSandboxStatus = z.infer<typeof BashSandboxStatusSchema>;

export const NetworkSettingsSchema = z.object({
  /** A PEM file of extra trusted CA certificates (a TLS-inspecting proxy's), added to the system's; null: none. */
  caFile: z.string().trim().min(1).max(4096).nullable(),
});
export type NetworkSettings = z.infer<typeof NetworkSettingsSchema>;

/** Sub-agents the task tool starts (docs/sub-agents.md#caps-that-hold). */
export const SubAgentSettingsSchema = z.object({
  /** The sub-agents' model; null: the model of the agent that starts them. */
  model: ModelRefSchema.nullable(),
  /** Sub-agents one turn may start, counted over the whole tree. */
  maxPerTurn: z.number().int().min(1).max(50),
  /** Sub-agents of one agent running at the same time. */
  maxConcurrent: z.number().int().min(1).max(10),
  /** Levels of sub-agents below the main agent (1: a sub-agent cannot start sub-agents; 0: no sub-agents). */
  maxDepth: z.number().int().min(0).max(3),
  /** Sub-agents also get write, edit and bash (approved as the parent's are); off: read-only tools only. */
  sideEffects: z.boolean(),
});
export type SubAgentSettings = z.infer<typeof SubAgentSettingsSchema>;

export const SettingsSchema = z.object({
  defaultModel: ModelRefSchema.nullable(),
  approvalPolicy: ApprovalPolicySchema,
  budget: BudgetSchema,
  /** Base URL overrides per provider key. */
  baseUrls: z.record(z.string(), z.string().url()),
  theme: z.enum(["system", "light", "dark"]),
  /** Workspace checkpoints (docs/checkpoints.md). */
  checkpoints: CheckpointSettingsSchema,
  /**
   * Send other models' reasoning as plain text to targets that take it (never
   * to Anthropic, which refuses it). Off: each model sees only its own reasoning.
   */
  demoteOtherReasoning: z.boolean(),
  bashSandbox: BashSandboxSettingsSchema,
  network: NetworkSettingsSchema,
  subAgents: SubAgentSettingsSchema,
  /** Where the model catalog is fetched from (models.dev's api.json shape); null: models.dev. */
  modelCatalogUrl: z.string().url().max(2048).nullable(),
  /** Per-turn limits: cost, model requests, wall time (on top of the tool budget). */
  limits: TurnLimitsSchema,
  /** Compaction: `ask` pauses the turn and asks before compacting instead of compacting on its own. */
  compaction: z.object({ ask: z.boolean() }),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const ProviderStatusSchema = z.object({
  key: z.string(),
  label: z.string(),
  baseUrl: z.string(),
  /** Where the key comes from; the key itself never crosses the API. */
  /** awsChain / awsMissing: Bedrock, whose credentials the AWS SDK reads itself (environment, profile, SSO). */
  keySource: z.enum(["keychain", "env", "none", "notNeeded", "awsChain", "awsMissing"]),
  /** Last four characters, for recognition. */
  keyHint: z.string().nullable(),
  apiKeyEnv: z.string().nullable(),
});

export const SearchHitSchema = z.object({
  sessionId: z.string(),
  sessionTitle: z.string(),
  workspaceId: z.string(),
  seq: z.number().int(),
  /** Text with matches wrapped in \u0002…\u0003 markers (safe to render as text, then highlight). */
  snippet: z.string(),
  timestamp: z.number(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const McpServerStatusSchema = z.object({
  name: z.string(),
  source: z.enum(["workspace", "user"]),
  transport: z.enum(["stdio", "http"]),
  /** "untrusted": a server from the workspace's `.mcp.json` the user has not trusted; it is not started. */
  state: z.enum(["starting", "ready", "failed", "stopped", "untrusted"]),
  toolCount: z.number().int(),
  error: z.string().nullable(),
  stderrTail: z.string(),
  /** What starting it runs (command line) or connects to (URL), with the names of the variables it reads. */
  launch: z.string(),
  /**
   * Identifies this exact configuration and the workspace files it runs (docs/mcp-trust.md); `mcp.trust` takes it
   * back, so what is trusted is what the user saw.
   */
  fingerprint: z.string(),
  /** The workspace files the fingerprint covers, and what it cannot cover (code fetched at start, files outside the workspace). */
  pins: z.object({ files: z.array(z.string()), notes: z.array(z.string()) }),
  /** Tools left out because no provider can take their schema, with the reason. */
  skippedTools: z.array(z.string()),
  /** Its tools (full names) the user chose to always allow in this workspace, while the server runs what it ran then. */
  alwaysAllowed: z.array(z.string()),
});
export type McpServerStatus = z.infer<typeof McpServerStatusSchema>;

export const McpStatusSchema = z.object({
  workspaceId: z.string(),
  servers: z.array(McpServerStatusSchema),
  /** Problems in the config files (a bad entry skips that server only). */
  problems: z.array(z.string()),
  /** Where the servers are configured: the workspace's `.mcp.json` and the user's `mcp.json`. */
  files: z.object({ workspace: z.string(), user: z.string() }),
});
export type McpStatus = z.infer<typeof McpStatusSchema>;

export const FolderListingSchema = z.object({
  /** The listed folder, absolute, with links resolved. */
  path: z.string(),
  /** Its parent; null at the root. */
  parent: z.string().nullable(),
  home: z.string(),
  folders: z.array(z.object({ name: z.string(), path: z.string(), readable: z.boolean() })),
  /** More folders than the listing holds (FOLDER_LISTING_MAX). */
  truncated: z.boolean(),
});
export type FolderListing = z.infer<typeof FolderListingSchema>;

/** An instruction file (AGENTS.md / CLAUDE.md) in the system prompt. */
export const InstructionFileSchema = z.object({
  path: z.string(),
  scope: z.enum(["user", "workspace", "nested"]),
  bytes: z.number().int(),
  truncated: z.boolean(),
});
export type InstructionFile = z.infer<typeof InstructionFileSchema>;

/** A skill the model is offered (docs/conventions.md#skills): its name and description are in the system prompt. */
export const SkillInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  scope: z.enum(["workspace", "user"]),
  path: z.string(),
});
export type SkillInfo = z.infer<typeof SkillInfoSchema>;

/** A file that would have reached the prompt but was left out: a link leading out of the workspace, a FIFO… (docs/prompt-files.md). */
export const SkippedPromptFileSchema = z.object({ path: z.string(), reason: z.string() });
export type SkippedPromptFile = z.infer<typeof SkippedPromptFileSchema>;

/** A file mention: `@src/a.ts` or `@src/a.ts:10-40`. */
export const MentionSchema = z.object({
  path: z.string().min(1).max(4096),
  startLine: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
});
export type Mention = z.infer<typeof MentionSchema>;

export const FileMatchSchema = z.object({
  path: z.string(),
  /** Matched character positions in `path`, for highlighting. */
  positions: z.array(z.number().int()),
});

export const PromptCommandSchema = z.object({
  /** Typed after `/`. */
  name: z.string(),
  description: z.string(),
  source: z.enum(["builtin", "workspace", "user"]),
  /** User templates: the text, `$ARGUMENTS` replaced by what follows the command. */
  template: z.string().optional(),
  /** Where a template comes from. */
  file: z.string().optional(),
});
export type PromptCommand = z.infer<typeof PromptCommandSchema>;

/** A prompt template as the composer sends it: by name, with what followed the command. */
export const PromptCommandCallSchema = z.object({ name: z.string().min(1).max(64), args: z.string().max(100_000) }).strict();
export type PromptCommandCall = z.infer<typeof PromptCommandCallSchema>;

const SessionId = z.object({ sessionId: z.string().min(1) });
const Empty = z.object({}).strict();
const Ok = z.object({ ok: z.literal(true) });

// ---------------------------------------------------------------- requests

export const requests = lazyTable({
  "app.info": () => ({
    params: Empty,
    result: z.object({
      mode: z.enum(["electron", "web"]),
      version: z.string(),
      /** Workspace given on the command line, opened at start. */
      initialWorkspace: WorkspaceSchema.nullable(),
      demo: z.boolean(),
      notices: z.array(z.string()),
      /** The model a new session gets (settings, else the first configured; the demo with --demo). */
      defaultModel: ModelRefSchema.nullable(),
      /** Where keys saved in Settings are kept (the OS keychain, web mode's key file); null: environment variables only. */
      keyStore: z.string().nullable(),
    }),
  }),
  "workspace.open": () => ({ params: z.object({ path: z.string().min(1) }).strict(), result: WorkspaceSchema }),
  "workspace.pick": () => ({ params: Empty, result: WorkspaceSchema.nullable() }),
  "workspace.recent": () => ({ params: Empty, result: z.array(WorkspaceSchema) }),
  /**
   * The folders inside `path` (default: the user's home) for web mode's folder browser: sub-folders only, sorted,
   * hidden ones only with `showHidden`, each marked `readable` (the user may list and enter it).
   */
  "workspace.browse": () => ({
    params: z.object({ path: z.string().min(1).max(4096).optional(), showHidden: z.boolean().optional() }).strict(),
    result: FolderListingSchema,
  }),
  "session.list": () => ({
    params: z
      .object({ workspaceId: z.string(), limit: z.number().int().min(1).max(500).optional(), before: z.number().optional() })
      .strict(),
    result: z.object({ sessions: z.array(SessionSummarySchema), hasMore: z.boolean() }),
  }),
  "session.search": () => ({
    params: z
      .object({ query: z.string().min(1).max(500), workspaceId: z.string().optional(), limit: z.number().int().min(1).max(200).optional() })
      .strict(),
    result: z.array(SearchHitSchema),
  }),
  /** Full-text search across every workspace, with filters, grouped per session (shared/search.ts). */
  "search.everything": () => ({ params: SearchEverythingParamsSchema, result: SearchEverythingResultSchema }),
  /** OpenTelemetry export (shared/otel.ts): settings, and sending one session's trace now. */
  "otel.get": () => ({ params: Empty, result: OtelStatusSchema }),
  "otel.update": () => ({ params: OtelUpdateSchema, result: OtelStatusSchema }),
  /** `target`: send to this endpoint once (a headless run's --otlp), instead of the configured one; never stored. */
  "otel.exportSession": () => ({
    params: SessionId.extend({ target: OtelTargetSchema.optional() }).strict(),
    result: z.object({ spans: z.number().int() }),
  }),
  "session.create": () => ({
    params: z.object({ workspaceId: z.string(), model: ModelRefSchema.optional(), title: z.string().max(200).optional() }).strict(),
    result: SessionSummarySchema,
  }),
  "session.rename": () => ({ params: SessionId.extend({ title: z.string().min(1).max(200) }).strict(), result: SessionSummarySchema }),
  "session.delete": () => ({ params: SessionId.strict(), result: Ok }),
  "session.fork": () => ({
    params: SessionId.extend({ atSeq: z.number().int().nonnegative(), model: ModelRefSchema.optional() }).strict(),
    result: SessionSummarySchema,
  }),
  "session.load": () => ({
    /** `tail`: only the last N entries (a long session paints first, then loads the rest with session.entries). */
    params: SessionId.extend({ tail: z.number().int().min(1).max(1_000_000).optional() }).strict(),
    result: z.object({
      session: SessionSummarySchema,
      entries: z.array(StoredEntrySchema),
      /** Stored rows in the same range that could not be read, and runs of missing ones (shown as "damaged entry" rows). */
      damaged: z.array(DamagedEntrySchema).optional(),
      turn: TurnStateSchema,
      /** Ask mode switched on or off after entry `afterSeq` (shown as markers). */
      modeChanges: z.array(ModeChangeSchema),
    }),
  }),
  "session.entries": () => ({
    /** Entries with fromSeq <= seq <= toSeq, in order. */
    params: SessionId.extend({ fromSeq: z.number().int().min(1).optional(), toSeq: z.number().int().min(1).optional() }).strict(),
    result: z.object({ entries: z.array(StoredEntrySchema), damaged: z.array(DamagedEntrySchema).optional() }),
  }),
  "chat.send": () => ({
    params: SessionId.extend({
      text: z.string().max(1_000_000),
      images: z.array(ImageContentSchema).max(20).optional(),
      /** Files mentioned with @: their content (or line range) is attached to the message. */
      mentions: z.array(MentionSchema).max(50).optional(),
      /** "askEach": the turn this message starts asks for every side effect not denied, whatever saved rules and settings allow (headless --approve none / read-only). */
      approvals: z.enum(["rules", "askEach"]).optional(),
      /**
       * A prompt template chosen in the `/` menu: the core reads it (docs/prompt-files.md) and sends it expanded with
       * `args` as the message; `text` must then be empty.
       */
      command: PromptCommandCallSchema.optional(),
      /**
       * While a turn runs: "followUp" (default) waits for the turn to end and starts the next one; "steer" joins
       * the running turn at its next tool boundary (docs/sub-agents.md#steering-and-follow-ups). Idle: both start a turn.
       */
      delivery: z.enum(["followUp", "steer"]).optional(),
      /** Limits for the turn this message starts, over the ones in Settings (headless --max-budget-usd, --max-turns). */
      limits: TurnLimitsSchema.partial().strict().optional(),
    }).strict(),
    result: z.object({ queued: z.boolean() }),
  }),
  /**
   * The user's edit of the todo plan: stored as a planEdit entry the model reads on its next request (at the
   * next tool boundary while a turn runs). Refused for a plan over the tool's bounds.
   */
  "session.setPlan": () => ({ params: SessionId.extend({ items: TodoPlanInputSchema }).strict(), result: Ok }),
  "chat.abort": () => ({ params: SessionId.strict(), result: Ok }),
  /**
   * Retry after a failed request: runs the turn again from the stored history, the user's message not stored
   * (nor sent) a second time. CONFLICT while a turn runs or when the last turn did not fail.
   */
  "chat.retry": () => ({ params: SessionId.strict(), result: Ok }),
  /** Sessions whose turn is running or waiting for an approval (badges in the list after a reload). */
  "chat.activeTurns": () => ({ params: Empty, result: z.array(TurnStateSchema) }),
  "chat.switchModel": () => ({ params: SessionId.extend({ model: ModelRefSchema }).strict(), result: SessionSummarySchema }),
  /** Sets the session's reasoning level; during a running turn it applies from the next request. */
  "chat.setReasoning": () => ({ params: SessionId.extend({ level: ReasoningLevelSchema }).strict(), result: SessionSummarySchema }),
  "approval.answer": () => ({
    params: SessionId.extend({
      toolCallId: z.string(),
      /** approveUnsandboxed: this one bash call runs outside the OS sandbox (never a rule, never for the session). */
      decision: z.enum(["approve", "approveForSession", "approveAlways", "approveUnsandboxed", "deny", "denyAlways"]),
      reason: z.string().max(10_000).optional(),
      /** For approveForSession / approveAlways / denyAlways: the rule the card showed (it must cover this call). */
      rule: z.string().min(1).max(2000).optional(),
      /** With an approval of a write/edit: only some hunks accepted, or the proposal edited by the user. */
      review: ChangeReviewSchema.optional(),
    }).strict(),
    result: Ok,
  }),
  /** Ask mode on or off; switching is recorded as a marker in the transcript. */
  "session.setMode": () => ({ params: SessionId.extend({ mode: SessionModeSchema }).strict(), result: TurnStateSchema }),
  /** Compacts the conversation now (the `/compact` command, "Compact now"); during a turn, before its next request. */
  "session.compact": () => ({ params: SessionId.strict(), result: Ok }),
  /** Answers a turn paused before compacting (TurnState.pendingCompaction). */
  "session.answerCompaction": () => ({
    params: SessionId.extend({ decision: z.enum(["compact", "stop"]) }).strict(),
    result: Ok,
  }),
  /** How full the session's context is now (the meter before the next request announces it); null until the core has the session in use. */
  "session.contextMeter": () => ({ params: SessionId.strict(), result: ContextMeterSchema.nullable() }),
  /** The instruction files (AGENTS.md …) in the session's system prompt. */
  "session.instructions": () => ({
    params: SessionId.strict(),
    result: z.object({
      files: z.array(InstructionFileSchema),
      skipped: z.array(SkippedPromptFileSchema),
      /** The skills offered (a SKILL.md left out is in `skipped`). */
      skills: z.array(SkillInfoSchema).optional(),
    }),
  }),
  /** Fuzzy search of the workspace's files (gitignore-aware) for @-mentions. */
  "files.search": () => ({
    params: z
      .object({ workspaceId: z.string().min(1), query: z.string().max(500), limit: z.number().int().min(1).max(200).optional() })
      .strict(),
    result: z.object({ files: z.array(FileMatchSchema), total: z.number().int() }),
  }),
  /** Built-in commands and the user's templates (`.agents/commands/*.md` in the workspace and the user's config folder). */
  "commands.list": () => ({ params: z.object({ workspaceId: z.string().min(1) }).strict(), result: z.array(PromptCommandSchema) }),
  "mcp.status": () => ({ params: z.object({ workspaceId: z.string().min(1) }).strict(), result: McpStatusSchema }),
  /** Restarts one server; with no `name`, reads the config files again and restarts them all. */
  "mcp.restart": () => ({
    params: z.object({ workspaceId: z.string().min(1), name: z.string().optional() }).strict(),
    result: McpStatusSchema,
  }),
  /**
   * Trusts (or revokes trust in) servers from the workspace's `.mcp.json`, each by the fingerprint `mcp.status`
   * showed: a trusted server starts, a revoked one stops. A changed configuration is refused (CONFLICT).
   */
  /** Forgets "always allow" for one MCP tool (by its full name) in the workspace: it is asked again. */
  "mcp.forgetTool": () => ({
    params: z.object({ workspaceId: z.string().min(1), tool: z.string().min(1) }).strict(),
    result: McpStatusSchema,
  }),
  /** The workspace's and the user's hooks (docs/conventions.md#hooks): what runs, and whether the workspace's are trusted as they are now. */
  "hooks.status": () => ({
    params: z.object({ workspaceId: z.string().min(1) }).strict(),
    result: z.object({
      hooks: z.array(
        z.object({
          event: z.string(),
          matcher: z.string(),
          command: z.string(),
          timeoutS: z.number(),
          source: z.enum(["workspace", "user"]),
        }),
      ),
      /** The workspace hooks' fingerprint (null without any) and whether the user trusted exactly these. */
      fingerprint: z.string().nullable(),
      trusted: z.boolean(),
      problems: z.array(z.object({ path: z.string(), reason: z.string() })),
    }),
  }),
  /** Trusts the workspace's hooks with this fingerprint (as shown by hooks.status), or withdraws the trust. */
  "hooks.trust": () => ({
    params: z.object({ workspaceId: z.string().min(1), fingerprint: z.string().regex(/^[0-9a-f]{64}$/), trusted: z.boolean() }).strict(),
    result: Ok,
  }),
  "mcp.trust": () => ({
    params: z
      .object({
        workspaceId: z.string().min(1),
        servers: z
          .array(z.object({ name: z.string().min(1), fingerprint: z.string().regex(/^[0-9a-f]{64}$/) }).strict())
          .min(1)
          .max(100),
        trusted: z.boolean(),
      })
      .strict(),
    result: McpStatusSchema,
  }),
  "models.list": () => ({ params: Empty, result: z.array(ModelOptionSchema) }),
  /** `models.list` after asking local servers (Ollama, LM Studio) which models they have installed. */
  "models.refresh": () => ({ params: Empty, result: z.array(ModelOptionSchema) }),
  "providers.list": () => ({ params: Empty, result: z.array(ProviderStatusSchema) }),
  "secrets.setApiKey": () => ({
    params: z.object({ provider: z.string().min(1), apiKey: z.string().max(10_000) }).strict(),
    result: ProviderStatusSchema,
  }),
  /** Saved approval rules of a workspace (always allow / always deny). */
  "rules.list": () => ({ params: z.object({ workspaceId: z.string() }).strict(), result: z.array(ApprovalRuleSchema) }),
  "rules.add": () => ({
    params: z
      .object({ workspaceId: z.string(), tool: RuleToolSchema, action: z.enum(["allow", "deny"]), pattern: z.string().min(1).max(2000) })
      .strict(),
    result: ApprovalRuleSchema,
  }),
  "rules.update": () => ({
    params: z
      .object({
        workspaceId: z.string(),
        id: z.string(),
        action: z.enum(["allow", "deny"]).optional(),
        pattern: z.string().min(1).max(2000).optional(),
      })
      .strict(),
    result: ApprovalRuleSchema,
  }),
  "rules.remove": () => ({ params: z.object({ workspaceId: z.string(), id: z.string() }).strict(), result: Ok }),
  /** Session database files kept aside as damaged (newest first): Settings offers to recover from them. */
  "storage.keptFiles": () => ({
    params: Empty,
    result: z.array(z.object({ path: z.string(), bytes: z.number().int().nonnegative(), keptAt: z.number() })),
  }),
  /**
   * Copies every readable row of a kept file (one `storage.keptFiles` lists) into the current
   * database; sessions already here are left as they are, so a second run adds nothing.
   */
  "storage.recover": () => ({
    params: z.object({ path: z.string().min(1) }).strict(),
    result: z.object({
      sessions: z.number().int(),
      entries: z.number().int(),
      missingEntries: z.number().int(),
      alreadyPresent: z.number().int(),
      /** The same in one sentence. */
      summary: z.string(),
    }),
  }),
  "settings.get": () => ({ params: Empty, result: SettingsSchema }),
  "settings.update": () => ({ params: SettingsSchema.partial().strict(), result: SettingsSchema }),
  /** The OS sandbox bash would run in on this machine (probed once). */
  "tools.sandboxStatus": () => ({ params: Empty, result: BashSandboxStatusSchema }),

  // Checkpoints and rewind (electron/core/checkpoints, docs/checkpoints.md).
  /** The session's checkpoints in the order recorded (a fork's start with its parent's up to the fork point). */
  "checkpoint.list": () => ({ params: SessionId.strict(), result: z.array(CheckpointSchema) }),
  /** Files that differ from checkpoint `from` to checkpoint `to`, or to the workspace as it is now. */
  "checkpoint.diff": () => ({
    params: z.object({ from: z.number().int().positive(), to: z.union([z.number().int().positive(), z.literal("workspace")]) }).strict(),
    result: z.array(CheckpointFileDiffSchema),
  }),
  /** One file at a checkpoint: text when it is text, else base64; null when the checkpoint has no such file. */
  "checkpoint.file": () => ({
    params: z.object({ checkpointId: z.number().int().positive(), path: z.string().min(1).max(4096) }).strict(),
    result: z.object({ mode: z.string(), encoding: z.enum(["utf8", "base64"]), content: z.string() }).nullable(),
  }),
  /** Size, cap, location and rules of a workspace's checkpoint store. */
  "checkpoint.status": () => ({ params: z.object({ workspaceId: z.string().min(1) }).strict(), result: CheckpointStatusSchema }),
  /** What a rewind would do: every file that would change (with texts for the diff) and the conflicts. */
  "rewind.preview": () => ({ params: SessionId.extend({ target: RewindTargetSchema }).strict(), result: RewindPreviewSchema }),
  /**
   * Restores files, the conversation (a fork ending at the step) or both.
   * Refused (CONFLICT) while a turn runs in the workspace, and when files
   * changed outside the agent would be overwritten without `confirmConflicts`.
   */
  "rewind.apply": () => ({
    params: SessionId.extend({ target: RewindTargetSchema, mode: RewindModeSchema, confirmConflicts: z.boolean().optional() }).strict(),
    result: z.object({
      restoredFiles: z.array(z.string()),
      /** Rewind to this checkpoint to undo the file restore (null when no file was restored). */
      undoCheckpointId: z.number().int().nullable(),
      /** The new session the conversation continues in. */
      forked: SessionSummarySchema.nullable(),
      /** The user message the rewind went back before, to edit and send again. */
      draft: z.string().nullable(),
    }),
  }),

  // Replay and review (handlers in electron/core/review/handlers.ts).
  /** Every entry as timeline items, with the session statistics. */
  "review.timeline": () => ({ params: SessionId.strict(), result: TimelineSchema }),
  /** The exact request body behind the assistant entry at `seq`, with wire ids mapped back to stored ids. */
  "review.modelView": () => ({ params: SessionId.extend({ seq: z.number().int().positive() }).strict(), result: ModelViewSchema }),
  /**
   * The same request as `review.modelView`, rebuilt afresh, with the body as
   * its first `lines` pretty-printed lines (the dialog's first screen); the
   * rest is read with `review.modelViewText`.
   */
  "review.modelViewHead": () => ({
    params: SessionId.extend({ seq: z.number().int().positive(), lines: z.number().int().positive().max(100_000) }).strict(),
    result: ModelViewHeadSchema,
  }),
  /** Lines `from` .. `from + count` of that pretty-printed body (of the request last rebuilt for this step). */
  "review.modelViewText": () => ({
    params: SessionId.extend({
      seq: z.number().int().positive(),
      from: z.number().int().nonnegative(),
      count: z.number().int().positive(),
    }).strict(),
    result: ModelViewTextSchema,
  }),
  /** Where a fork came from, as replay numbers it: the source session's title and the step at the fork point; null when the source is gone. */
  "review.forkOrigin": () => ({
    params: z.object({ sourceSessionId: z.string().min(1), sourceSeq: z.number().int().nonnegative() }).strict(),
    result: z.object({ title: z.string(), step: z.number().int().positive() }).strict().nullable(),
  }),
  /** Each file the session's write/edit calls touched up to `seq`: content before the session and as of `seq`. */
  "review.fileStates": () => ({ params: SessionId.extend({ seq: z.number().int().nonnegative() }).strict(), result: FileStatesSchema }),
  /**
   * Every file the session changed after entry `fromSeq` (0: since it started) up to `toSeq`
   * (default: its latest entry), with line counts: the Changes view.
   */
  "review.changes": () => ({
    params: SessionId.extend({ fromSeq: z.number().int().nonnegative(), toSeq: z.number().int().positive().optional() }).strict(),
    result: ChangeSetSchema,
  }),
  /** One file of `review.changes`: its content at `fromSeq` and at `toSeq`. */
  "review.changeDiff": () => ({
    params: SessionId.extend({
      fromSeq: z.number().int().nonnegative(),
      toSeq: z.number().int().positive().optional(),
      path: z.string().min(1).max(4096),
    }).strict(),
    result: ChangeDiffSchema,
  }),
  "review.notes.list": () => ({
    params: SessionId.extend({
      /** "none": notes without a verdict. */
      verdict: z.enum(["ok", "problem", "none"]).optional(),
      author: z.string().max(200).optional(),
      seq: z.number().int().positive().optional(),
    }).strict(),
    result: z.array(ReviewNoteSchema),
  }),
  "review.notes.add": () => ({
    params: SessionId.extend({
      seq: z.number().int().positive(),
      author: z.string().trim().min(1).max(200),
      verdict: NoteVerdictSchema.nullable(),
      text: z.string().max(100_000),
      /** A comment on a diff line: both or neither. */
      path: z.string().min(1).max(4096).optional(),
      line: z.number().int().min(1).optional(),
    }).strict(),
    result: ReviewNoteSchema,
  }),
  "review.notes.delete": () => ({ params: SessionId.extend({ noteId: z.number().int().positive() }).strict(), result: Ok }),
  /** Secrets are redacted in every format. */
  "review.export": () => ({
    params: SessionId.extend({
      format: ExportFormatSchema,
      /** Append the workspace diff of the whole session, from its checkpoints (docs/checkpoints.md). */
      includeWorkspaceDiff: z.boolean().optional(),
    }).strict(),
    result: ExportFileSchema,
  }),
  /** Imports a JSON export as a new session (new ids) in the workspace; the renderer sends files in chunks instead (below). */
  "review.import": () => ({
    params: z.object({ workspaceId: z.string().min(1), content: z.string().min(1).max(IMPORT_LIMITS.bytes) }).strict(),
    result: SessionSummarySchema,
  }),
  /**
   * Starts a chunked import of a file of `bytes` (UTF-8): refused with IMPORT_TOO_LARGE past
   * IMPORT_LIMITS.bytes. Chunks follow in order (`index` 0, 1, …); `finish` makes the session
   * visible in one transaction; `cancel` (or an error) leaves nothing behind.
   */
  "review.import.begin": () => ({
    params: z.object({ workspaceId: z.string().min(1), bytes: z.number().int().nonnegative() }).strict(),
    result: z.object({ importId: z.string(), chunkChars: z.number().int().positive() }),
  }),
  "review.import.chunk": () => ({
    params: z
      .object({
        importId: z.string().min(1).max(100),
        index: z.number().int().nonnegative(),
        text: z.string().max(IMPORT_LIMITS.chunkChars),
      })
      .strict(),
    result: z.object({ receivedBytes: z.number().int().nonnegative() }),
  }),
  "review.import.finish": () => ({ params: z.object({ importId: z.string().min(1).max(100) }).strict(), result: SessionSummarySchema }),
  "review.import.cancel": () => ({ params: z.object({ importId: z.string().min(1).max(100) }).strict(), result: Ok }),
  /** The folders each other agent keeps its sessions in, and the session files there (names and sizes only). */
  "importers.discover": () => ({
    params: z.object({}).strict(),
    result: z.object({ agents: z.array(AgentListingSchema) }),
  }),
  /**
   * Imports one session file that discovery listed (and a Claude Code session's sub-agent transcripts) as new
   * sessions of the workspace. Reads only; a file outside the agent's folder is refused.
   */
  "importers.import": () => ({
    params: z.object({ workspaceId: z.string().min(1), agent: ForeignAgentSchema, path: z.string().min(1).max(4096) }).strict(),
    result: z.object({ session: SessionSummarySchema, children: z.array(SessionSummarySchema), notHeld: z.array(z.string()) }),
  }),
  /** A new session holding the entries up to `atSeq`, switched to `model`; it links back to the source. */
  "review.fork": () => ({
    params: SessionId.extend({ atSeq: z.number().int().nonnegative(), model: ModelRefSchema }).strict(),
    result: SessionSummarySchema,
  }),
  ...teamRequests,
});

export type RequestMethod = keyof typeof requests;
export type RequestParams<M extends RequestMethod> = z.input<(typeof requests)[M]["params"]>;
export type RequestResult<M extends RequestMethod> = z.infer<(typeof requests)[M]["result"]>;

// ---------------------------------------------------------------- events

export const events = lazyTable({
  /** An entry was appended to the store (the source of truth for the transcript). */
  "session.entry": () => z.object({ sessionId: z.string(), seq: z.number().int(), entry: SessionEntrySchema }),
  /** The assistant message being streamed, as it stands (batched by the core). */
  "stream.partial": () => z.object({ sessionId: z.string(), message: AssistantMessageSchema }),
  /** Streaming ended (the final message arrives as a session.entry). */
  "stream.end": () => z.object({ sessionId: z.string() }),
  "tool.status": () =>
    z.object({
      sessionId: z.string(),
      toolCallId: z.string(),
      toolName: z.string(),
      status: ToolStatusSchema,
      durationMs: z.number().optional(),
    }),
  "turn.state": () => TurnStateSchema,
  "turn.retry": () =>
    z.object({
      sessionId: z.string(),
      attempt: z.number().int(),
      delayMs: z.number(),
      /** The wait is the provider's own (retry-after or another hint), not the app's backoff. */
      hinted: z.boolean().optional(),
      error: z.string(),
    }),
  "turn.error": () => z.object({ sessionId: z.string(), message: z.string() }),
  /** How full the context is, before each request and after each compaction. */
  "context.meter": () => ContextMeterSchema,
  "session.updated": () => SessionSummarySchema,
  "usage.updated": () => z.object({ sessionId: z.string(), usage: UsageSchema }),
  /** Something the user must know that is not about one session (the database reports damage). Also in app.info's notices. */
  "app.notice": () => z.object({ level: z.enum(["warning", "error"]), message: z.string() }),
  "mcp.status": () => McpStatusSchema,
  ...teamEvents,
});

export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

// ---------------------------------------------------------------- errors and wire frames

export const ApiErrorCodeSchema = z.enum([
  "INVALID_REQUEST",
  "UNKNOWN_METHOD",
  "NOT_FOUND",
  "CONFLICT",
  "UNSUPPORTED",
  "INTERNAL",
  /** An import's content fails validation; the message names the entry and the field. Nothing was stored. */
  "IMPORT_INVALID",
  /** An import past IMPORT_LIMITS (bytes or counts). Nothing was stored. */
  "IMPORT_TOO_LARGE",
  /** The session database refused a write (disk full, locked by another program, read-only, an I/O error): the same request can work once that is fixed. */
  "STORAGE",
  /** Client side: the core cannot be reached (WebSocket closed or reconnecting). */
  "UNAVAILABLE",
  ...TEAM_ERROR_CODES,
]);
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;

export const ApiErrorSchema = z.object({
  code: ApiErrorCodeSchema,
  message: z.string(),
  /** zod issues for INVALID_REQUEST. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

export type ApiResponse<T> = { ok: true; result: T } | { ok: false; error: ApiError };

/**
 * The largest request frame web mode's WebSocket takes (images included): a
 * larger one closes the connection (1009), so the client refuses it first.
 * Imports go in chunks (`review.import.chunk`) well under it.
 */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;

/** WebSocket frames (web mode). IPC carries the same params/response objects. */
export const ClientFrameSchema = z.object({
  id: z.number().int(),
  method: z.string(),
  params: z.unknown(),
});
export type ServerFrame =
  { kind: "response"; id: number; response: ApiResponse<unknown> } | { kind: "event"; event: EventName; payload: unknown };

/** What both transports expose to the renderer. */
export interface WorkbenchClient {
  call<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export class WorkbenchApiError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
    this.name = "WorkbenchApiError";
  }
}
