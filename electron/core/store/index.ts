/** The SQLite session store (see session-store.ts for the contract). */
export { SessionStore, type OpenReport, type Recovered, type StoreOptions } from "./session-store";
export type { IntegrityReport } from "./integrity";
export { StoreError, isStoreError, isStorageFailure, rewordStorageFailure, type StoreErrorCode } from "./errors";
export type { CheckedEntries, EntryProblem, EntryRange, LoadOptions } from "./entries";
export type { CreateSessionInput, ForkOptions, ListSessionsOptions, SessionPage, SubAgentSessionInput } from "./sessions";
export type { SearchOptions } from "./search";
export { toFtsQuery } from "./search";
export { ToolAuditStatusSchema, type ToolAuditStatus, type ToolCallInput, type ToolCallPatch, type ToolCallRecord } from "./audit";
export type { Note, NoteInput, NoteVerdict } from "./notes";
export { ABORTED_RESULT_TEXT, synthesizedAbortResult, type RepairReport } from "./repair";
export type { CheckpointInput, CheckpointKind, CheckpointRecord } from "./checkpoints";
export type { LeftoverImport, StagedBatch, StagedBatchResult, StagedImportsPort, StagedSessionInput } from "./staged-imports";
export type { SalvageReport } from "./salvage";
export type { KeptFile } from "./db";
export type { RecordedRequestSize } from "./request-records";
export type { EntryLoss } from "./tail-marks";
