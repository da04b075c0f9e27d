/**
 * Staged imports: how an import of any size stays atomic without one long
 * transaction. The import writes its session in slices (one transaction
 * each) into a session row marked `staged_at`, which list, search, open
 * (`getSession`), indexing and repair leave out (keys.ts `VISIBLE`);
 * `publish` makes it visible in one transaction. A rejected or cancelled
 * import is discarded, in slices too. A staged session left by a process that
 * died mid-import is named in the open report and discarded in the
 * background after the open (a crash during that discard leaves it staged:
 * the next open discards the rest).
 */
import type { SessionSummary } from "../../../shared/api";
import type { ModelRef, SessionEntry } from "../../../shared/protocol";
import { recordToolCall, type ToolCallInput } from "./audit";
import type { StoreContext } from "./db";
import { insertRow, nextRow, validateEntry } from "./entries";
import { StoreError, toStoreError } from "./errors";
import { sessionRange } from "./keys";
import { addNote, type NoteInput } from "./notes";
import { insertSession, requireSession } from "./sessions";
import { forgetSession, noteTouched, readTail } from "./tails";

export interface StagedSessionInput {
  workspaceId: string;
  title: string;
  model: ModelRef | null;
}

/** One slice of an import: written in one transaction. */
export interface StagedBatch {
  entries?: readonly SessionEntry[];
  toolCalls?: ReadonlyArray<Omit<ToolCallInput, "sessionId">>;
  notes?: ReadonlyArray<Omit<NoteInput, "sessionId">>;
}

export interface StagedBatchResult {
  /** The seq each entry got, in order. */
  seqs: number[];
  /** The audit row id each tool call got, in order. */
  toolCallIds: number[];
  noteIds: number[];
}

/** A staged session found at open: an import the previous process did not finish. */
export interface LeftoverImport {
  sessionId: string;
  title: string;
  entries: number;
}

/** Rows a discard slice deletes (entries, then audit rows, then notes): a few milliseconds. */
const DISCARD_SLICE_ROWS = 2000;

/** What review's import uses (the SessionStore's `imports`). */
export interface StagedImportsPort {
  create(input: StagedSessionInput): string;
  stage(sessionId: string, batch: StagedBatch): StagedBatchResult;
  /** Makes the session visible with its final title and model; `alongside` runs in the same transaction. */
  publish(sessionId: string, final: { title: string; model: ModelRef | null }, alongside?: () => void): SessionSummary;
  /** Deletes a staged session in slices, yielding to the event loop between them. */
  discard(sessionId: string): Promise<void>;
}

export class StagedImports implements StagedImportsPort {
  private readonly discarding = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly ctx: StoreContext,
    /** The session's rows may be indexed for search now (it was published). */
    private readonly onPublished: (sessionId: string) => void,
  ) {}

  create(input: StagedSessionInput): string {
    return guard("createStagedSession", () => {
      const ctx = this.ctx;
      return ctx.tx(() => {
        const ws = ctx.stmt(`SELECT 1 FROM workspaces WHERE id = ?`).get(input.workspaceId);
        if (ws === undefined) throw new StoreError("NOT_FOUND", `no workspace ${input.workspaceId}`);
        return insertSession(ctx, { ...input, parentSessionId: null, parentSeq: null, stagedAt: ctx.now() }).id;
      });
    });
  }

  stage(sessionId: string, batch: StagedBatch): StagedBatchResult {
    return guard("stageImport", () => {
      const ctx = this.ctx;
      const validated = (batch.entries ?? []).map((e) => validateEntry(e));
      const result: StagedBatchResult = { seqs: [], toolCallIds: [], noteIds: [] };
      ctx.tx(() => {
        requireStaged(ctx, sessionId);
        // One tail read per slice, carried from row to row; nothing touches updated_at (publish sets it).
        let tail = readTail(ctx, sessionId);
        for (const { entry, json } of validated) {
          const next = nextRow(tail, sessionId, entry, json);
          insertRow(ctx, next.row, null, undefined);
          tail = next.after;
          result.seqs.push(tail.lastSeq);
        }
        for (const call of batch.toolCalls ?? []) result.toolCallIds.push(recordToolCall(ctx, { ...call, sessionId }).id);
        for (const note of batch.notes ?? []) result.noteIds.push(addNote(ctx, { ...note, sessionId }).id);
      });
      forgetSession(ctx, sessionId);
      return result;
    });
  }

  publish(sessionId: string, final: { title: string; model: ModelRef | null }, alongside?: () => void): SessionSummary {
    return guard("publishImport", () => {
      const ctx = this.ctx;
      const now = ctx.now();
      const summary = ctx.tx(() => {
        const r = ctx
          .stmt(
            `UPDATE sessions SET staged_at = NULL, title = ?, model_provider = ?, model_api = ?, model_id = ?, created_at = ?, updated_at = ?
             WHERE id = ? AND staged_at IS NOT NULL`,
          )
          .run(final.title, final.model?.provider ?? null, final.model?.api ?? null, final.model?.id ?? null, now, now, sessionId);
        if (r.changes === 0) throw new StoreError("NOT_FOUND", `no import in progress for session ${sessionId}`);
        alongside?.();
        return requireSession(ctx, sessionId);
      });
      noteTouched(ctx, summary.workspaceId, sessionId, now);
      this.onPublished(sessionId);
      return summary;
    });
  }

  discard(sessionId: string): Promise<void> {
    const running = this.discarding.get(sessionId);
    if (running) return running;
    // `finally` runs after the set below, also when the first slice already finished the discard.
    const done = this.discardInSlices(sessionId).finally(() => this.discarding.delete(sessionId));
    this.discarding.set(sessionId, done);
    return done;
  }

  private async discardInSlices(sessionId: string): Promise<void> {
    while (!this.stopped && !guard("discardImport", () => discardSlice(this.ctx, sessionId, DISCARD_SLICE_ROWS))) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Settles once every discard under way has finished (or stopped at close). */
  async idle(): Promise<void> {
    while (this.discarding.size > 0) await Promise.allSettled([...this.discarding.values()]);
  }

  /** At close: discards stop after their current slice; what is left stays staged for the next open. */
  stop(): void {
    this.stopped = true;
  }
}

/** Staged sessions in the file (at open, before anything else runs). */
export function listLeftoverImports(ctx: StoreContext): LeftoverImport[] {
  const rows = ctx
    .stmt(
      `SELECT s.id, s.title, (SELECT count(*) FROM entries WHERE id BETWEEN s.num * 4294967296 AND s.num * 4294967296 + 4294967295) AS n
       FROM sessions s WHERE s.staged_at IS NOT NULL ORDER BY s.staged_at`,
    )
    .all() as Array<{ id: string; title: string; n: number }>;
  return rows.map((r) => ({ sessionId: r.id, title: r.title, entries: r.n }));
}

/** Deletes up to `maxRows` rows of a staged session, the session row last; true once it is gone. */
function discardSlice(ctx: StoreContext, sessionId: string, maxRows: number): boolean {
  return ctx.tx(() => {
    const head = ctx.stmt(`SELECT num FROM sessions WHERE id = ? AND staged_at IS NOT NULL`).get(sessionId) as { num: number } | undefined;
    if (head === undefined) return true;
    const [lo, hi] = sessionRange(head.num);
    let budget = maxRows;
    budget -= ctx
      .stmt(`DELETE FROM entries WHERE id IN (SELECT id FROM entries WHERE id BETWEEN ? AND ? ORDER BY id DESC LIMIT ?)`)
      .run(lo, hi, budget).changes;
    if (budget > 0)
      budget -= ctx
        .stmt(`DELETE FROM tool_calls WHERE id IN (SELECT id FROM tool_calls WHERE session_id = ? LIMIT ?)`)
        .run(sessionId, budget).changes;
    if (budget > 0)
      budget -= ctx
        .stmt(`DELETE FROM notes WHERE id IN (SELECT id FROM notes WHERE session_id = ? LIMIT ?)`)
        .run(sessionId, budget).changes;
    if (budget <= 0) return false;
    forgetSession(ctx, sessionId);
    ctx.stmt(`DELETE FROM sessions WHERE id = ?`).run(sessionId);
    return true;
  });
}

function requireStaged(ctx: StoreContext, sessionId: string): void {
  const row = ctx.stmt(`SELECT staged_at FROM sessions WHERE id = ?`).get(sessionId) as { staged_at: number | null } | undefined;
  if (row === undefined || row.staged_at === null) throw new StoreError("NOT_FOUND", `no import in progress for session ${sessionId}`);
}

function guard<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw toStoreError(e, what);
  }
}
