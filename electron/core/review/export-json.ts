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
 */
import type { SessionSummary } from "../../../shared/api";
import type { AssistantContent, SessionEntry, StoredEntry } from "../../../shared/protocol";
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  SessionExportSchema,
  type ExportedNote,
  type ExportedToolCall,
  type SessionExport,
} from "../../../shared/review";
import type { EntryProblem, Note, ToolCallRecord } from "../store";
import { dropImportedTimes, loadImportedTimes, saveImportedTimes, type ImportedTimes } from "./import-times";
import type { Redactor } from "./redact";
import { fail, type ReviewResult } from "./result";
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

export function parseEnvelope(content: string): ReviewResult<SessionExport> {
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch (e) {
    return fail("INVALID_REQUEST", `the file is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (format !== EXPORT_FORMAT)
    return fail("INVALID_REQUEST", `not an Agent Workbench session export (format ${JSON.stringify(format ?? null)})`);
  const version = (raw as { version?: unknown }).version;
  if (version !== EXPORT_VERSION)
    return fail("UNSUPPORTED", `export version ${JSON.stringify(version)} is not supported (this app reads version ${EXPORT_VERSION})`);
  const parsed = SessionExportSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; ");
    return fail("INVALID_REQUEST", `the export does not match format version ${EXPORT_VERSION}: ${issues}`);
  }
  let last = 0;
  for (const { seq } of parsed.data.entries) {
    if (seq <= last) return fail("INVALID_REQUEST", `entry seqs must increase (found #${seq} after #${last})`);
    last = seq;
  }
  return { ok: true, value: parsed.data };
}

/**
 * Creates a new session in the workspace holding the export's entries, notes
 * and audit rows (new ids; entries renumbered 1..n when the export had gaps,
 * notes following their entries). Nothing is left behind when it fails.
 */
export function importEnvelope(store: ReviewStorePort, workspaceId: string, envelope: SessionExport): ReviewResult<SessionSummary> {
  if (!store.getWorkspace(workspaceId)) return fail("NOT_FOUND", `no workspace ${workspaceId}`);
  const session = store.createSession({ workspaceId, title: envelope.session.title, model: envelope.session.model });
  try {
    const seqs = new Map<number, number>();
    for (const { seq, entry } of envelope.entries) seqs.set(seq, store.appendEntry(session.id, entry));
    const times: ImportedTimes = { notes: {}, toolCalls: {} };
    for (const n of envelope.notes) {
      const seq = seqs.get(n.seq);
      if (seq === undefined) continue; // its entry was unreadable at export time
      const note = store.addNote({
        sessionId: session.id,
        seq,
        author: n.author,
        verdict: n.verdict,
        text: n.text,
        path: n.path ?? null,
        line: n.line ?? null,
      });
      times.notes[String(note.id)] = n.createdAt;
    }
    for (const r of envelope.toolCalls) {
      const row = store.recordToolCall({
        sessionId: session.id,
        toolCallId: r.toolCallId,
        toolName: r.toolName,
        args: r.args,
        status: r.status,
        durationMs: r.durationMs ?? undefined,
        errorCode: r.errorCode ?? undefined,
        outputBytes: r.outputBytes ?? undefined,
        approvalDecision: r.approvalDecision ?? undefined,
        decidedBy: r.decidedBy ?? undefined,
        decidedAt: r.decidedAt ?? undefined,
      });
      times.toolCalls[String(row.id)] = [r.createdAt, r.updatedAt];
    }
    saveImportedTimes(store, session.id, times);
    const done = store.getSession(session.id);
    return done ? { ok: true, value: done } : fail("INTERNAL", "the imported session disappeared");
  } catch (e) {
    store.deleteSession(session.id);
    dropImportedTimes(store, session.id);
    throw e;
  }
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
