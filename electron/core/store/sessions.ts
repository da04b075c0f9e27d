/** Sessions: create, list (paged), rename, model, delete, fork. */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ApiSchema, type ModelRef } from "../../../shared/protocol";
import type { SessionSummary } from "../../../shared/api";
import type { StoreContext } from "./db";
import { appendEntry, type OpenCall } from "./entries";
import { StoreError } from "./errors";
import { clampLimit } from "./workspaces";

export const DEFAULT_SESSION_TITLE = "New session";

interface SessionRow {
  id: string;
  workspace_id: string;
  title: string;
  created_at: number;
  updated_at: number;
  model_provider: string | null;
  model_api: string | null;
  model_id: string | null;
  parent_session_id: string | null;
  parent_seq: number | null;
  entry_count: number;
  total_tokens: number;
  total_cost: number;
}

const COLUMNS = `id, workspace_id, title, created_at, updated_at, model_provider, model_api, model_id,
  parent_session_id, parent_seq, entry_count, total_tokens, total_cost`;

function toSummary(r: SessionRow): SessionSummary {
  const api = ApiSchema.safeParse(r.model_api);
  const model =
    r.model_provider !== null && r.model_id !== null && api.success
      ? { provider: r.model_provider, api: api.data, id: r.model_id }
      : null;
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    title: r.title,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    model,
    parentSessionId: r.parent_session_id,
    parentSeq: r.parent_seq,
    entryCount: r.entry_count,
    totalCost: r.total_cost,
    totalTokens: r.total_tokens,
  };
}

export function getSession(ctx: StoreContext, id: string): SessionSummary | undefined {
  const row = ctx.stmt(`SELECT ${COLUMNS} FROM sessions WHERE id = ?`).get(id) as SessionRow | undefined;
  return row && toSummary(row);
}

export function requireSession(ctx: StoreContext, id: string): SessionSummary {
  const s = getSession(ctx, id);
  if (s === undefined) throw new StoreError("NOT_FOUND", `no session ${id}`);
  return s;
}

export interface CreateSessionInput {
  workspaceId: string;
  title?: string;
  model?: ModelRef | null;
}

export function createSession(ctx: StoreContext, input: CreateSessionInput): SessionSummary {
  return ctx.tx(() => {
    const ws = ctx.stmt(`SELECT 1 FROM workspaces WHERE id = ?`).get(input.workspaceId);
    if (ws === undefined) throw new StoreError("NOT_FOUND", `no workspace ${input.workspaceId}`);
    const id = randomUUID();
    const now = ctx.now();
    ctx
      .stmt(
        `INSERT INTO sessions (id, workspace_id, title, created_at, updated_at, model_provider, model_api, model_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        input.workspaceId,
        input.title ?? DEFAULT_SESSION_TITLE,
        now,
        now,
        input.model?.provider ?? null,
        input.model?.api ?? null,
        input.model?.id ?? null,
      );
    return requireSession(ctx, id);
  });
}

export interface ListSessionsOptions {
  limit?: number;
  /** Cursor: only sessions with updatedAt strictly below this (pass the last page's oldest updatedAt). */
  before?: number;
}

export interface SessionPage {
  sessions: SessionSummary[];
  hasMore: boolean;
}

/**
 * Newest first by updatedAt. Sessions sharing the page's last updatedAt are
 * always returned together (the page may then exceed `limit`), so the
 * updatedAt cursor never skips a session.
 */
export function listSessions(ctx: StoreContext, workspaceId: string, opts: ListSessionsOptions = {}): SessionPage {
  const limit = clampLimit(opts.limit ?? 50, 500);
  const before = opts.before ?? Number.MAX_SAFE_INTEGER;
  const rows = ctx
    .stmt(
      `SELECT ${COLUMNS} FROM sessions WHERE workspace_id = ? AND updated_at < ?
       ORDER BY updated_at DESC, id DESC LIMIT ?`,
    )
    .all(workspaceId, before, limit + 1) as SessionRow[];
  if (rows.length <= limit) return { sessions: rows.map(toSummary), hasMore: false };
  const boundary = rows[limit - 1].updated_at;
  if (rows[limit].updated_at !== boundary) return { sessions: rows.slice(0, limit).map(toSummary), hasMore: true };
  const head = rows.filter((r) => r.updated_at > boundary);
  const ties = ctx
    .stmt(`SELECT ${COLUMNS} FROM sessions WHERE workspace_id = ? AND updated_at = ? ORDER BY id DESC`)
    .all(workspaceId, boundary) as SessionRow[];
  const more = ctx.stmt(`SELECT 1 FROM sessions WHERE workspace_id = ? AND updated_at < ? LIMIT 1`).get(workspaceId, boundary);
  return { sessions: [...head, ...ties].map(toSummary), hasMore: more !== undefined };
}

/** Sets the title column and appends a `rename` entry, in one transaction. */
export function renameSession(ctx: StoreContext, id: string, title: string): SessionSummary {
  if (title.trim().length === 0) throw new StoreError("INVALID_ARGUMENT", "title is empty");
  return ctx.tx(() => {
    const r = ctx.stmt(`UPDATE sessions SET title = ? WHERE id = ?`).run(title, id);
    if (r.changes === 0) throw new StoreError("NOT_FOUND", `no session ${id}`);
    appendEntry(ctx, id, { type: "rename", title, timestamp: ctx.now() });
    return requireSession(ctx, id);
  });
}

/** Sets the current-model columns only; the caller appends the modelSwitch entry. */
export function setSessionModel(ctx: StoreContext, id: string, model: ModelRef | null): SessionSummary {
  const r = ctx
    .stmt(
      `UPDATE sessions SET model_provider = ?, model_api = ?, model_id = ?, updated_at = max(updated_at, ?) WHERE id = ?`,
    )
    .run(model?.provider ?? null, model?.api ?? null, model?.id ?? null, ctx.now(), id);
  if (r.changes === 0) throw new StoreError("NOT_FOUND", `no session ${id}`);
  return requireSession(ctx, id);
}

/** Deletes the session with its entries, search rows, audit rows and notes. Forks keep their copies. */
export function deleteSession(ctx: StoreContext, id: string): boolean {
  return ctx.stmt(`DELETE FROM sessions WHERE id = ?`).run(id).changes > 0;
}

/**
 * The calls of the last assistant message that have no result after it,
 * computed from the entries (authoritative; the sessions column only indexes it).
 */
export function openCallsFromEntries(ctx: StoreContext, sessionId: string): { afterSeq: number; calls: OpenCall[] } {
  const last = ctx
    .stmt(
      `SELECT seq, json_extract(content, '$.message.content') AS blocks FROM entries
       WHERE session_id = ? AND kind = 'assistant' ORDER BY seq DESC LIMIT 1`,
    )
    .get(sessionId) as { seq: number; blocks: string | null } | undefined;
  if (last === undefined) return { afterSeq: 0, calls: [] };
  const calls = toolCallsOf(last.blocks);
  const answered = ctx
    .stmt(`SELECT tool_call_id FROM entries WHERE session_id = ? AND kind = 'toolResult' AND seq > ? ORDER BY seq`)
    .pluck()
    .all(sessionId, last.seq) as string[];
  for (const id of answered) {
    const i = calls.findIndex((c) => c.id === id);
    if (i >= 0) calls.splice(i, 1);
  }
  return { afterSeq: last.seq, calls };
}

const ToolCallRefSchema = z.object({ type: z.literal("toolCall"), id: z.string(), name: z.string() });

function toolCallsOf(blocksJson: string | null): OpenCall[] {
  let blocks: unknown;
  try {
    blocks = blocksJson === null ? [] : JSON.parse(blocksJson);
  } catch {
    return [];
  }
  if (!Array.isArray(blocks)) return [];
  const calls: OpenCall[] = [];
  for (const b of blocks) {
    const r = ToolCallRefSchema.safeParse(b);
    if (r.success) calls.push({ id: r.data.id, name: r.data.name });
  }
  return calls;
}

export interface ForkOptions {
  title?: string;
}

/**
 * New session in the same workspace holding copies of the source's entries
 * with seq <= atSeq (same seqs, JSON copied verbatim), then a `fork` entry.
 * One transaction. atSeq may be 0 (an empty fork) up to the source's last seq.
 */
export function forkSession(ctx: StoreContext, id: string, atSeq: number, opts: ForkOptions = {}): SessionSummary {
  return ctx.tx(() => {
    const src = ctx.stmt(`SELECT ${COLUMNS} FROM sessions WHERE id = ?`).get(id) as SessionRow | undefined;
    if (src === undefined) throw new StoreError("NOT_FOUND", `no session ${id}`);
    if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > src.entry_count) {
      throw new StoreError("INVALID_ARGUMENT", `fork point ${atSeq} is outside 0..${src.entry_count}`);
    }
    const forkId = randomUUID();
    const now = ctx.now();
    ctx
      .stmt(
        `INSERT INTO sessions (id, workspace_id, title, created_at, updated_at, model_provider, model_api, model_id,
           parent_session_id, parent_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        forkId,
        src.workspace_id,
        opts.title ?? `${src.title} (fork)`,
        now,
        now,
        src.model_provider,
        src.model_api,
        src.model_id,
        id,
        atSeq,
      );
    ctx
      .stmt(
        `INSERT INTO entries (session_id, seq, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
           input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total, content)
         SELECT ?, seq, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
           input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total, content
         FROM entries WHERE session_id = ? AND seq <= ? ORDER BY seq`,
      )
      .run(forkId, id, atSeq);
    ctx
      .stmt(
        `INSERT INTO entries_fts (rowid, text)
         SELECT n.id, f.text FROM entries o
           JOIN entries_fts f ON f.rowid = o.id
           JOIN entries n ON n.session_id = ? AND n.seq = o.seq
         WHERE o.session_id = ? AND o.seq <= ?`,
      )
      .run(forkId, id, atSeq);
    ctx
      .stmt(
        `UPDATE sessions SET (entry_count, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,
           total_tokens, total_cost) = (
           SELECT count(*), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0),
             coalesce(sum(cache_read_tokens), 0), coalesce(sum(cache_write_tokens), 0),
             coalesce(sum(total_tokens), 0), coalesce(sum(cost_total), 0)
           FROM entries WHERE session_id = ?)
         WHERE id = ?`,
      )
      .run(forkId, forkId);
    const open = openCallsFromEntries(ctx, forkId).calls;
    if (open.length > 0) ctx.stmt(`UPDATE sessions SET open_tool_calls = ? WHERE id = ?`).run(JSON.stringify(open), forkId);
    appendEntry(ctx, forkId, { type: "fork", sourceSessionId: id, sourceSeq: atSeq, timestamp: now });
    return requireSession(ctx, forkId);
  });
}
