/**
 * Replay and review: the shapes the review requests return (timeline, session
 * statistics, file states, "what the model saw", notes) and the versioned
 * session export envelope (lossless JSON, re-importable).
 *
 * Pure module: zod only (see docs/architecture.md#layers).
 */
import { z } from "zod";
import { SessionOriginSchema } from "./foreign-agents";
import { ApprovalDecisionSchema, ModelRefSchema, SessionEntrySchema } from "./protocol";

// ---------------------------------------------------------------- timeline

export const TimelineKindSchema = z.enum([
  "user",
  "assistant",
  "toolCall",
  "toolResult",
  "approval",
  "modelSwitch",
  "reasoningChange",
  "compaction",
  "error",
  "rename",
  "fork",
  "planEdit",
]);
export type TimelineKind = z.infer<typeof TimelineKindSchema>;

/**
 * How an item ended. Assistant/error items: the stop reason. Tool calls and
 * results: ok / error / denied / aborted ("missing": a call with no stored
 * result). Approvals: the decision.
 */
export const TimelineOutcomeSchema = z.enum([
  "stop",
  "toolUse",
  "length",
  "error",
  "aborted",
  "ok",
  "denied",
  "missing",
  "approved",
  "approvedForSession",
  "autoApproved",
  "autoDenied",
]);
export type TimelineOutcome = z.infer<typeof TimelineOutcomeSchema>;

export const TokenCountsSchema = z.object({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  total: z.number(),
});
export type TokenCounts = z.infer<typeof TokenCountsSchema>;

export const TimelineItemSchema = z.object({
  /** Position in the timeline (0-based); several items can share a seq (an assistant message and its tool calls). */
  index: z.number().int(),
  /** The stored entry this item comes from. */
  seq: z.number().int(),
  kind: TimelineKindSchema,
  timestamp: z.number(),
  /** The model that wrote it (assistant, error, compaction), made the call (toolCall, toolResult, approval) or was switched to (modelSwitch). */
  model: ModelRefSchema.nullable(),
  tokens: TokenCountsSchema.nullable(),
  cost: z.number().nullable(),
  /** Time since the entry that triggered this one (assistant: the preceding message; tool result: its call; approval: its call). */
  latencyMs: z.number().nullable(),
  /** Tool execution time from the audit (tool results and calls). */
  durationMs: z.number().nullable(),
  toolName: z.string().nullable(),
  toolCallId: z.string().nullable(),
  outcome: TimelineOutcomeSchema.nullable(),
  /** Typed tool error code (details.errorCode or the audit), when there is one. */
  errorCode: z.string().nullable(),
  /** A side-effect tool (write, edit, bash) or anything that went through approval. */
  sideEffect: z.boolean(),
  /** The item counts as an error (failed request, failed tool call). */
  isError: z.boolean(),
  /** One line for the timeline list (plain text, never HTML). */
  summary: z.string(),
});
export type TimelineItem = z.infer<typeof TimelineItemSchema>;

const UsageLineSchema = z.object({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  totalTokens: z.number(),
  cost: z.number(),
});

export const ToolStatsSchema = z.object({
  toolName: z.string(),
  total: z.number().int(),
  ok: z.number().int(),
  error: z.number().int(),
  denied: z.number().int(),
  aborted: z.number().int(),
  missing: z.number().int(),
});
export type ToolStats = z.infer<typeof ToolStatsSchema>;

export const SessionStatsSchema = z.object({
  entries: z.number().int(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  durationMs: z.number(),
  /** User messages typed by the user (the loop's own "continue" prompts excluded). */
  turns: z.number().int(),
  assistantMessages: z.number().int(),
  toolCalls: z.object({ total: z.number().int(), byTool: z.array(ToolStatsSchema) }),
  approvals: z.object({
    /** approved + approvedForSession + autoApproved */
    granted: z.number().int(),
    /** denied + autoDenied */
    denied: z.number().int(),
    byDecision: z.record(ApprovalDecisionSchema, z.number().int()),
  }),
  errors: z.object({
    /** Assistant messages that ended with stopReason "error". */
    requests: z.number().int(),
    /** Tool results with isError that were not denials or aborts. */
    tools: z.number().int(),
    /** Failed requests followed by another request in the same turn (the loop retried). */
    retries: z.number().int(),
    aborted: z.number().int(),
  }),
  modelSwitches: z.number().int(),
  compactions: z.number().int(),
  /** Per model, most expensive first. */
  byModel: z.array(UsageLineSchema.extend({ model: ModelRefSchema, messages: z.number().int() })),
  totals: UsageLineSchema,
});
export type SessionStats = z.infer<typeof SessionStatsSchema>;

export const TimelineSchema = z.object({
  items: z.array(TimelineItemSchema),
  stats: SessionStatsSchema,
  /** Stored rows that could not be read (shown as gaps). */
  problems: z.array(z.object({ seq: z.number().int(), kind: z.string(), code: z.string(), message: z.string() })),
  /** For a fork: the replay step of the source session it was forked at (null when that session is gone). */
  forkedFromStep: z.number().int().positive().nullable().optional(),
  /** The session came from an imported export (its steps were recorded elsewhere). */
  imported: z.boolean().optional(),
  /** Imported from another agent's files: which, and what its format could not hold (absent: recorded here or an export). */
  origin: SessionOriginSchema.optional(),
});
export type Timeline = z.infer<typeof TimelineSchema>;

// ---------------------------------------------------------------- file states

export const FileChangeRefSchema = z.object({
  seq: z.number().int(),
  toolCallId: z.string(),
  toolName: z.string(),
  added: z.number().int(),
  removed: z.number().int(),
});

export const FileStateSchema = z.object({
  /** Workspace-relative path as the tool reported it. */
  path: z.string(),
  /** Content before the session touched it; null when the session created the file. */
  before: z.string().nullable(),
  /** Content as of the step. */
  after: z.string().nullable(),
  /** False when the tool omitted the full text (large files) and it could not be rebuilt from diffs. */
  beforeKnown: z.boolean(),
  afterKnown: z.boolean(),
  created: z.boolean(),
  /** The unified diff of the latest change (always present in the tool details). */
  lastDiff: z.string(),
  changes: z.array(FileChangeRefSchema),
});
export type FileState = z.infer<typeof FileStateSchema>;

export const FileStatesSchema = z.object({
  seq: z.number().int(),
  files: z.array(FileStateSchema),
  /** bash runs up to the step: they may have changed files the review cannot see. */
  untracked: z.array(z.object({ seq: z.number().int(), toolCallId: z.string(), command: z.string() })),
});
export type FileStates = z.infer<typeof FileStatesSchema>;

// ---------------------------------------------------------------- what the model saw

/**
 * What the boundary transform changed or left out of a request, and why: the
 * stored history is never rewritten, so this is how a reviewer learns that the
 * model did not see something the transcript shows.
 */
export const RequestRepairKindSchema = z.enum([
  /** Another model's reasoning is not sent (the default on every target). */
  "otherReasoningDropped",
  /** Another model's reasoning sent as plain text (the demotion setting, never for Anthropic). */
  "otherReasoningDemoted",
  /** An empty `reasoning_content` supplied on an assistant tool-call message (DeepSeek / Kimi thinking mode). */
  "reasoningContentSupplied",
  /** A Responses reasoning item that cannot be replayed statelessly (no `encrypted_content`). */
  "reasoningItemDropped",
  /** Lone UTF-16 surrogates replaced with U+FFFD. */
  "surrogatesReplaced",
  /** An image of a type the target does not take, replaced by a note. */
  "imageOmitted",
]);
export type RequestRepairKind = z.infer<typeof RequestRepairKindSchema>;

export const RequestRepairSchema = z.object({
  kind: RequestRepairKindSchema,
  /** Index of the stored message in the history sent; null when the repair is not tied to one stored message. */
  messageIndex: z.number().int().nonnegative().nullable(),
  /** One line for the reviewer. */
  detail: z.string(),
});
export type RequestRepair = z.infer<typeof RequestRepairSchema>;

/** A file or image that reached a request without a tool call (docs/prompt-files.md). */
export const PromptSourceSchema = z.object({
  kind: z.enum(["instructions", "mention", "template", "image"]),
  /** Workspace-relative, or absolute for the user's own files; null for an image (attached in the composer, read by the browser). */
  path: z.string().nullable(),
  /** The user message it came with; null for the system prompt's instruction files. */
  seq: z.number().int().nullable(),
  /** Size on disk (an image: its decoded size). */
  bytes: z.number().int().nonnegative(),
  /** Less than the whole file reached the request (cut at a cap). */
  truncated: z.boolean(),
  /** An instruction file's scope, a mention's line range, a template's command, an image's type. */
  detail: z.string().optional(),
  /** Left out, and why (an instruction file that is a link leading outside, a FIFO…). */
  skipped: z.string().optional(),
});
export type PromptSource = z.infer<typeof PromptSourceSchema>;

export const ModelViewSchema = z.object({
  seq: z.number().int(),
  model: ModelRefSchema,
  /** The exact request body (the boundary transform applied): as recorded when it was sent, else rebuilt. */
  body: z.unknown(),
  /**
   * True: `body` is the request as it went out, recorded at send time. False: the session has no
   * record of it (stored before requests were recorded, or imported) and it was rebuilt from the
   * stored entries with today's instructions, tools and settings, so it may differ from what was sent.
   */
  recorded: z.boolean(),
  /** The recorded body's bytes as sent (absent when rebuilt). */
  raw: z.string().optional(),
  /** wire tool-call id -> stored id, for this request only. */
  idMap: z.record(z.string(), z.string()),
  /** wire tool name -> the app's tool name. */
  toolNames: z.record(z.string(), z.string()),
  /** The time the system prompt's date was taken from (the message before the request). */
  requestTime: z.number(),
  /** What the request leaves out of or changes in the stored history, with the entry it concerns when there is one. */
  repairs: z.array(RequestRepairSchema.extend({ seq: z.number().int().nullable() })),
  /** The files and images that reached this request without a tool call, with where they came from. */
  sources: z.array(PromptSourceSchema),
});
export type ModelView = z.infer<typeof ModelViewSchema>;

/**
 * Lines of the request body pretty-printed (`JSON.stringify(body, null, 2)`,
 * split at newlines): "what the model saw" fetches a long body in windows as
 * it scrolls instead of sending a megabyte of JSON at open.
 */
export const ModelViewTextSchema = z.object({
  /** Lines in the whole pretty-printed body. */
  totalLines: z.number().int().nonnegative(),
  /** Characters in the whole pretty-printed body. */
  totalChars: z.number().int().nonnegative(),
  /** Index of the first line given. */
  from: z.number().int().nonnegative(),
  lines: z.array(z.string()),
});
export type ModelViewText = z.infer<typeof ModelViewTextSchema>;

/** "What the model saw" without the body object: its first lines as text, the rest fetched by line (review.modelViewText). */
export const ModelViewHeadSchema = ModelViewSchema.omit({ body: true, raw: true }).extend({ text: ModelViewTextSchema });
export type ModelViewHead = z.infer<typeof ModelViewHeadSchema>;

// ---------------------------------------------------------------- notes

export const NoteVerdictSchema = z.enum(["ok", "problem"]);
export type NoteVerdict = z.infer<typeof NoteVerdictSchema>;

export const ReviewNoteSchema = z.object({
  id: z.number().int(),
  sessionId: z.string(),
  seq: z.number().int(),
  author: z.string(),
  verdict: NoteVerdictSchema.nullable(),
  text: z.string(),
  createdAt: z.number(),
  /** A review comment on a diff line: the file and the line (in the file as changed); null for a note on the step. */
  path: z.string().nullable(),
  line: z.number().int().nullable(),
});
export type ReviewNote = z.infer<typeof ReviewNoteSchema>;

// ---------------------------------------------------------------- export envelope

export const EXPORT_FORMAT = "agent-workbench.session";
export const EXPORT_VERSION = 1;

export const ExportFormatSchema = z.enum(["json", "markdown", "html"]);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

export const ExportedNoteSchema = z
  .object({
    id: z.number().int(),
    seq: z.number().int(),
    author: z.string(),
    verdict: NoteVerdictSchema.nullable(),
    text: z.string(),
    createdAt: z.number(),
    /** Line comments only (absent in exports written before comments existed). */
    path: z.string().min(1).optional(),
    line: z.number().int().min(1).optional(),
  })
  .strict();
export type ExportedNote = z.infer<typeof ExportedNoteSchema>;

export const ExportedToolCallSchema = z
  .object({
    id: z.number().int(),
    toolCallId: z.string(),
    toolName: z.string(),
    args: z.unknown(),
    status: z.enum(["proposed", "approved", "denied", "running", "done", "error", "aborted"]),
    durationMs: z.number().nullable(),
    errorCode: z.string().nullable(),
    outputBytes: z.number().nullable(),
    approvalDecision: ApprovalDecisionSchema.nullable(),
    decidedBy: z.string().nullable(),
    decidedAt: z.number().nullable(),
    createdAt: z.number(),
    updatedAt: z.number(),
  })
  .strict();
export type ExportedToolCall = z.infer<typeof ExportedToolCallSchema>;

export const ExportedEntrySchema = z.object({ seq: z.number().int().positive(), entry: SessionEntrySchema }).strict();

/**
 * The lossless JSON export. Secrets are redacted and thinking signatures are
 * dropped (opaque provider data, useless outside the provider account that
 * made them); everything else is the stored data verbatim. Session metadata
 * holds only what an import restores: times come from the entries.
 */
export const SessionExportSchema = z
  .object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    session: z
      .object({
        id: z.string(),
        title: z.string(),
        model: ModelRefSchema.nullable(),
        startedAt: z.number().nullable(),
        endedAt: z.number().nullable(),
        /** From the session's own fork entry, when it is a fork. */
        forkedFrom: z.object({ sessionId: z.string(), seq: z.number().int() }).strict().nullable(),
      })
      .strict(),
    redaction: z.object({ secrets: z.literal("redacted"), thinkingSignatures: z.literal("dropped") }).strict(),
    entries: z.array(ExportedEntrySchema),
    notes: z.array(ExportedNoteSchema),
    toolCalls: z.array(ExportedToolCallSchema),
    /**
     * Stored rows that could not be read when exporting (not importable), with their stored text as it
     * is (`raw`, redacted like the rest), and runs of missing entries (`toSeq`: the last of the run).
     */
    problems: z.array(
      z
        .object({
          seq: z.number().int(),
          kind: z.string(),
          code: z.string(),
          message: z.string(),
          toSeq: z.number().int().optional(),
          raw: z.string().optional(),
        })
        .strict(),
    ),
  })
  .strict();
export type SessionExport = z.infer<typeof SessionExportSchema>;

/**
 * What an import accepts (docs: electron/core/review/README.md, "Import").
 * The renderer sends a file in chunks of at most `chunkChars` characters
 * (`review.import.begin` / `.chunk` / `.finish`), so no request frame grows
 * with the file; a file past `bytes` or `entries` fails with
 * IMPORT_TOO_LARGE before any of it is visible.
 */
export const IMPORT_LIMITS = {
  /** The file, in UTF-8 bytes. */
  bytes: 256 * 1024 * 1024,
  entries: 200_000,
  notes: 100_000,
  toolCalls: 200_000,
  /** One entry, note or audit row as JSON text (a write of a 10 MB file holds it twice, with its diff). */
  itemChars: 64 * 1024 * 1024,
  /** Nesting of objects and arrays in one entry (tool arguments, details): far past what tools and models write. */
  depth: 128,
  /** One `review.import.chunk`. */
  chunkChars: 1024 * 1024,
} as const;
export type ImportLimits = { -readonly [K in keyof typeof IMPORT_LIMITS]: number };

export const ExportFileSchema = z.object({
  filename: z.string(),
  mimeType: z.string(),
  content: z.string(),
});
export type ExportFile = z.infer<typeof ExportFileSchema>;

// ---------------------------------------------------------------- changes (code review of a session)

export const ChangedFileSchema = z.object({
  path: z.string(),
  /** Renamed: the path it had before. */
  oldPath: z.string().nullable(),
  status: z.enum(["added", "modified", "deleted", "renamed"]),
  added: z.number().int(),
  removed: z.number().int(),
  hunks: z.number().int(),
  /** False when a side could not be rebuilt (a large file whose tools kept only the diff). */
  known: z.boolean(),
  /** The last entry that changed it within the range. */
  lastSeq: z.number().int(),
  /** Only line endings / whitespace differ. */
  kind: z.enum(["change", "whitespace", "lineEnding"]),
});
export type ChangedFile = z.infer<typeof ChangedFileSchema>;

export const ChangeSetSchema = z.object({
  /** Changes made after entry `fromSeq` (0: since the session started) up to entry `toSeq`. */
  fromSeq: z.number().int(),
  toSeq: z.number().int(),
  files: z.array(ChangedFileSchema),
  added: z.number().int(),
  removed: z.number().int(),
  /** bash runs in the range: they may have changed files this view cannot see (no checkpoint). */
  untracked: z.array(z.object({ seq: z.number().int(), toolCallId: z.string(), command: z.string() })),
});
export type ChangeSet = z.infer<typeof ChangeSetSchema>;

export const ChangeDiffSchema = z.object({
  path: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type ChangeDiff = z.infer<typeof ChangeDiffSchema>;

/** What the offline HTML replay embeds: the export envelope, its timeline and statistics. */
export interface ReplayData {
  envelope: SessionExport;
  items: TimelineItem[];
  stats: SessionStats;
  /** "provider/api/id" → the catalog's name, for the models the session used. */
  modelNames?: Record<string, string>;
}
