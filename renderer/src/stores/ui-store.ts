/** View state that belongs to no server object: the diff panel's selection, dialogs. */
import { create } from "zustand";

export interface DiffSelection {
  /** Stable key (tool-call id or "approval:<id>") so re-selecting is a no-op. */
  key: string;
  path: string;
  before: string;
  after: string;
  /**
   * Where it came from, shown in the panel header: a proposal waiting for its
   * answer, one that was denied or never ran ("notApplied": the file is as it
   * was), or a change made.
   */
  origin: "result" | "proposal" | "denied" | "notApplied";
}

/** What a proposal shown in the panel became once its call finished. */
export function settledOrigin(status: string): DiffSelection["origin"] | null {
  if (status === "denied") return "denied";
  if (status === "aborted" || status === "error") return "notApplied";
  if (status === "done") return "result";
  return null;
}

interface UiState {
  diff: DiffSelection | null;
  diffOpen: boolean;
  diffMode: "sideBySide" | "inline";
  settingsOpen: boolean;
  modelMenuOpen: boolean;
  openDiff(selection: DiffSelection): void;
  closeDiff(): void;
  setDiffMode(mode: UiState["diffMode"]): void;
  setSettingsOpen(open: boolean): void;
  setModelMenuOpen(open: boolean): void;
  /** The panel showing this call's proposal says what became of it (denied, not applied, applied). */
  settleProposal(toolCallId: string, status: string): void;
}

export const useUiStore = create<UiState>((set) => ({
  diff: null,
  diffOpen: false,
  diffMode: "sideBySide",
  settingsOpen: false,
  modelMenuOpen: false,
  openDiff(selection) {
    set({ diff: selection, diffOpen: true });
  },
  closeDiff() {
    set({ diffOpen: false });
  },
  setDiffMode(diffMode) {
    set({ diffMode });
  },
  setSettingsOpen(settingsOpen) {
    set({ settingsOpen });
  },
  setModelMenuOpen(modelMenuOpen) {
    set({ modelMenuOpen });
  },
  settleProposal(toolCallId, status) {
    set((s) => {
      const origin = settledOrigin(status);
      if (!s.diff || s.diff.origin !== "proposal" || s.diff.key !== `approval:${toolCallId}` || origin === null) return s;
      return { diff: { ...s.diff, origin } };
    });
  },
}));
