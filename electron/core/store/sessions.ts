/** Sessions: create, list (paged), rename, model, delete, fork. */
import { randomUUID } from "node:crypto";
import { ApiSchema, ReasoningLevelSchema, type Api, type ModelRef, type ReasoningLevel } from "../../../shared/protocol";
import type { SessionSummary } from "../../../shared/api";
import type { StoreContext } from "./db";
import { plainTitle } from "../../../shared/mentions";
import { appendEntry, lastEntry, parseOpenCalls, sessionHead, type OpenCall } from "./entries";
import { StoreError } from "./errors";
import { copyRequests } from "./request-records";
import { LAST_ENTRY_ID_SQL, VISIBLE, checkSessionNum, sessionRange } from "./keys";
import { forgetSession, noteTouched } from "./tails";
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
  reasoning: string;
  parent_session_id: string | null;
  parent_seq: number | null;
  parent_tool_call_id: string | null;
  entry_count: number;
  total_tokens: number;
  total_cost: number;
}

/**
 * Summary columns: counts and totals come from the session's last entry row (its running totals).
 * Every query on it leaves out staged sessions (`VISIBLE`): an import still writing (staged-imports.ts).
 */
const SUMMARY_SELECT = `SELECT s.id, s.workspace_id, s.title, s.created_at, s.updated_at,
    s.model_provider, s.model_api, s.model_id, s.reasoning, s.parent_session_id, s.parent_seq, s.parent_tool_call_id,
    coalesce(e.id - s.num * 4294967296, 0) AS entry_count,
    coalesce(e.running_tokens, 0) AS total_tokens, coalesce(e.running_cost, 0) AS total_cost
  FROM sessions s LEFT JOIN entries e ON e.id = ${LAST_ENTRY_ID_SQL}`;

const APIS: ReadonlySet<string | null> = new Set(ApiSchema.options);
const LEVELS: ReadonlySet<string> = new Set(ReasoningLevelSchema.options);

function toSummary(r: SessionRow): SessionSummary {
  // A Set lookup, not zod: summaries are read after every assistant message.
  const model =
    r.model_provider !== null && r.model_id !== null && APIS.has(r.model_api)
      ? { provider: r.model_provider, api: r.model_api as Api, id: r.model_id }
      : null;
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    title: plainTitle(r.title),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    model,
    reasoning: LEVELS.has(r.reasoning) ? (r.reasoning as ReasoningLevel) : "default",
    parentSessionId: r.parent_session_id,
    parentSeq: r.parent_seq,
    ...(r.parent_tool_call_id !== null ? { parentToolCallId: r.parent_tool_call_id } : {}),
    entryCount: r.entry_count,
    totalCost: r.total_cost,
    totalTokens: r.total_tokens,
  };
}

export function getSession(ctx: StoreContext, id: string): SessionSummary | undefined {
  const row = ctx.stmt(`${SUMMARY_SELECT} WHERE s.id = ? AND ${VISIBLE}`).get(id) as SessionRow | undefined;
  return row && toSummary(row);
}

/** The sub-agent sessions a session's task calls started (not its forks), oldest first. */
export function subAgentSessions(ctx: StoreContext, parentId: string): SessionSummary[] {
  const rows = ctx
    .stmt(`${SUMMARY_SELECT} WHERE s.parent_session_id = ? AND s.parent_tool_call_id IS NOT NULL AND ${VISIBLE} ORDER BY s.num`)
    .all(parentId) as SessionRow[];
  return rows.map(toSummary);
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

export function insertSession(
  ctx: StoreContext,
  values: {
    workspaceId: string;
    title: string;
    model: ModelRef | null;
    reasoning?: ReasoningLevel;
    parentSessionId: string | null;
    parentSeq: number | null;
    /** An import's staged session (staged-imports.ts): hidden until published. */
    stagedAt?: number;
    /** The task call that started this sub-agent's session (a fork leaves it unset). */
    parentToolCallId?: string;
  },
): { id: string; num: number } {
  const id = randomUUID();
  const now = ctx.now();
  const info = ctx
    .stmt(
      `INSERT INTO sessions (id, workspace_id, title, created_at, updated_at, model_provider, model_api, model_id,
         reasoning, parent_session_id, parent_seq, staged_at, parent_tool_call_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      values.workspaceId,
      values.title,
      now,
      now,
      values.model?.provider ?? null,
      values.model?.api ?? null,
      values.model?.id ?? null,
      values.reasoning ?? "default",
      values.parentSessionId,
      values.parentSeq,
      values.stagedAt ?? null,
      values.parentToolCallId ?? null,
    );
  const num = Number(info.lastInsertRowid);
  checkSessionNum(num);
  return { id, num };
}

export function createSession(ctx: StoreContext, input: CreateSessionInput): SessionSummary {
  const created = ctx.tx(() => {
    const ws = ctx.stmt(`SELECT 1 FROM workspaces WHERE id = ?`).get(input.workspaceId);
    if (ws === undefined) throw new StoreError("NOT_FOUND", `no workspace ${input.workspaceId}`);
    const { id } = insertSession(ctx, {
      workspaceId: input.workspaceId,
      title: input.title ?? DEFAULT_SESSION_TITLE,
      model: input.model ?? null,
      parentSessionId: null,
      parentSeq: null,
    });
    return requireSession(ctx, id);
  });
  // After the commit: the new session now tops its workspace.
  noteTouched(ctx, created.workspaceId, created.id, created.updatedAt);
  return created;
}

export interface SubAgentSessionInput {
  title: string;
  model: ModelRef | null;
  reasoning: ReasoningLevel;
  parentSessionId: string;
  /** The parent's assistant entry holding the task call. */
  parentSeq: number;
  parentToolCallId: string;
}

/** A sub-agent's own session (docs/sub-agents.md#sub-agents), in its parent's workspace, linked to the parent step. */
export function createSubAgentSession(ctx: StoreContext, input: SubAgentSessionInput): SessionSummary {
  const created = ctx.tx(() => {
    const parent = requireSession(ctx, input.parentSessionId);
    const { id } = insertSession(ctx, {
      workspaceId: parent.workspaceId,
      title: input.title,
      model: input.model,
      reasoning: input.reasoning,
      parentSessionId: parent.id,
      parentSeq: input.parentSeq,
      parentToolCallId: input.parentToolCallId,
    });
    return requireSession(ctx, id);
  });
  noteTouched(ctx, created.workspaceId, created.id, created.updatedAt);
  return created;
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
    .stmt(`${SUMMARY_SELECT} WHERE s.workspace_id = ? AND s.updated_at < ? AND ${VISIBLE} ORDER BY s.updated_at DESC, s.id DESC LIMIT ?`)
    .all(workspaceId, before, limit + 1) as SessionRow[];
  if (rows.length <= limit) return { sessions: rows.map(toSummary), hasMore: false };
  const boundary = rows[limit - 1].updated_at;
  if (rows[limit].updated_at !== boundary) return { sessions: rows.slice(0, limit).map(toSummary), hasMore: true };
  const head = rows.filter((r) => r.updated_at > boundary);
  const ties = ctx
    .stmt(`${SUMMARY_SELECT} WHERE s.workspace_id = ? AND s.updated_at = ? AND ${VISIBLE} ORDER BY s.id DESC`)
    .all(workspaceId, boundary) as SessionRow[];
  const more = ctx
    .stmt(`SELECT 1 FROM sessions s WHERE s.workspace_id = ? AND s.updated_at < ? AND ${VISIBLE} LIMIT 1`)
    .get(workspaceId, boundary);
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
  const now = ctx.now();
  const r = ctx
    .stmt(`UPDATE sessions SET model_provider = ?, model_api = ?, model_id = ?, updated_at = max(updated_at, ?) WHERE id = ?`)
    .run(model?.provider ?? null, model?.api ?? null, model?.id ?? null, now, id);
  if (r.changes === 0) throw new StoreError("NOT_FOUND", `no session ${id}`);
  const summary = requireSession(ctx, id);
  noteTouched(ctx, summary.workspaceId, id, now);
  return summary;
}

/** Sets the reasoning-level column only; the caller appends the reasoningChange entry. */
export function setSessionReasoning(ctx: StoreContext, id: string, level: ReasoningLevel): SessionSummary {
  const r = ctx.stmt(`UPDATE sessions SET reasoning = ? WHERE id = ?`).run(level, id);
  if (r.changes === 0) throw new StoreError("NOT_FOUND", `no session ${id}`);
  return requireSession(ctx, id);
}

/**
 * Deletes the session with its entries, search rows, audit rows and notes, and
 * the sessions of the sub-agents it started (theirs too). Forks keep their copies.
 */
export function deleteSession(ctx: StoreContext, id: string): boolean {
  return ctx.tx(() => {
    const children = ctx
      .stmt(
        `WITH RECURSIVE tree (id) AS (
           SELECT id FROM sessions WHERE parent_session_id = ? AND parent_tool_call_id IS NOT NULL
           UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_session_id = t.id AND s.parent_tool_call_id IS NOT NULL
         ) SELECT id FROM tree`,
      )
      .pluck()
      .all(id) as string[];
    for (const child of children) {
      forgetSession(ctx, child);
      ctx.stmt(`DELETE FROM sessions WHERE id = ?`).run(child);
    }
    forgetSession(ctx, id);
    return ctx.stmt(`DELETE FROM sessions WHERE id = ?`).run(id).changes > 0;
  });
}

/** The session's calls that have no result yet, wherever they are (from its last row, entries.ts). */
export function openCalls(ctx: StoreContext, sessionId: string): OpenCall[] {
  const head = sessionHead(ctx, sessionId);
  if (head === undefined) throw new StoreError("NOT_FOUND", `no session ${sessionId}`);
  return parseOpenCalls(lastEntry(ctx, head.num)?.open_tool_calls ?? null);
}

export interface ForkOptions {
  title?: string;
}

/**
 * New session in the same workspace holding copies of the source's entries
 * with seq <= atSeq (same seqs, JSON and running totals copied verbatim), then
 * a `fork` entry. One transaction. The copies reach the search index with the
 * next batch. atSeq may be 0 (an empty fork) up to the source's last seq.
 */
export function forkSession(ctx: StoreContext, id: string, atSeq: number, opts: ForkOptions = {}): SessionSummary {
  return ctx.tx(() => {
    const src = requireSession(ctx, id);
    const srcHead = sessionHead(ctx, id);
    if (srcHead === undefined) throw new StoreError("NOT_FOUND", `no session ${id}`);
    if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > src.entryCount) {
      throw new StoreError("INVALID_ARGUMENT", `fork point ${atSeq} is outside 0..${src.entryCount}`);
    }
    const fork = insertSession(ctx, {
      workspaceId: src.workspaceId,
      title: opts.title ?? `${src.title} (fork)`,
      model: src.model,
      reasoning: src.reasoning,
      parentSessionId: id,
      parentSeq: atSeq,
    });
    const [srcLo] = sessionRange(srcHead.num);
    const [forkLo] = sessionRange(fork.num);
    ctx
      .stmt(
        `INSERT INTO entries (id, session_id, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
           input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total,
           running_tokens, running_cost, open_tool_calls, content)
         SELECT id - ? + ?, ?, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
           input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total,
           running_tokens, running_cost, open_tool_calls, content
         FROM entries WHERE id BETWEEN ? AND ? ORDER BY id`,
      )
      .run(srcLo, forkLo, fork.id, srcLo + 1, srcLo + atSeq);
    copyRequests(ctx, srcHead.num, fork.num, atSeq);
    // A copy of a session not yet scanned for unanswered calls is not scanned either (repair.ts).
    ctx.stmt(`UPDATE sessions SET calls_checked = (SELECT calls_checked FROM sessions WHERE id = ?) WHERE id = ?`).run(id, fork.id);
    if (atSeq > 0) ctx.events.appended(fork.id);
    appendEntry(ctx, fork.id, { type: "fork", sourceSessionId: id, sourceSeq: atSeq, timestamp: ctx.now() });
    return requireSession(ctx, fork.id);
  });
}
