/**
 * The team library as the core uses it: one pool per configured connection,
 * the schema migrated on first use, every write through the outbox, live
 * notes over LISTEN/NOTIFY, and a published session opened as a local
 * read-only copy (an import of its checked envelope), so replay and "what
 * the model saw" work on it as on any session.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { SessionSummary } from "../../../shared/api";
import type { ReviewState, TeamConnection, TeamNote, TeamNoteInput, TeamSearchHit, TeamSession, TeamStatus } from "../../../shared/team";
import { buildEnvelope, importEnvelope, loadExportSource } from "../review/export-json";
import type { Redactor } from "../review/redact";
import type { ReviewStorePort } from "../review/store-port";
import { poolConfig } from "./connection";
import { isUnreachable, TeamError, toTeamError } from "./errors";
import { getSession, listSessions, loadRevision, publishEnvelope, searchLibrary, type PublishResult } from "./library";
import { Outbox, type OutboxItem } from "./outbox";
import { addNote, addReviewEvent, getNote, listNotes, LiveNotes } from "./reviews";
import { migrateTeamSchema } from "./schema";

export const TEAM_CONNECTION_KEY = "team.connection";
const OPENED_KEY = "team.opened";
const AUTO_PUBLISH_KEY = "team.autoPublish";
/** The key store's name for the team password (beside the providers' API keys). */
export const TEAM_SECRET = "team-postgres";

export interface TeamEvents {
  note(note: TeamNote): void;
  review(session: TeamSession): void;
  status(status: TeamStatus): void;
}

export interface TeamServiceDeps {
  store: ReviewStorePort;
  redactor: () => Redactor;
  password: () => Promise<string | null>;
  events: TeamEvents;
  /** Retry delay while the server is unreachable (tests shorten it). */
  retryMs?: number;
}

export type WriteOutcome<T> = { queued: false; value: T } | { queued: true; id: string };

export class TeamService {
  private readonly outbox: Outbox;
  private pool: pg.Pool | null = null;
  private poolFor: string | null = null;
  private migrated: Promise<void> | null = null;
  private live: LiveNotes | null = null;
  private syncing: Promise<Map<string, unknown>> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private reachable: boolean | null = null;
  private lastError: string | null = null;
  private closed = false;

  constructor(private readonly deps: TeamServiceDeps) {
    this.outbox = new Outbox(deps.store);
  }

  connection(): TeamConnection | null {
    return (this.deps.store.getSetting(TEAM_CONNECTION_KEY) as TeamConnection | undefined) ?? null;
  }

  async configure(conn: TeamConnection | null): Promise<void> {
    if (conn) this.deps.store.setSetting(TEAM_CONNECTION_KEY, conn);
    else this.deps.store.deleteSetting(TEAM_CONNECTION_KEY);
    await this.reset();
    this.emitStatus();
  }

  status(): TeamStatus {
    return {
      configured: this.connection() !== null,
      reachable: this.reachable,
      queued: this.outbox.queued().length,
      failed: this.outbox.failed().map((f) => ({ id: f.item.id, kind: f.item.kind, error: f.error })),
      lastError: this.lastError,
    };
  }

  // ------------------------------------------------------------ connection

  private async client<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const conn = this.connection();
    if (!conn) throw new TeamError("TEAM_NOT_CONFIGURED", "No team library is set up (Settings → Team)");
    const password = await this.deps.password();
    const key = JSON.stringify(conn);
    if (!this.pool || this.poolFor !== key) {
      await this.resetPool();
      this.pool = new pg.Pool(poolConfig(conn, password));
      // An idle client's error (the server went away) must not crash the core.
      this.pool.on("error", () => undefined);
      // …nor one the pool already dropped (a client destroyed after a failure reports the dead socket later).
      this.pool.on("connect", (client) => client.on("error", () => undefined));
      this.poolFor = key;
    }
    const pool = this.pool;
    try {
      const c = await pool.connect();
      let broken = false;
      try {
        this.migrated ??= migrateTeamSchema(c).then(() => undefined);
        await this.migrated.catch((e) => {
          this.migrated = null;
          throw e;
        });
        const out = await fn(c);
        this.markReachable(true, null);
        return out;
      } catch (e) {
        broken = true;
        throw e;
      } finally {
        // A client that failed may hold a dead socket or an aborted transaction: never reused.
        c.release(broken);
      }
    } catch (e) {
      const err = toTeamError(e, password);
      if (err.code === "TEAM_UNREACHABLE") this.markReachable(false, err.message);
      throw err;
    }
  }

  private markReachable(ok: boolean, error: string | null): void {
    const changed = this.reachable !== ok;
    this.reachable = ok;
    this.lastError = error;
    if (changed) this.emitStatus();
  }

  private async resetPool(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    this.poolFor = null;
    this.migrated = null;
    await pool?.end().catch(() => undefined);
  }

  private async reset(): Promise<void> {
    await this.live?.close();
    this.live = null;
    await this.resetPool();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.syncing?.catch(() => undefined);
    await this.reset();
  }

  /** Workspaces whose sessions are published at the end of each turn. */
  autoPublishing(): string[] {
    const v = this.deps.store.getSetting(AUTO_PUBLISH_KEY);
    return Array.isArray(v) ? v.filter((id): id is string => typeof id === "string") : [];
  }

  setAutoPublish(workspaceId: string, on: boolean): void {
    const rest = this.autoPublishing().filter((id) => id !== workspaceId);
    this.deps.store.setSetting(AUTO_PUBLISH_KEY, on ? [...rest, workspaceId] : rest);
  }

  /**
   * A turn ended: publish the session as a new revision when its workspace asks for it. Not a
   * sub-agent's session (it is published inside its parent's), not a copy opened from the library.
   */
  async turnEnded(localSessionId: string): Promise<WriteOutcome<PublishResult> | null> {
    const session = this.deps.store.getSession(localSessionId);
    if (!session || !this.connection() || session.parentToolCallId !== undefined) return null;
    if (!this.autoPublishing().includes(session.workspaceId)) return null;
    const opened = (this.deps.store.getSetting(OPENED_KEY) as Record<string, string> | undefined) ?? {};
    if (Object.values(opened).includes(localSessionId)) return null;
    return this.publish(localSessionId);
  }

  // ------------------------------------------------------------ writes (through the outbox)

  publish(localSessionId: string, project?: string): Promise<WriteOutcome<PublishResult>> {
    if (!this.deps.store.getSession(localSessionId)) throw new TeamError("TEAM_INVALID", `No local session ${localSessionId}`);
    const target = project ?? this.connection()?.defaultProject;
    if (!target) throw new TeamError("TEAM_NOT_CONFIGURED", "No team library is set up (Settings → Team)");
    return this.write<PublishResult>({ id: randomUUID(), kind: "publish", queuedAt: Date.now(), localSessionId, project: target });
  }

  addNote(note: TeamNoteInput): Promise<WriteOutcome<TeamNote>> {
    return this.write<TeamNote>({ id: randomUUID(), kind: "note", queuedAt: Date.now(), note });
  }

  setReviewState(sessionId: string, state: ReviewState): Promise<WriteOutcome<null>> {
    return this.write<null>({ id: randomUUID(), kind: "review", queuedAt: Date.now(), sessionId, state });
  }

  requestReview(sessionId: string, assignee: string): Promise<WriteOutcome<null>> {
    return this.write<null>({ id: randomUUID(), kind: "review", queuedAt: Date.now(), sessionId, assignee });
  }

  private async write<T>(item: OutboxItem): Promise<WriteOutcome<T>> {
    if (!this.connection()) throw new TeamError("TEAM_NOT_CONFIGURED", "No team library is set up (Settings → Team)");
    this.outbox.add(item);
    this.emitStatus();
    const results = await this.sync();
    if (results.has(item.id)) return { queued: false, value: results.get(item.id) as T };
    const failed = this.outbox.failed().find((f) => f.item.id === item.id);
    if (failed) {
      // Refused while the user waits: said now, not kept as a failure to answer later.
      this.outbox.takeFailed(item.id);
      this.emitStatus();
      throw new TeamError(failed.error.startsWith("TEAM_DENIED") ? "TEAM_DENIED" : "TEAM_INVALID", failed.error.replace(/^TEAM_\w+: /, ""));
    }
    return { queued: true, id: item.id };
  }

  /** Sends what is queued, in order; stops at the first unreachable server and retries later. */
  sync(): Promise<Map<string, unknown>> {
    // Several callers share one run; an item added during a run is sent by the next one.
    const run = (this.syncing ?? Promise.resolve(new Map())).then(() => this.drain());
    this.syncing = run.finally(() => {
      if (this.syncing === run) this.syncing = null;
    });
    return run;
  }

  private async drain(): Promise<Map<string, unknown>> {
    const results = new Map<string, unknown>();
    for (const item of this.outbox.queued()) {
      if (this.closed) break;
      try {
        results.set(item.id, await this.send(item));
        this.outbox.done(item.id);
      } catch (e) {
        if (isUnreachable(e)) {
          this.scheduleRetry();
          break;
        }
        const err = toTeamError(e);
        this.outbox.fail(item.id, `${err.code}: ${err.message}`);
      }
    }
    this.emitStatus();
    return results;
  }

  private scheduleRetry(): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.sync();
    }, this.deps.retryMs ?? 10_000);
    this.retry.unref?.();
  }

  private async send(item: OutboxItem): Promise<unknown> {
    if (item.kind === "publish") {
      // Built at send time from the store, redacted as exports are.
      const source = loadExportSource(this.deps.store, item.localSessionId);
      if (!source.ok) throw new TeamError("TEAM_INVALID", `The local session to publish is gone (${source.error.message})`);
      const envelope = buildEnvelope(source.value, this.deps.redactor());
      return this.client((c) => publishEnvelope(c, { project: item.project, originId: item.localSessionId, clientId: item.id, envelope }));
    }
    if (item.kind === "note") return this.client((c) => addNote(c, item.note, item.id));
    const input = item.state
      ? { sessionId: item.sessionId, state: item.state }
      : { sessionId: item.sessionId, assignee: item.assignee ?? "" };
    await this.client((c) => addReviewEvent(c, input, item.id));
    return null;
  }

  // ------------------------------------------------------------ reads

  list(opts: { project?: string; limit?: number } = {}): Promise<TeamSession[]> {
    return this.client((c) => listSessions(c, opts));
  }

  get(id: string): Promise<TeamSession | null> {
    return this.client((c) => getSession(c, id));
  }

  search(query: string, opts: { project?: string; limit?: number } = {}): Promise<TeamSearchHit[]> {
    return this.client((c) => searchLibrary(c, query, opts));
  }

  notes(sessionId: string): Promise<TeamNote[]> {
    return this.client((c) => listNotes(c, sessionId));
  }

  /** A published revision as a local session in `workspaceId` (imported once per revision). */
  async open(id: string, workspaceId: string, revision?: number): Promise<{ session: SessionSummary; revision: number }> {
    const { envelope, revision: rev } = await this.client((c) => loadRevision(c, id, revision));
    const opened = (this.deps.store.getSetting(OPENED_KEY) as Record<string, string> | undefined) ?? {};
    const key = `${id}@${rev}`;
    const known = opened[key] ? this.deps.store.getSession(opened[key]) : undefined;
    if (known) return { session: known, revision: rev };
    const imported = await importEnvelope(this.deps.store, workspaceId, envelope);
    if (!imported.ok) throw new TeamError("TEAM_INVALID", `The published session could not be opened: ${imported.error.message}`);
    this.deps.store.setSetting(OPENED_KEY, { ...opened, [key]: imported.value.id });
    return { session: imported.value, revision: rev };
  }

  // ------------------------------------------------------------ live

  /** Starts LISTEN; notes and review changes arrive as events, read through RLS first. */
  async watch(): Promise<void> {
    const conn = this.connection();
    if (!conn || this.live) return;
    const config = poolConfig(conn, await this.deps.password());
    this.live = new LiveNotes(
      config,
      (change) => {
        const read =
          change.kind === "note"
            ? this.client((c) => getNote(c, change.id)).then((n) => n && this.deps.events.note(n))
            : this.get(change.sessionId).then((s) => s && this.deps.events.review(s));
        read.catch(() => undefined);
      },
      (connected, error) => {
        this.markReachable(connected, error ?? null);
        // Back after an outage: send what waited.
        if (connected && this.outbox.queued().length > 0) void this.sync();
      },
    );
    await this.live.start();
  }

  private emitStatus(): void {
    this.deps.events.status(this.status());
  }
}
