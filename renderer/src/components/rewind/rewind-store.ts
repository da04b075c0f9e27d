/**
 * Rewind (docs/checkpoints.md): the preview of what a rewind to a step would
 * change, the user's choices (files / conversation / both, confirming
 * conflicts), applying it, and undoing a file restore.
 */
import { create } from "zustand";
import type { RewindMode, RewindPreview, RewindTarget } from "../../../../shared/checkpoints";
import { client, errorText } from "../../api/current";
import { useReplayStore } from "../../replay/replay-store";
import { useAppStore } from "../../stores/app-store";
import { useWorkspaceStore } from "../../stores/workspace-store";

export interface RewindRequest {
  sessionId: string;
  target: RewindTarget;
  /** What the step is, for the title: "before your message “…”", "step 12". */
  label: string;
}

export interface RewindDone {
  restoredFiles: string[];
  undoCheckpointId: number | null;
  forkedTitle: string | null;
  undone: boolean;
}

interface RewindState {
  request: RewindRequest | null;
  mode: RewindMode;
  status: "idle" | "loading" | "ready" | "applying" | "done" | "error";
  preview: RewindPreview | null;
  error: string | null;
  selected: string | null;
  confirmConflicts: boolean;
  done: RewindDone | null;
  /** The message the conversation went back before, for the composer of the fork. */
  draft: { sessionId: string; text: string } | null;
  open(request: RewindRequest, mode?: RewindMode): Promise<void>;
  /** "Undo last turn": restores both at once when nothing conflicts, else opens the preview. */
  undoLastTurn(request: RewindRequest): Promise<void>;
  setMode(mode: RewindMode): void;
  select(path: string | null): void;
  setConfirm(confirm: boolean): void;
  apply(): Promise<void>;
  undoFiles(): Promise<void>;
  takeDraft(sessionId: string): string | null;
  close(): void;
}

export const useRewindStore = create<RewindState>((set, get) => ({
  request: null,
  mode: "both",
  status: "idle",
  preview: null,
  error: null,
  selected: null,
  confirmConflicts: false,
  done: null,
  draft: null,

  async open(request, mode = "both") {
    set({ request, mode, status: "loading", preview: null, error: null, selected: null, confirmConflicts: false, done: null });
    try {
      const preview = await client().call("rewind.preview", { sessionId: request.sessionId, target: request.target });
      if (get().request !== request) return;
      set({ status: "ready", preview, selected: preview.files[0]?.path ?? null });
    } catch (err) {
      if (get().request === request) set({ status: "error", error: errorText(err) });
    }
  },

  async undoLastTurn(request) {
    await get().open(request, "both");
    const { preview, status } = get();
    if (status !== "ready" || !preview || preview.conflicts > 0 || preview.filesUnavailable) return;
    await get().apply();
  },

  setMode(mode) {
    set({ mode });
  },
  select(selected) {
    set({ selected });
  },
  setConfirm(confirmConflicts) {
    set({ confirmConflicts });
  },

  async apply() {
    const { request, mode, confirmConflicts, preview } = get();
    if (!request || !preview) return;
    set({ status: "applying", error: null });
    try {
      const result = await client().call("rewind.apply", {
        sessionId: request.sessionId,
        target: request.target,
        mode,
        confirmConflicts: confirmConflicts || undefined,
      });
      const ws = useWorkspaceStore.getState();
      if (result.forked) {
        // From replay: the conversation continues in the normal view.
        if (useReplayStore.getState().sessionId) useReplayStore.getState().close({ keepSession: true });
        ws.upsertSession(result.forked);
        if (result.draft) set({ draft: { sessionId: result.forked.id, text: result.draft } });
        ws.selectSession(result.forked.id);
      }
      set({
        status: "done",
        done: {
          restoredFiles: result.restoredFiles,
          undoCheckpointId: result.undoCheckpointId,
          forkedTitle: result.forked?.title ?? null,
          undone: false,
        },
      });
      const parts = [
        mode !== "conversation" ? `${result.restoredFiles.length} file${result.restoredFiles.length === 1 ? "" : "s"} restored` : null,
        result.forked ? `conversation continues in “${result.forked.title}”` : null,
      ].filter(Boolean);
      useAppStore.getState().notify("info", `Rewound: ${parts.join("; ")}.`);
    } catch (err) {
      set({ status: "error", error: errorText(err) });
    }
  },

  async undoFiles() {
    const { request, done } = get();
    if (!request || !done?.undoCheckpointId) return;
    set({ status: "applying", error: null });
    try {
      // The rewind itself was undoable because the state before it was checkpointed; confirming is implied.
      await client().call("rewind.apply", {
        sessionId: request.sessionId,
        target: { checkpointId: done.undoCheckpointId },
        mode: "files",
        confirmConflicts: true,
      });
      set({ status: "done", done: { ...done, undone: true } });
      useAppStore.getState().notify("info", "The file restore was undone.");
    } catch (err) {
      set({ status: "error", error: errorText(err) });
    }
  },

  takeDraft(sessionId) {
    const draft = get().draft;
    if (!draft || draft.sessionId !== sessionId) return null;
    set({ draft: null });
    return draft.text;
  },

  close() {
    set({ request: null, status: "idle", preview: null, error: null, selected: null, done: null, confirmConflicts: false });
  },
}));
