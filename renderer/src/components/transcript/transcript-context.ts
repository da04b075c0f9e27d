/**
 * What rows need besides their own entry: attached results and decisions, live
 * tool statuses and the actions the host view allows. The replay view passes
 * `readOnly` and no actions that change the session.
 */
import { createContext, useContext } from "react";
import type { ApprovalEntry } from "../../../../shared/protocol";
import type { AttachedResult } from "../../lib/transcript-model";
import type { LiveToolStatus } from "../../stores/transcript-store";
import type { DiffSelection } from "../../stores/ui-store";
import type { ModelOption } from "../../../../shared/api";

export interface TranscriptActions {
  openDiff?: (selection: DiffSelection) => void;
  /** Re-sends the last user message after an error. */
  retry?: () => void;
  forkAt?: (seq: number) => void;
  /** Opens the rewind preview for the workspace and conversation as of a step (docs/checkpoints.md). */
  rewindTo?: (seq: number, label: string) => void;
  /** Opens another session: a sub-agent's, from its task call (live: the session; replay: its replay). */
  openSession?: (sessionId: string) => void;
}

export interface TranscriptContextValue {
  results: ReadonlyMap<string, AttachedResult>;
  approvals: ReadonlyMap<string, ApprovalEntry>;
  toolStatus: Readonly<Record<string, LiveToolStatus>>;
  pendingApprovalId: string | null;
  /** A turn is running, so calls without a result are still pending. */
  running: boolean;
  readOnly: boolean;
  models: readonly ModelOption[];
  actions: TranscriptActions;
  /** The session shown, null when unknown. */
  sessionId: string | null;
}

export const TranscriptContext = createContext<TranscriptContextValue>({
  results: new Map(),
  approvals: new Map(),
  toolStatus: {},
  pendingApprovalId: null,
  running: false,
  readOnly: true,
  models: [],
  actions: {},
  sessionId: null,
});

export function useTranscriptContext(): TranscriptContextValue {
  return useContext(TranscriptContext);
}
