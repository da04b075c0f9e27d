/** View state that belongs to no server object: the diff panel's selection, dialogs. */
import { create } from "zustand";

export interface DiffSelection {
  /** Stable key (tool-call id or "approval:<id>") so re-selecting is a no-op. */
  key: string;
  path: string;
  before: string;
  after: string;
  /** Where it came from, shown in the panel header. */
  origin: "result" | "proposal";
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
}));
