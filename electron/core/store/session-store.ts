/**
 * SessionStore: the app's one writer to SQLite.
 *
 * Contract: every method returns its value or throws a `StoreError` with a
 * typed code (see errors.ts); raw SQLite and zod errors never escape. Use one
 * store per process and per file (the app holds a single-instance lock).
 */
import type { ApprovalRule, SearchHit, SessionSummary, Workspace } from "../../../shared/api";
import type { ModelRef, ReasoningLevel, SessionEntry, StoredEntry } from "../../../shared/protocol";
import {
  addToolCall,
  listToolCalls,
  patchToolCall,
  recordToolCall,
  updateToolCall,
  type ToolCallInput,
  type ToolCallPatch,
  type ToolCallRecord,
} from "./audit";
import { writeFileSync } from "node:fs";
import type { Worker } from "node:worker_threads";
import {
  addCheckpoint,
  countPrunedCheckpoints,
  getCheckpoint,
  listSessionCheckpoints,
  listWorkspaceCheckpoints,
  markCheckpointsPruned,
  type CheckpointInput,
  type CheckpointRecord,
} from "./checkpoints";
import { listKeptFiles, moveAside, schemaVersion, type KeptFile, type StoreContext } from "./db";
import { checkIntegrityOffThread, type IntegrityReport } from "./integrity";
import { recordRequest, loadRequest, recordedSize, type RecordedRequestSize } from "./request-records";
import { appendEntry, loadEntriesChecked, sessionHead, type CheckedEntries, type EntryRange, type LoadOptions } from "./entries";
import { StoreError, isStorageFailure, toStoreError } from "./errors";
import { addNote, deleteNote, listNotes, type Note, type NoteInput } from "./notes";
import { repairAll, repairSession } from "./repair";
import { salvageInto, type SalvageReport } from "./salvage";
import type { TailMarks } from "./tail-marks";
import { search, type SearchOptions } from "./search";
import { searchEverything } from "./search-everything";
import type { SearchEverythingResult, SearchFilters } from "../../../shared/search";
import type { SearchIndexer } from "./search-index";
import {
  createSession,
  createSubAgentSession,
  deleteSession,
  forkSession,
  getSession,
  subAgentSessions,
  listSessions,
  renameSession,
  setSessionModel,
  setSessionReasoning,
  type CreateSessionInput,
  type ForkOptions,
  type ListSessionsOptions,
  type SessionPage,
  type SubAgentSessionInput,
} from "./sessions";
import { addRule, listRules, removeRule, updateRule, type RuleInput } from "./rules";
import type { StagedImports } from "./staged-imports";
import { deleteSetting, getSetting, setSetting } from "./settings";
import { addWorkspace, getWorkspace, recentWorkspaces } from "./workspaces";
import type { WalCheckpoint } from "./wal-checkpoint";
import { openParts, recheckMarker, type OpenReport, type Recovered, type StoreOptions } from "./store-open";

export type { OpenReport, Recovered, StoreOptions } from "./store-open";

export class SessionStore {
  private constructor(
    private readonly ctx: StoreContext,
    private readonly indexer: SearchIndexer,
    /** What happened at open; show `repaired` to the user if non-empty. */
    readonly openReport: OpenReport,
    private readonly path: string,
    private readonly nativeBinding: string | undefined,
    private readonly walCheckpoint: WalCheckpoint | null,
    private readonly marks: TailMarks | null,
    /** Imports written in slices and published in one transaction (staged-imports.ts). */
    readonly imports: StagedImports,
  ) {}

  private integrityRun: Promise<IntegrityReport> | null = null;
  private readonly integrityWorkers = new Set<Worker>();

  /**
   * The integrity check, on a worker thread (integrity.ts): the first call
   * starts it, later calls share it; `fresh` runs a new one. Damage leaves a
   * marker so the next open runs the full check at open, where a damaged
   * file is salvaged and moved aside (`openOrRecover`).
   */
  integrity(options: { fresh?: boolean } = {}): Promise<IntegrityReport> {
    if (!this.integrityRun || options.fresh) {
      const path = this.path;
      this.integrityRun = checkIntegrityOffThread(path, this.nativeBinding, (w) => this.track(w)).then((report) => {
        if (!report.ok && report.damaged) {
          try {
            writeFileSync(recheckMarker(path), report.message);
          } catch {
            // The report still reaches the user; only the automatic move aside at the next start is lost.
          }
        }
        return report;
      });
    }
    return this.integrityRun;
  }

  private track(worker: Worker): void {
    this.integrityWorkers.add(worker);
    worker.once("exit", () => this.integrityWorkers.delete(worker));
  }

  /**
   * Opens (creating if needed) and migrates the database, checks its integrity
   * and repairs sessions interrupted mid-turn. `":memory:"` gives a private
   * in-memory store. Throws StoreError DAMAGED / TOO_NEW / IO / BUSY.
   */
  static open(path: string, options: StoreOptions = {}): SessionStore {
    const { ctx, indexer, report, walCheckpoint, marks, imports } = openParts(path, options);
    return new SessionStore(ctx, indexer, report, path, options.nativeBinding, walCheckpoint, marks, imports);
  }

  /**
   * Like `open`, but a DAMAGED file is moved aside to `<path>.damaged-<timestamp>`
   * (never deleted) and a fresh store is started in its place; `recovered` then
   * says where the old file went so the app can tell the user. Other errors
   * (TOO_NEW, IO, BUSY) are thrown: moving the file would not fix them.
   */
  static openOrRecover(path: string, options: StoreOptions = {}): { store: SessionStore; recovered: Recovered | null } {
    try {
      return { store: SessionStore.open(path, options), recovered: null };
    } catch (e) {
      if (!(e instanceof StoreError) || e.code !== "DAMAGED" || path === ":memory:" || path === "") throw e;
      const movedTo = moveAside(path, (options.now ?? Date.now)());
      const store = SessionStore.open(path, options);
      // Every row that still reads goes into the fresh store before anything else is written to it.
      try {
        return { store, recovered: { movedTo, reason: e.message, salvage: store.salvageFrom(movedTo) } };
      } catch (err) {
        return { store, recovered: { movedTo, reason: e.message, salvage: null, salvageError: toStoreError(err, "salvage").message } };
      }
    }
  }

  /**
   * Copies every readable row of the database file at `path` (one moved
   * aside as damaged) into this store: sessions it already has are left as
   * they are. Repairs the copied sessions' unanswered calls and schedules
   * their indexing. Throws StoreError only for this store's own failures.
   */
  salvageFrom(path: string): SalvageReport {
    return this.guard("salvage", () => {
      const report = salvageInto(this.ctx, path, this.nativeBinding);
      const repaired = repairAll(this.ctx);
      this.openReport.repaired.push(...repaired.repaired);
      this.openReport.repairFailures.push(...repaired.failures);
      this.indexer.noteBulkInsert();
      for (const id of report.sessionIds) this.marks?.touch(id);
      return report;
    });
  }

  /** Database files kept aside as damaged beside this store's file (db.ts `moveAside`), newest first. */
  keptFiles(): KeptFile[] {
    return listKeptFiles(this.path);
  }

  /**
   * Indexes what is pending for search, then closes. Throws only a StoreError,
   * and only when the connection itself could not be closed: an index that
   * could not catch up (a full disk) is caught up at the next open from its
   * watermark, so it is no reason to fail.
   */
  close(): void {
    this.indexer.cancel();
    this.imports.stop();
    if (!this.ctx.db.open) return;
    try {
      this.indexer.flush();
    } catch (e) {
      this.indexer.lastError = e;
    }
    this.marks?.flush();
    // Closing the last connection checkpoints and removes the WAL itself.
    this.walCheckpoint?.stop();
    try {
      this.ctx.db.close();
    } catch (e) {
      throw toStoreError(e, "close");
    }
  }

  /**
   * Settles once no thread of this store has the file open any more (the
   * running integrity check): after `close()`,
   * await this before moving or removing the database's folder.
   */
  async whenStopped(): Promise<void> {
    // Unref'd while they run (a check must not keep the app alive); awaited here, they must keep the loop alive.
    for (const w of this.integrityWorkers) w.ref();
    await this.integrityRun;
  }

  /** The applied migration version (PRAGMA user_version). */
  get schemaVersion(): number {
    return this.guard("schemaVersion", () => schemaVersion(this.ctx.db));
  }

  // ------------------------------------------------------------ workspaces

  addWorkspace(path: string, name?: string): Workspace {
    return this.guard("addWorkspace", () => addWorkspace(this.ctx, path, name));
  }
  recentWorkspaces(limit = 10): Workspace[] {
    return this.guard("recentWorkspaces", () => recentWorkspaces(this.ctx, limit));
  }
  getWorkspace(id: string): Workspace | undefined {
    return this.guard("getWorkspace", () => getWorkspace(this.ctx, id));
  }

  // ------------------------------------------------------------ sessions

  createSession(input: CreateSessionInput): SessionSummary {
    return this.guard("createSession", () => createSession(this.ctx, input));
  }
  createSubAgentSession(input: SubAgentSessionInput): SessionSummary {
    return this.guard("createSubAgentSession", () => createSubAgentSession(this.ctx, input));
  }
  subAgentSessions(parentId: string): SessionSummary[] {
    return this.guard("subAgentSessions", () => subAgentSessions(this.ctx, parentId));
  }
  getSession(id: string): SessionSummary | undefined {
    return this.guard("getSession", () => getSession(this.ctx, id));
  }
  listSessions(workspaceId: string, options: ListSessionsOptions = {}): SessionPage {
    return this.guard("listSessions", () => listSessions(this.ctx, workspaceId, options));
  }
  renameSession(id: string, title: string): SessionSummary {
    return this.guard("renameSession", () => renameSession(this.ctx, id, title));
  }
  setSessionModel(id: string, model: ModelRef | null): SessionSummary {
    return this.guard("setSessionModel", () => setSessionModel(this.ctx, id, model));
  }

  setSessionReasoning(id: string, level: ReasoningLevel): SessionSummary {
    return this.guard("setSessionReasoning", () => setSessionReasoning(this.ctx, id, level));
  }
  /** True when the session existed. Its sub-agents' sessions go with it. */
  deleteSession(id: string): boolean {
    return this.guard("deleteSession", () => {
      const deleted = deleteSession(this.ctx, id);
      // Its mark goes too: a deleted session is not a lost one.
      this.marks?.touch(id);
      return deleted;
    });
  }
  forkSession(id: string, atSeq: number, options: ForkOptions = {}): SessionSummary {
    return this.guard("forkSession", () => forkSession(this.ctx, id, atSeq, options));
  }

  // ------------------------------------------------------------ entries

  /**
   * Validates, then appends in one transaction; returns the entry's seq.
   * `alongside` runs inside that transaction (e.g. the entry's audit row); if
   * it throws, nothing is written.
   */
  appendEntry(sessionId: string, entry: SessionEntry, alongside?: (seq: number) => void): number {
    return this.guard("appendEntry", () => {
      const seq = appendEntry(this.ctx, sessionId, entry, alongside);
      // After the commit: the entry is durable whatever happens to the index. One short slice
      // keeps the backlog bounded for a writer that never yields; a slice that fails leaves its
      // rows pending, and the next search or close retries them and reports the error there
      // (test/store/search.test.ts), so the committed append does not report a failure.
      if (this.indexer.overBacklog) {
        try {
          this.indexer.slice();
        } catch (e) {
          this.indexer.lastError = e;
        }
      }
      return seq;
    });
  }
  /**
   * Records the request body entry `seq` (an assistant message) answered, as it was sent
   * (request-records.ts). Call it inside that entry's `alongside` so both commit or neither.
   */
  recordRequest(sessionId: string, seq: number, raw: string): void {
    this.guard("recordRequest", () => recordRequest(this.ctx, this.sessionNum(sessionId), seq, raw));
  }
  /** The request body recorded for entry `seq`, or undefined when none was (sessions stored before, imports). */
  loadRequest(sessionId: string, seq: number): string | undefined {
    return this.guard("loadRequest", () => loadRequest(this.ctx, this.sessionNum(sessionId), seq));
  }
  /** Bytes of the session's recorded requests as sent and as stored. */
  recordedRequestSize(sessionId: string): RecordedRequestSize {
    return this.guard("recordedRequestSize", () => recordedSize(this.ctx, this.sessionNum(sessionId)));
  }
  private sessionNum(sessionId: string): number {
    const head = sessionHead(this.ctx, sessionId);
    if (head === undefined) throw new StoreError("NOT_FOUND", `no session ${sessionId}`);
    return head.num;
  }
  /**
   * Entries in seq order, skipping rows that no longer parse or validate.
   * Use `loadEntriesChecked` wherever those rows must be reported (the UI, replay).
   */
  loadEntries(sessionId: string, range: EntryRange = {}): StoredEntry[] {
    return this.loadEntriesChecked(sessionId, range).entries;
  }
  /** Entries in seq order plus a `problems` list naming every row that could not be returned (and every missing run). */
  loadEntriesChecked(sessionId: string, range: EntryRange = {}, options: LoadOptions = {}): CheckedEntries {
    return this.guard("loadEntries", () => loadEntriesChecked(this.ctx, sessionId, range, options));
  }
  /** Appends a synthesized "aborted" result for each unanswered call of the last assistant message. */
  repairSession(id: string): number {
    return this.guard("repairSession", () => repairSession(this.ctx, id));
  }

  // ------------------------------------------------------------ search, usage

  /** What the idle WAL checkpoints did (diagnostics, tests); null when they were not asked for. */
  get walCheckpointStats(): { checkpoints: number; lastError: string | null } | null {
    const c = this.walCheckpoint;
    return c ? { checkpoints: c.checkpoints, lastError: c.lastError } : null;
  }

  /** Catches the index up with every committed entry (as far as the disk takes it), then queries it. */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    return this.guard("search", () => {
      this.catchUpIndex();
      return search(this.ctx, query, options);
    });
  }

  /** Search across every workspace with filters, grouped per session (search-everything.ts). */
  searchEverything(query: string, filters: SearchFilters = {}, limit?: number): SearchEverythingResult {
    return this.guard("search", () => {
      this.catchUpIndex();
      return searchEverything(this.ctx, query, filters, limit);
    });
  }

  private catchUpIndex(): void {
    try {
      this.indexer.flush();
    } catch (e) {
      // A full or locked disk cannot take the newest index rows: search what is indexed (they stay pending).
      if (!isStorageFailure(toStoreError(e, "search"))) throw e;
      this.indexer.lastError = e;
    }
  }

  // ------------------------------------------------------------ tool audit

  recordToolCall(input: ToolCallInput): ToolCallRecord {
    return this.guard("recordToolCall", () => recordToolCall(this.ctx, input));
  }
  updateToolCall(sessionId: string, toolCallId: string, patch: ToolCallPatch): ToolCallRecord {
    return this.guard("updateToolCall", () => updateToolCall(this.ctx, sessionId, toolCallId, patch));
  }
  /** `recordToolCall` without reading the row back (the agent loop's audit). */
  addToolCall(input: ToolCallInput): void {
    this.guard("addToolCall", () => addToolCall(this.ctx, input));
  }
  /** `updateToolCall` without reading the row back. */
  patchToolCall(sessionId: string, toolCallId: string, patch: ToolCallPatch): void {
    this.guard("patchToolCall", () => patchToolCall(this.ctx, sessionId, toolCallId, patch));
  }
  listToolCalls(sessionId: string): ToolCallRecord[] {
    return this.guard("listToolCalls", () => listToolCalls(this.ctx, sessionId));
  }

  // ------------------------------------------------------------ settings (never secrets)

  getSetting(key: string): unknown {
    return this.guard("getSetting", () => getSetting(this.ctx, key));
  }
  setSetting(key: string, value: unknown): void {
    this.guard("setSetting", () => setSetting(this.ctx, key, value));
  }
  deleteSetting(key: string): boolean {
    return this.guard("deleteSetting", () => deleteSetting(this.ctx, key));
  }

  // ------------------------------------------------------------ approval rules (per workspace)

  listRules(workspaceId: string): ApprovalRule[] {
    return this.guard("listRules", () => listRules(this.ctx, workspaceId));
  }
  addRule(input: RuleInput): ApprovalRule {
    return this.guard("addRule", () => addRule(this.ctx, input));
  }
  updateRule(workspaceId: string, id: string, patch: { action?: ApprovalRule["action"]; pattern?: string }): ApprovalRule {
    return this.guard("updateRule", () => updateRule(this.ctx, workspaceId, id, patch));
  }
  removeRule(workspaceId: string, id: string): boolean {
    return this.guard("removeRule", () => removeRule(this.ctx, workspaceId, id));
  }

  // ------------------------------------------------------------ reviewer notes

  addNote(input: NoteInput): Note {
    return this.guard("addNote", () => addNote(this.ctx, input));
  }
  listNotes(sessionId: string): Note[] {
    return this.guard("listNotes", () => listNotes(this.ctx, sessionId));
  }
  deleteNote(id: number): boolean {
    return this.guard("deleteNote", () => deleteNote(this.ctx, id));
  }

  // ------------------------------------------------------------ checkpoints

  addCheckpoint(input: CheckpointInput): CheckpointRecord {
    return this.guard("addCheckpoint", () => addCheckpoint(this.ctx, input));
  }
  getCheckpoint(id: number): CheckpointRecord | undefined {
    return this.guard("getCheckpoint", () => getCheckpoint(this.ctx, id));
  }
  listSessionCheckpoints(sessionId: string): CheckpointRecord[] {
    return this.guard("listSessionCheckpoints", () => listSessionCheckpoints(this.ctx, sessionId));
  }
  listWorkspaceCheckpoints(workspaceId: string): CheckpointRecord[] {
    return this.guard("listWorkspaceCheckpoints", () => listWorkspaceCheckpoints(this.ctx, workspaceId));
  }
  countPrunedCheckpoints(workspaceId: string): number {
    return this.guard("countPrunedCheckpoints", () => countPrunedCheckpoints(this.ctx, workspaceId));
  }
  markCheckpointsPruned(ids: readonly number[]): void {
    this.guard("markCheckpointsPruned", () => markCheckpointsPruned(this.ctx, ids));
  }

  private guard<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw toStoreError(e, what);
    }
  }
}
