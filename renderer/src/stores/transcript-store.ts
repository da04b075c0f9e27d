/**
 * The transcript of the open session: built from `session.load`, extended by
 * `session.entry` events, with the streaming message from `stream.partial` and
 * live tool statuses from `tool.status`. Event bursts are applied once per
 * animation frame (see wire-events.ts).
 */
import { create } from "zustand";
import { WorkbenchApiError, type EventPayload, type ModeChange, type SessionMode, type ToolStatus } from "../../../shared/api";
import type { AssistantMessage } from "../../../shared/protocol";
import { client, errorText } from "../api/current";
import { nextPaint } from "../lib/after-paint";
import { damagedOf, parseEnvelope, TAIL_ENTRIES, validateInChunks, validateRange } from "../lib/session-load";
import { appendEntries, buildTranscript, EMPTY_TRANSCRIPT, type TranscriptModel } from "../lib/transcript-model";
import { useAppStore } from "./app-store";
import { useTurnStore } from "./turn-store";
import { useWorkspaceStore } from "./workspace-store";

export interface LiveToolStatus {
  status: ToolStatus;
  durationMs?: number;
  /** When the status was seen (for a live elapsed time). */
  since: number;
}

export interface SessionView {
  sessionId: string;
  status: "loading" | "ready" | "error";
  /** False while older entries are still being validated (the newest are shown already). */
  complete: boolean;
  error: string | null;
  model: TranscriptModel;
  partial: AssistantMessage | null;
  toolStatus: Readonly<Record<string, LiveToolStatus>>;
}

export type TranscriptOp =
  | { type: "entry"; payload: EventPayload<"session.entry"> }
  | { type: "partial"; payload: EventPayload<"stream.partial"> }
  | { type: "streamEnd"; payload: EventPayload<"stream.end"> }
  | { type: "toolStatus"; payload: EventPayload<"tool.status">; at: number }
  | { type: "idle"; sessionId: string };

/** Ask mode switched on or off in the open session: markers after the entry that preceded each switch. */
export interface ModeMarkers {
  sessionId: string;
  current: SessionMode;
  changes: readonly ModeChange[];
}

interface TranscriptState {
  view: SessionView | null;
  modes: ModeMarkers | null;
  /** The open session's mode as a turn state reports it; a change adds a marker after the last entry. */
  noteMode(sessionId: string, mode: SessionMode): void;
  /** Ops that arrived while the session was loading; applied after the load (dedup by seq). */
  buffered: TranscriptOp[];
  load(sessionId: string): Promise<void>;
  close(): void;
  apply(ops: TranscriptOp[]): void;
}

function opSession(op: TranscriptOp): string {
  return op.type === "idle" ? op.sessionId : op.payload.sessionId;
}

/** Applies ops in order to a view. Pure: returns the same object when nothing changed. */
export function reduceView(view: SessionView, ops: readonly TranscriptOp[]): SessionView {
  let model = view.model;
  let partial = view.partial;
  let toolStatus = view.toolStatus;
  let pendingEntries: EventPayload<"session.entry">[] = [];
  const flushEntries = () => {
    if (pendingEntries.length === 0) return;
    model = appendEntries(model, pendingEntries);
    pendingEntries = [];
  };
  for (const op of ops) {
    if (opSession(op) !== view.sessionId) continue;
    switch (op.type) {
      case "entry": {
        pendingEntries.push(op.payload);
        const e = op.payload.entry;
        // The final message replaces the streaming one.
        if (e.type === "message" && e.message.role === "assistant") partial = null;
        break;
      }
      case "partial":
        partial = op.payload.message;
        break;
      case "streamEnd":
        break;
      case "idle":
        partial = null;
        break;
      case "toolStatus": {
        const p = op.payload;
        toolStatus = { ...toolStatus, [p.toolCallId]: { status: p.status, durationMs: p.durationMs, since: op.at } };
        break;
      }
    }
  }
  flushEntries();
  if (model === view.model && partial === view.partial && toolStatus === view.toolStatus) return view;
  return { ...view, model, partial, toolStatus };
}

let loadToken = 0;

/** At most this long between showing a session's newest entries and asking for the older ones (a hidden page paints no frames). */
const OLDER_ENTRIES_WAIT_MS = 500;

/** Seq of the first loaded entry (1 when the envelope holds the whole session or nothing). */
function firstSeqOf(entries: readonly unknown[]): number {
  const first = entries[0];
  if (typeof first === "object" && first !== null && "seq" in first && typeof first.seq === "number") return first.seq;
  return 1;
}

/** A session.load started before the pane asked for it (at boot, for the session reopened last). */
let prefetched: { sessionId: string; at: number; promise: Promise<unknown> } | null = null;
const PREFETCH_FRESH_MS = 10_000;

function fetchSession(sessionId: string): Promise<unknown> {
  const p = prefetched;
  prefetched = null;
  if (p && p.sessionId === sessionId && Date.now() - p.at < PREFETCH_FRESH_MS) return p.promise;
  return client().callUnvalidated("session.load", { sessionId, tail: TAIL_ENTRIES });
}

/** Starts loading a session early; `load` picks the result up. Failures surface there. */
export function prefetchSession(sessionId: string): void {
  const promise = client().callUnvalidated("session.load", { sessionId, tail: TAIL_ENTRIES });
  promise.catch(() => undefined);
  prefetched = { sessionId, at: Date.now(), promise };
}

/** A load started at start-up, before the session's pane mounted: the pane's own first load call takes it over. */
let primed: { sessionId: string; promise: Promise<void> } | null = null;

/** Starts loading the session the app opens with, so its first render can already show the transcript. */
export function primeSession(sessionId: string): void {
  primed = { sessionId, promise: useTranscriptStore.getState().load(sessionId) };
}

function reportUnreadable(count: number): void {
  if (count > 0)
    useAppStore
      .getState()
      .notify("error", `${count} stored entr${count === 1 ? "y" : "ies"} of this session could not be read and are not shown.`);
}

export const useTranscriptStore = create<TranscriptState>((set, get) => ({
  view: null,
  buffered: [],
  modes: null,

  noteMode(sessionId, mode) {
    const { modes, view } = get();
    if (!modes || modes.sessionId !== sessionId || modes.current === mode) return;
    const change: ModeChange = { mode, afterSeq: view?.sessionId === sessionId ? view.model.lastSeq : 0, timestamp: Date.now() };
    set({ modes: { sessionId, current: mode, changes: [...modes.changes, change] } });
  },

  async load(sessionId) {
    const p = primed;
    primed = null;
    if (p && p.sessionId === sessionId && get().view?.sessionId === sessionId) return p.promise;
    const token = ++loadToken;
    const prev = get().view;
    const same = prev?.sessionId === sessionId;
    set({
      view: {
        sessionId,
        status: "loading",
        complete: false,
        error: null,
        model: same ? prev.model : EMPTY_TRANSCRIPT,
        partial: null,
        toolStatus: same ? prev.toolStatus : {},
      },
      buffered: [],
    });
    try {
      // User Timing marks: visible in the browser's performance tools and read by bench:ui.
      performance.mark("wb:session-load:start");
      const envelope = parseEnvelope(await fetchSession(sessionId));
      performance.mark("wb:session-load:received");
      if (token !== loadToken) return;
      set({ modes: { sessionId, current: envelope.turn.mode, changes: envelope.modeChanges } });
      useTurnStore.getState().setTurn(envelope.turn);
      useWorkspaceStore.getState().upsertSession(envelope.session);
      // The core sends the last TAIL_ENTRIES entries first; older ones follow through session.entries.
      const tail = validateRange(envelope.entries, 0, envelope.entries.length);
      const firstSeq = firstSeqOf(envelope.entries);
      const base: SessionView = {
        sessionId,
        status: "ready",
        complete: firstSeq <= 1,
        error: null,
        model: buildTranscript(tail.entries, envelope.damaged),
        partial: null,
        toolStatus: get().view?.toolStatus ?? {},
      };
      performance.mark("wb:session-load:built");
      // Events that arrived meanwhile; entry events are kept until the older entries are in.
      const waiting = get().buffered;
      set({ view: reduceView(base, waiting), buffered: base.complete ? [] : waiting.filter((op) => op.type === "entry") });
      if (base.complete) {
        reportUnreadable(tail.invalid);
        return;
      }
      // Asked for once the newest entries are on screen: the core's answer is the whole rest of the
      // session, and producing it would otherwise compete with the first paint for the machine's CPU.
      await nextPaint(OLDER_ENTRIES_WAIT_MS);
      if (token !== loadToken) return;
      const older = (await client().callUnvalidated("session.entries", { sessionId, toSeq: firstSeq - 1 })) as { entries?: unknown };
      if (token !== loadToken) return;
      const raw = Array.isArray(older.entries) ? older.entries : [];
      const head = await validateInChunks(raw, 0, raw.length, () => token !== loadToken);
      if (!head || token !== loadToken) return;
      const current = get().view;
      if (!current || current.sessionId !== sessionId) return;
      const full = buildTranscript([...head.entries, ...tail.entries], [...damagedOf(older), ...envelope.damaged]);
      set({ view: reduceView({ ...current, model: full, complete: true }, get().buffered), buffered: [] });
      performance.mark("wb:session-load:complete");
      reportUnreadable(head.invalid + tail.invalid);
    } catch (err) {
      if (token !== loadToken) return;
      // A remembered session that no longer exists: back to the start screen.
      if (err instanceof WorkbenchApiError && err.error.code === "NOT_FOUND") {
        set({ view: null, buffered: [] });
        useWorkspaceStore.getState().selectSession(null);
        return;
      }
      set({
        view: { sessionId, status: "error", complete: true, error: errorText(err), model: EMPTY_TRANSCRIPT, partial: null, toolStatus: {} },
        buffered: [],
      });
    }
  },

  close() {
    loadToken++;
    set({ view: null, buffered: [] });
  },

  apply(ops) {
    const view = get().view;
    if (!view) return;
    const mine = ops.filter((op) => opSession(op) === view.sessionId);
    if (view.status === "loading") {
      if (mine.length > 0) set({ buffered: [...get().buffered, ...mine] });
      return;
    }
    // While older entries are validated, remember new entries to re-apply onto the full model.
    const entries = view.complete ? [] : mine.filter((op) => op.type === "entry");
    const next = reduceView(view, ops);
    if (next !== view || entries.length > 0)
      set({ view: next, buffered: entries.length > 0 ? [...get().buffered, ...entries] : get().buffered });
  },
}));
