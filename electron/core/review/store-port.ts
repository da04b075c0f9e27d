/**
 * The parts of the SessionStore review relies on (the real SessionStore
 * satisfies it). Store methods throw StoreError; dispatch maps those.
 */
import type { SessionSummary } from "../../../shared/api";
import type { ModelRef, SessionEntry, StoredEntry } from "../../../shared/protocol";
import type { CheckedEntries, EntryRange, LoadOptions, Note, NoteInput, StagedImportsPort, ToolCallInput, ToolCallRecord } from "../store";
import type { Workspace } from "../../../shared/api";

export interface ReviewStorePort {
  getSession(id: string): SessionSummary | undefined;
  getWorkspace(id: string): Workspace | undefined;
  createSession(input: { workspaceId: string; title?: string; model?: ModelRef | null }): SessionSummary;
  deleteSession(id: string): boolean;
  forkSession(id: string, atSeq: number): SessionSummary;
  setSessionModel(id: string, model: ModelRef | null): SessionSummary;
  repairSession(id: string): number;
  appendEntry(sessionId: string, entry: SessionEntry): number;
  loadEntries(sessionId: string, range?: EntryRange): StoredEntry[];
  loadEntriesChecked(sessionId: string, range?: EntryRange, options?: LoadOptions): CheckedEntries;
  listToolCalls(sessionId: string): ToolCallRecord[];
  /** The request body recorded for entry `seq` as it was sent, or undefined (store/request-records.ts). */
  loadRequest?(sessionId: string, seq: number): string | undefined;
  recordToolCall(input: ToolCallInput): ToolCallRecord;
  addNote(input: NoteInput): Note;
  listNotes(sessionId: string): Note[];
  deleteNote(id: number): boolean;
  getSetting(key: string): unknown;
  setSetting(key: string, value: unknown): void;
  deleteSetting(key: string): boolean;
  /** Staged sessions an import writes in slices and publishes in one transaction. */
  readonly imports: StagedImportsPort;
}
