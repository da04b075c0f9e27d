/** View state that belongs to no server object: the diff panel's selection, dialogs. */
import { create } from "zustand";
import type { ProposalHunk } from "../../../shared/hunks";
import { useWorkspaceStore } from "./workspace-store";

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
  /** A pending proposal reviewed hunk by hunk (hunk-review-store, keyed by tool-call id). */
  review?: { toolCallId: string; hunks: ProposalHunk[] };
  /** The entry a review comment on this diff is about (default: the session's latest). */
  seq?: number;
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
  /** The layout the user picked (remembered); null: by width (inline under DIFF_INLINE_BELOW_PX). */
  diffMode: "sideBySide" | "inline" | null;
  settingsOpen: boolean;
  modelMenuOpen: boolean;
  /** The Changes view takes the transcript's place. */
  changesOpen: boolean;
  /** Web mode's folder browser (the sidebar's, also opened from the empty first screen). */
  browsingFolder: boolean;
  setBrowsingFolder(open: boolean): void;
  setChangesOpen(open: boolean): void;
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
  diffMode: loadDiffMode(),
  settingsOpen: false,
  modelMenuOpen: false,
  changesOpen: false,
  setChangesOpen(changesOpen) {
    set({ changesOpen });
  },
  browsingFolder: false,
  setBrowsingFolder(browsingFolder) {
    set({ browsingFolder });
  },
  openDiff(selection) {
    set({ diff: selection, diffOpen: true });
  },
  closeDiff() {
    set({ diffOpen: false });
  },
  setDiffMode(diffMode) {
    try {
      if (diffMode) localStorage.setItem(DIFF_MODE_KEY, diffMode);
      else localStorage.removeItem(DIFF_MODE_KEY);
    } catch {
      // Storage unavailable: the choice lasts for this window only.
    }
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
      // A denied proposal changed nothing: the panel drops it (the tool card still opens it, marked denied).
      if (origin === "denied") return { diff: null, diffOpen: false };
      return { diff: { ...s.diff, origin } };
    });
  },
}));

/** Narrower than this, the diff panel shows the inline layout unless the user picked one. */
export const DIFF_INLINE_BELOW_PX = 900;
const DIFF_MODE_KEY = "awb.diffMode";

function loadDiffMode(): UiState["diffMode"] {
  try {
    const v = localStorage.getItem(DIFF_MODE_KEY);
    return v === "inline" || v === "sideBySide" ? v : null;
  } catch {
    return null;
  }
}

/** The layout to show: the user's pick, else by the panel's width. */
export function effectiveDiffMode(picked: UiState["diffMode"], widthPx: number): "sideBySide" | "inline" {
  return picked ?? (widthPx > 0 && widthPx < DIFF_INLINE_BELOW_PX ? "inline" : "sideBySide");
}

// Another session (a new one, too) never shows the previous session's diff. Synchronous with the switch, so a
// waiting approval of the session switched to opens its proposal after this.
useWorkspaceStore.subscribe((s, prev) => {
  if (s.activeSessionId !== prev.activeSessionId) useUiStore.setState({ diff: null, diffOpen: false });
});
