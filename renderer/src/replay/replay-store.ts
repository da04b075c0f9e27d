/**
 * Replay mode: one past session opened read-only, the timeline cursor, filters,
 * playback, reviewer notes and the side panels. Its own store, separate from
 * the live transcript's: nothing here can change the session's history.
 *
 * Stepping only moves `cursor`; everything shown for a step is derived from it
 * (step-view.ts), so a step costs a binary search and the rows that changed.
 */
import type { SessionOrigin } from "../../../shared/foreign-agents";
import { create } from "zustand";
import type { SessionSummary } from "../../../shared/api";
import type { ModelRef } from "../../../shared/protocol";
import type { FileStates, ModelViewHead, NoteVerdict, ReviewNote, SessionStats, Timeline, TimelineItem } from "../../../shared/review";
import { client, errorText } from "../api/current";
import { useAppStore } from "../stores/app-store";
import { useUiStore } from "../stores/ui-store";
import { useWorkspaceStore } from "../stores/workspace-store";
import { readReplayRoute, writeReplayRoute } from "./replay-route";
import {
  NO_FILTER,
  buildStepIndex,
  filterChoices,
  filterItems,
  nearestVisible,
  runningTotals,
  stepFrom,
  type ReplayFilter,
  type RunningTotals,
  type StepIndex,
} from "./step-view";

export interface ReplayData {
  session: SessionSummary;
  items: TimelineItem[];
  stats: SessionStats;
  problems: Timeline["problems"];
  /** For a fork: the step of the source session it was forked at. */
  forkedFromStep: number | null;
  /** From an imported export: recorded elsewhere, then imported here. */
  imported: boolean;
  /** Imported from another agent's files: which, and what its format could not hold. */
  origin: SessionOrigin | null;
  index: StepIndex;
  totals: RunningTotals;
  choices: ReturnType<typeof filterChoices>;
}

export type ReplayPanel = "stats" | "notes" | null;

export interface ModelViewState {
  seq: number;
  status: "loading" | "ready" | "error";
  view: ModelViewHead | null;
  error: string | null;
}

/**
 * Lines of the request body sent with "what the model saw" at open: a body up
 * to this long comes whole (and renders whole); a longer one is read by window
 * as it scrolls (model-view-lines.ts).
 */
export const MODEL_VIEW_HEAD_LINES = 1_500;

export interface FilesState {
  /** fileStateKey of the step the states belong to. */
  key: number;
  status: "loading" | "ready" | "error";
  states: FileStates | null;
  error: string | null;
}

export const SPEEDS: readonly number[] = [0.5, 1, 2, 4, 8];
/** Milliseconds per step at 1×. */
export const BASE_STEP_MS = 800;

interface ReplayState {
  sessionId: string | null;
  status: "idle" | "loading" | "ready" | "error";
  error: string | null;
  data: ReplayData | null;
  /** Absolute timeline index of the current step. */
  cursor: number;
  filter: ReplayFilter;
  /** Timeline indices passing the filter, ascending. */
  visible: number[];
  playing: boolean;
  speed: number;
  notes: ReviewNote[];
  notedSeqs: ReadonlySet<number>;
  panel: ReplayPanel;
  modelView: ModelViewState | null;
  forkOpen: boolean;
  files: FilesState | null;

  /** Opens a session at a timeline index, or at the last step at or before an entry seq. */
  open(sessionId: string, at?: { step?: number | null; seq?: number | null }): void;
  /**
   * Leaves replay for the live view of the session the reviewer came from: the
   * one open when replay opened, else the one open now, else the replayed one
   * (never an empty view). `keepSession`: leave the live selection alone (the
   * user just picked a session, or a fork is about to be shown).
   */
  close(opts?: { keepSession?: boolean }): void;
  reload(): Promise<void>;
  jump(index: number): void;
  /** Moves by `delta` visible items; false at either end. */
  step(delta: number): boolean;
  first(): void;
  last(): void;
  setFilter(patch: Partial<ReplayFilter>): void;
  setPlaying(playing: boolean): void;
  setSpeed(speed: number): void;
  setPanel(panel: ReplayPanel): void;
  addNote(note: { author: string; verdict: NoteVerdict | null; text: string }): Promise<boolean>;
  deleteNote(noteId: number): Promise<void>;
  showModelView(seq: number): Promise<void>;
  closeModelView(): void;
  setForkOpen(open: boolean): void;
  fork(model: ModelRef): Promise<SessionSummary | null>;
  loadFiles(key: number): Promise<void>;
}

let loadToken = 0;
/** An entry seq to land on once the timeline is loaded (a fork's source point). */
let pendingSeq: number | null = null;
let routeTimer: ReturnType<typeof setTimeout> | null = null;

/** The step in the address, written once stepping pauses (one history write, not one per key press). */
function scheduleRoute(sessionId: string | null, step: number | null): void {
  if (routeTimer) clearTimeout(routeTimer);
  routeTimer = setTimeout(() => {
    routeTimer = null;
    writeReplayRoute(sessionId ? { sessionId, step } : null);
  }, 250);
}

function notedSeqsOf(notes: readonly ReviewNote[]): Set<number> {
  return new Set(notes.map((n) => n.seq));
}

const initialRoute = readReplayRoute();
/** The live session open when replay was opened (null: none, or replay came from the address). */
let returnTo: string | null = null;

export const useReplayStore = create<ReplayState>((set, get) => {
  const move = (index: number | null): boolean => {
    const data = get().data;
    if (index === null || !data || index < 0 || index >= data.items.length) return false;
    if (index !== get().cursor) {
      set({ cursor: index });
      scheduleRoute(get().sessionId, index);
    }
    return true;
  };

  return {
    sessionId: initialRoute?.sessionId ?? null,
    status: "idle",
    error: null,
    data: null,
    cursor: initialRoute?.step ?? 0,
    filter: NO_FILTER,
    visible: [],
    playing: false,
    speed: 1,
    notes: [],
    notedSeqs: new Set(),
    panel: null,
    modelView: null,
    forkOpen: false,
    files: null,

    open(sessionId, at = {}) {
      loadToken++;
      // Going from one replay to another (a fork's parent link) keeps where the reviewer first came from.
      if (get().sessionId === null) returnTo = useWorkspaceStore.getState().activeSessionId;
      const step = at.step ?? null;
      pendingSeq = at.seq ?? null;
      set({
        sessionId,
        status: "idle",
        error: null,
        data: null,
        cursor: step ?? 0,
        filter: NO_FILTER,
        visible: [],
        playing: false,
        notes: [],
        notedSeqs: new Set(),
        panel: null,
        modelView: null,
        forkOpen: false,
        files: null,
      });
      writeReplayRoute({ sessionId, step });
    },

    close(opts = {}) {
      loadToken++;
      if (routeTimer) clearTimeout(routeTimer);
      routeTimer = null;
      const replayed = get().sessionId;
      const back = returnTo;
      returnTo = null;
      set({ sessionId: null, status: "idle", data: null, playing: false, modelView: null, forkOpen: false, panel: null, files: null });
      writeReplayRoute(null);
      // The diff panel showed replay files; the live view starts without a selection.
      useUiStore.setState({ diff: null, diffOpen: false });
      if (opts.keepSession) return;
      const ws = useWorkspaceStore.getState();
      const target = back ?? ws.activeSessionId ?? replayed;
      if (ws.workspace && target && target !== ws.activeSessionId) ws.selectSession(target);
    },

    async reload() {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      const token = ++loadToken;
      set({ status: "loading", error: null });
      try {
        performance.mark("wb:replay-load:start");
        const [loaded, timeline, notes] = await Promise.all([
          client().call("session.load", { sessionId }),
          client().call("review.timeline", { sessionId }),
          client().call("review.notes.list", { sessionId }),
        ]);
        if (token !== loadToken) return;
        const index = buildStepIndex(loaded.entries);
        const data: ReplayData = {
          session: loaded.session,
          items: timeline.items,
          stats: timeline.stats,
          problems: timeline.problems,
          forkedFromStep: timeline.forkedFromStep ?? null,
          imported: timeline.imported ?? false,
          origin: timeline.origin ?? null,
          index,
          totals: runningTotals(timeline.items),
          choices: filterChoices(timeline.items),
        };
        const notedSeqs = notedSeqsOf(notes);
        let cursor = Math.min(Math.max(0, get().cursor), Math.max(0, data.items.length - 1));
        if (pendingSeq !== null) {
          cursor = Math.max(0, lastItemAtOrBefore(data.items, pendingSeq));
          pendingSeq = null;
        }
        set({
          status: "ready",
          data,
          notes,
          notedSeqs,
          cursor,
          visible: filterItems(data.items, get().filter, notedSeqs),
        });
        performance.mark("wb:replay-load:ready");
      } catch (err) {
        if (token !== loadToken) return;
        set({ status: "error", error: errorText(err) });
      }
    },

    jump(index) {
      move(index);
    },

    step(delta) {
      return move(stepFrom(get().visible, get().cursor, delta));
    },

    first() {
      const v = get().visible;
      if (v.length > 0) move(v[0]);
    },

    last() {
      const v = get().visible;
      if (v.length > 0) move(v[v.length - 1]);
    },

    setFilter(patch) {
      const data = get().data;
      const filter = { ...get().filter, ...patch };
      const visible = data ? filterItems(data.items, filter, get().notedSeqs) : [];
      set({ filter, visible });
      // Land on a matching step, so "errors only" shows an error at once.
      move(nearestVisible(visible, get().cursor));
    },

    setPlaying(playing) {
      set({ playing });
    },

    setSpeed(speed) {
      set({ speed });
    },

    setPanel(panel) {
      set({ panel });
    },

    async addNote(note) {
      const { sessionId, data, cursor } = get();
      const item = data?.items[cursor];
      if (!sessionId || !item) return false;
      try {
        const added = await client().call("review.notes.add", { sessionId, seq: item.seq, ...note });
        if (get().sessionId !== sessionId) return true;
        const notes = [...get().notes, added];
        const notedSeqs = notedSeqsOf(notes);
        set({ notes, notedSeqs, visible: data ? filterItems(data.items, get().filter, notedSeqs) : [] });
        return true;
      } catch (err) {
        useAppStore.getState().reportError("Could not save the note", err);
        return false;
      }
    },

    async deleteNote(noteId) {
      const { sessionId, data } = get();
      if (!sessionId) return;
      try {
        await client().call("review.notes.delete", { sessionId, noteId });
        const notes = get().notes.filter((n) => n.id !== noteId);
        const notedSeqs = notedSeqsOf(notes);
        set({ notes, notedSeqs, visible: data ? filterItems(data.items, get().filter, notedSeqs) : [] });
      } catch (err) {
        useAppStore.getState().reportError("Could not delete the note", err);
      }
    },

    async showModelView(seq) {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      set({ modelView: { seq, status: "loading", view: null, error: null } });
      try {
        const view = await client().call("review.modelViewHead", { sessionId, seq, lines: MODEL_VIEW_HEAD_LINES });
        if (get().modelView?.seq === seq) set({ modelView: { seq, status: "ready", view, error: null } });
      } catch (err) {
        if (get().modelView?.seq === seq) set({ modelView: { seq, status: "error", view: null, error: errorText(err) } });
      }
    },

    closeModelView() {
      set({ modelView: null });
    },

    setForkOpen(forkOpen) {
      set({ forkOpen, playing: false });
    },

    async fork(model) {
      const { sessionId, data, cursor } = get();
      const item = data?.items[cursor];
      if (!sessionId || !item) return null;
      try {
        const summary = await client().call("review.fork", { sessionId, atSeq: item.seq, model });
        get().close({ keepSession: true });
        const ws = useWorkspaceStore.getState();
        ws.upsertSession(summary);
        ws.selectSession(summary.id);
        useAppStore.getState().notify("info", `Forked at step ${cursor + 1} into “${summary.title}”`);
        return summary;
      } catch (err) {
        useAppStore.getState().reportError("Could not fork the session", err);
        return null;
      }
    },

    async loadFiles(key) {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      const current = get().files;
      if (current && current.key === key && current.status !== "error") return;
      set({ files: { key, status: "loading", states: current?.states ?? null, error: null } });
      try {
        const states = await client().call("review.fileStates", { sessionId, seq: key });
        if (get().sessionId === sessionId && get().files?.key === key) set({ files: { key, status: "ready", states, error: null } });
      } catch (err) {
        if (get().sessionId === sessionId && get().files?.key === key)
          set({ files: { key, status: "error", states: null, error: errorText(err) } });
      }
    },
  };
});

/** Opens a session in replay mode (from the session list, a fork link or an import). */
export function openReplay(sessionId: string, at: { step?: number | null; seq?: number | null } = {}): void {
  useReplayStore.getState().open(sessionId, at);
}

/** Index of the last item whose seq is <= seq (items are in seq order), or -1. */
export function lastItemAtOrBefore(items: readonly TimelineItem[], seq: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid].seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Index of the first item of an entry (an assistant message before its tool calls), or -1. */
export function firstItemOf(items: readonly TimelineItem[], seq: number): number {
  const last = lastItemAtOrBefore(items, seq);
  if (last < 0 || items[last].seq !== seq) return -1;
  let i = last;
  while (i > 0 && items[i - 1].seq === seq) i--;
  return i;
}

/** True while replay mode is on: the app shows <ReplayView/> instead of the live session. */
export function useReplayActive(): boolean {
  return useReplayStore((s) => s.sessionId !== null);
}

// Picking a session in the sidebar leaves replay (opening a workspace does not:
// that also restores the last session, and the address may ask for a replay).
useWorkspaceStore.subscribe((next, prev) => {
  if (next.activeSessionId === prev.activeSessionId || next.workspace !== prev.workspace) return;
  if (next.activeSessionId !== null && useReplayStore.getState().sessionId !== null) useReplayStore.getState().close({ keepSession: true });
});

// Back/forward or an edited address that changes the replay parameters.
if (typeof window !== "undefined") {
  window.addEventListener("hashchange", () => {
    const route = readReplayRoute();
    const s = useReplayStore.getState();
    if (!route) {
      if (s.sessionId !== null) s.close();
    } else if (route.sessionId !== s.sessionId) {
      s.open(route.sessionId, { step: route.step });
    } else if (route.step !== null && route.step !== s.cursor) {
      s.jump(route.step);
    }
  });
}
