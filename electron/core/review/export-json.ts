/**
 * The lossless JSON export (a versioned envelope, see shared/review.ts) and
 * its import.
 *
 * Decisions:
 * - Secrets are redacted everywhere (redact.ts).
 * - Thinking signatures are dropped: they are opaque provider data (Anthropic
 *   signatures, OpenAI encrypted reasoning) valid only for the provider account
 *   and model that made them, and nobody can check what they contain. The
 *   stored entries stay valid without them: the boundary transform sends
 *   unsigned thinking as text (Anthropic) or drops it, and drops unsigned
 *   redacted thinking, so an imported session can be continued.
 * - Session times come from the entries; database bookkeeping (row ids,
 *   workspace, creation time) is not exported, so an import reproduces the
 *   envelope exactly apart from the ids.
 * - Import reads the file in slices into a staged session (import-job.ts).
 */
import type { SessionSummary } from "../../../shared/api";
import type { AssistantContent, SessionEntry, StoredEntry } from "../../../shared/protocol";
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  IMPORT_LIMITS,
  type ExportedNote,
  type ExportedToolCall,
  type ImportLimits,
  type SessionExport,
} from "../../../shared/review";
import { ApiFailure } from "../api/errors";
import type { EntryProblem, Note, ToolCallRecord } from "../store";
import { EnvelopeReader, ReadError } from "./envelope-reader";
import { ItemChecker } from "./import-items";
import { importText } from "./import-job";
import { loadImportedTimes, type ImportedTimes } from "./import-times";
import type { Redactor } from "./redact";
import { fail, type ReviewErrorCode, type ReviewResult } from "./result";
import type { ReviewStorePort } from "./store-port";

export interface ExportSource {
  session: SessionSummary;
  entries: readonly StoredEntry[];
  problems: readonly EntryProblem[];
  notes: readonly Note[];
  toolCalls: readonly ToolCallRecord[];
  /** Original times of an imported session's notes and audit rows. */
  importedTimes?: ImportedTimes | null;
}

export function loadExportSource(store: ReviewStorePort, sessionId: string): ReviewResult<ExportSource> {
  const session = store.getSession(sessionId);
  if (!session) return fail("NOT_FOUND", `no session ${sessionId}`);
  // With each unreadable row's stored text: the export keeps what the app could not read.
  const { entries, problems } = store.loadEntriesChecked(sessionId, {}, { raw: true });
  return {
    ok: true,
    value: {
      session,
      entries,
      problems,
      notes: store.listNotes(sessionId),
      toolCalls: store.listToolCalls(sessionId),
      importedTimes: loadImportedTimes(store, sessionId),
    },
  };
}

export function buildEnvelope(src: ExportSource, redactor: Redactor): SessionExport {
  const times = src.importedTimes ?? null;
  let startedAt: number | null = null;
  let endedAt: number | null = null;
  let forkedFrom: SessionExport["session"]["forkedFrom"] = null;
  for (const { entry } of src.entries) {
    const at = timestampOf(entry);
    if (startedAt === null || at < startedAt) startedAt = at;
    if (endedAt === null || at > endedAt) endedAt = at;
    // The last fork entry is the session's own (a fork of a fork copies the earlier ones first).
    if (entry.type === "fork") forkedFrom = { sessionId: entry.sourceSessionId, seq: entry.sourceSeq };
  }
  const notes: ExportedNote[] = src.notes.map((n) => ({
    id: n.id,
    seq: n.seq,
    author: n.author,
    verdict: n.verdict,
    text: n.text,
    createdAt: times?.notes[String(n.id)] ?? n.createdAt,
    ...(n.path !== null && n.line !== null ? { path: n.path, line: n.line } : {}),
  }));
  const toolCalls: ExportedToolCall[] = src.toolCalls.map((r) => {
    const original = times?.toolCalls[String(r.id)];
    // An audit row touched after the import keeps its own updatedAt.
    const untouched = r.updatedAt === r.createdAt;
    return {
      id: r.id,
      toolCallId: r.toolCallId,
      toolName: r.toolName,
      args: r.args,
      status: r.status,
      durationMs: r.durationMs,
      errorCode: r.errorCode,
      outputBytes: r.outputBytes,
      approvalDecision: r.approvalDecision,
      decidedBy: r.decidedBy,
      decidedAt: r.decidedAt,
      createdAt: original?.[0] ?? r.createdAt,
      updatedAt: original && untouched ? original[1] : r.updatedAt,
    };
  });
  const envelope: SessionExport = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    session: { id: src.session.id, title: src.session.title, model: src.session.model, startedAt, endedAt, forkedFrom },
    redaction: { secrets: "redacted", thinkingSignatures: "dropped" },
    entries: src.entries.map(({ seq, entry }) => ({ seq, entry: withoutSignatures(entry) })),
    notes,
    toolCalls,
    problems: src.problems.map((p) => ({
      seq: p.seq,
      kind: p.kind,
      code: p.code,
      message: p.message,
      ...(p.toSeq !== undefined ? { toSeq: p.toSeq } : {}),
      ...(p.raw !== undefined ? { raw: p.raw } : {}),
    })),
  };
  return redactor.value(envelope);
}

/** Two-space JSON with a final newline: stable bytes for the same envelope. */
export function serializeEnvelope(envelope: SessionExport): string {
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

/**
 * Reads and checks a whole export held in memory, with the import's own reader
 * and rules (tests and tools; the app imports in slices, import-job.ts).
 * `now`: the clock the latest accepted time is taken from.
 */
export function parseEnvelope(content: string, now = Date.now(), limits: ImportLimits = IMPORT_LIMITS): ReviewResult<SessionExport> {
  const reader = new EnvelopeReader({ itemChars: limits.itemChars, depth: limits.depth });
  const checker = new ItemChecker(limits, now);
  const out: Pick<SessionExport, "entries" | "notes" | "toolCalls" | "problems"> = { entries: [], notes: [], toolCalls: [], problems: [] };
  try {
    for (const item of reader.feed(content)) {
      const checked = checker.take(item);
      if (checked?.kind === "entry") out.entries.push({ seq: checked.seq, entry: checked.entry });
      else if (checked?.kind === "note") out.notes.push(checked.note);
      else if (checked?.kind === "toolCall") out.toolCalls.push(checked.call);
      else if (checked?.kind === "problem") out.problems.push(checked.problem);
    }
    reader.end();
    const session = checker.finish();
    const redaction = checker.redaction as SessionExport["redaction"];
    return { ok: true, value: { format: EXPORT_FORMAT, version: EXPORT_VERSION, session, redaction, ...out } };
  } catch (e) {
    if (e instanceof ReadError) return fail("IMPORT_INVALID", e.message);
    if (e instanceof ApiFailure)
      return fail(e.code === "UNSUPPORTED" || e.code === "IMPORT_TOO_LARGE" ? e.code : "IMPORT_INVALID", e.message);
    throw e;
  }
}

/** Imports an envelope as a new session (import-job.ts); errors as values. */
export async function importEnvelope(
  store: ReviewStorePort,
  workspaceId: string,
  envelope: SessionExport,
  now = Date.now(),
): Promise<ReviewResult<SessionSummary>> {
  try {
    return { ok: true, value: await importText({ store, workspaceId, limits: IMPORT_LIMITS, now }, serializeEnvelope(envelope)) };
  } catch (e) {
    if (!(e instanceof ApiFailure)) throw e;
    return fail(isReviewCode(e.code) ? e.code : "INTERNAL", e.message);
  }
}

function isReviewCode(code: ApiFailure["code"]): code is ReviewErrorCode {
  return code !== "UNKNOWN_METHOD" && code !== "UNAVAILABLE" && !code.startsWith("TEAM_");
}

function withoutSignatures(entry: SessionEntry): SessionEntry {
  if (entry.type !== "message" || entry.message.role !== "assistant") return entry;
  const m = entry.message;
  if (!m.content.some((b) => b.type === "thinking" && b.signature !== undefined)) return entry;
  const content: AssistantContent[] = m.content.map((b) => {
    if (b.type !== "thinking" || b.signature === undefined) return b;
    const { signature: _dropped, ...rest } = b;
    return rest;
  });
  return { type: "message", message: { ...m, content } };
}

function timestampOf(entry: SessionEntry): number {
  return entry.type === "message" ? entry.message.timestamp : entry.timestamp;
}
