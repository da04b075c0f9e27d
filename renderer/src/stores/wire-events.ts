/**
 * Routes the core's events into the stores. Transcript events are batched
 * per animation frame; turn and session events are cheap and applied at once.
 */
import type { AppClient } from "../api/client";
import { FrameBatcher } from "../lib/frame-batcher";
import { useAppStore } from "./app-store";
import { useContextStore } from "./context-store";
import { useTranscriptStore, type TranscriptOp } from "./transcript-store";
import { useUiStore } from "./ui-store";
import { wireTeamEvents } from "./team-store";
import { useTurnStore } from "./turn-store";
import { useWorkspaceStore } from "./workspace-store";

export function wireEvents(c: AppClient): () => void {
  const batcher = new FrameBatcher<TranscriptOp>((ops) => useTranscriptStore.getState().apply(ops));
  const offs = [
    c.on("session.entry", (payload) => {
      batcher.push({ type: "entry", payload });
      if (payload.entry.type === "rename") {
        const title = payload.entry.title;
        const ws = useWorkspaceStore.getState();
        const s = ws.sessions.find((x) => x.id === payload.sessionId);
        if (s) ws.upsertSession({ ...s, title });
      }
    }),
    c.on("stream.partial", (payload) => batcher.push({ type: "partial", payload })),
    c.on("stream.end", (payload) => batcher.push({ type: "streamEnd", payload })),
    c.on("tool.status", (payload) => {
      batcher.push({ type: "toolStatus", payload, at: Date.now() });
      useUiStore.getState().settleProposal(payload.toolCallId, payload.status);
    }),
    c.on("turn.state", (turn) => {
      // Keep transcript ops ahead of the turn change they caused.
      batcher.drain();
      useTurnStore.getState().setTurn(turn);
      useTranscriptStore.getState().noteMode(turn.sessionId, turn.mode);
      if (turn.status === "idle") batcher.push({ type: "idle", sessionId: turn.sessionId });
    }),
    c.on("turn.retry", (payload) => useTurnStore.getState().setRetry(payload)),
    c.on("turn.error", (payload) => useTurnStore.getState().setError(payload.sessionId, payload.message)),
    c.on("context.meter", (meter) => useContextStore.getState().set(meter)),
    c.on("session.updated", (summary) => useWorkspaceStore.getState().upsertSession(summary)),
    c.on("app.notice", (notice) => useAppStore.getState().notify(notice.level === "error" ? "error" : "info", notice.message)),
    wireTeamEvents(c),
    c.onConnection((info) => {
      const prev = useAppStore.getState().connection;
      useAppStore.getState().setConnection(info);
      // After a reconnection, events may have been missed: reload what is on screen.
      if (info.status === "open" && prev.generation > 0 && info.generation > prev.generation) {
        const view = useTranscriptStore.getState().view;
        if (view) void useTranscriptStore.getState().load(view.sessionId);
        void useWorkspaceStore.getState().refreshSessions();
      }
    }),
  ];
  useAppStore.getState().setConnection(c.connection());
  return () => offs.forEach((off) => off());
}
