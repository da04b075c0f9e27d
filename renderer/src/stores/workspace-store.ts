/** The open workspace, recent workspaces, its sessions (newest first) and cross-session search. */
import { create } from "zustand";
import type { SearchHit, SessionSummary, Workspace } from "../../../shared/api";
import type { ModelRef } from "../../../shared/protocol";
import { client } from "../api/current";
import { readReplayRoute } from "../replay/replay-route";
import { useAppStore } from "./app-store";
import { lastOpen, rememberedSession, rememberSession } from "../lib/last-open";

export { lastOpen };

interface WorkspaceState {
  workspace: Workspace | null;
  recent: Workspace[];
  sessions: SessionSummary[];
  hasMore: boolean;
  activeSessionId: string | null;
  /** A seq to scroll to once the active session is shown (from a search hit). */
  focusSeq: number | null;
  search: { query: string; hits: SearchHit[]; loading: boolean; error: string | null };

  loadRecent(): Promise<void>;
  openWorkspace(path: string): Promise<boolean>;
  pickWorkspace(): Promise<void>;
  setWorkspace(workspace: Workspace): Promise<void>;
  refreshSessions(): Promise<void>;
  loadMoreSessions(): Promise<void>;
  selectSession(id: string | null, focusSeq?: number | null): void;
  clearFocusSeq(): void;
  createSession(model?: ModelRef): Promise<SessionSummary | null>;
  /** Switches a session's model; later new sessions default to it (the core remembers the choice). */
  switchModel(sessionId: string, model: ModelRef): Promise<void>;
  renameSession(id: string, title: string): Promise<void>;
  deleteSession(id: string): Promise<void>;
  forkSession(id: string, atSeq: number, model?: ModelRef): Promise<void>;
  upsertSession(summary: SessionSummary): void;
  runSearch(query: string): Promise<void>;
}

const PAGE = 100;

function newestFirst(list: SessionSummary[]): SessionSummary[] {
  return list.slice().sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);
}

let searchToken = 0;

export const useWorkspaceStore = create<WorkspaceState>((set, get) => ({
  workspace: null,
  recent: [],
  sessions: [],
  hasMore: false,
  activeSessionId: null,
  focusSeq: null,
  search: { query: "", hits: [], loading: false, error: null },

  async loadRecent() {
    try {
      set({ recent: await client().call("workspace.recent", {}) });
    } catch (err) {
      useAppStore.getState().reportError("Could not list recent workspaces", err);
    }
  },

  async openWorkspace(path) {
    try {
      const ws = await client().call("workspace.open", { path });
      await get().setWorkspace(ws);
      return true;
    } catch (err) {
      useAppStore.getState().reportError("Could not open the workspace", err);
      return false;
    }
  },

  async pickWorkspace() {
    try {
      const ws = await client().call("workspace.pick", {});
      if (ws) await get().setWorkspace(ws);
    } catch (err) {
      useAppStore.getState().reportError("Could not open the workspace", err);
    }
  },

  async setWorkspace(workspace) {
    // Reopen the last session at once: its load runs alongside the session list.
    set({
      workspace,
      sessions: [],
      activeSessionId: rememberedSession(workspace.id),
      focusSeq: null,
      hasMore: false,
      search: { query: "", hits: [], loading: false, error: null },
    });
    await get().refreshSessions();
    // Nothing remembered in this browser (a fresh tab of a new launch): reopen the workspace's latest session,
    // unless the address opens a replay (picking a session would leave it; exiting it shows the replayed one).
    const s = get();
    if (s.workspace?.id === workspace.id && s.activeSessionId === null && s.sessions.length > 0 && readReplayRoute() === null)
      s.selectSession(s.sessions[0].id);
    void get().loadRecent();
  },

  async refreshSessions() {
    const ws = get().workspace;
    if (!ws) return;
    try {
      const page = await client().call("session.list", { workspaceId: ws.id, limit: PAGE });
      if (get().workspace?.id !== ws.id) return;
      set({ sessions: newestFirst(page.sessions), hasMore: page.hasMore });
    } catch (err) {
      useAppStore.getState().reportError("Could not list sessions", err);
    }
  },

  async loadMoreSessions() {
    const { workspace: ws, sessions } = get();
    if (!ws || sessions.length === 0) return;
    const oldest = sessions[sessions.length - 1];
    try {
      const page = await client().call("session.list", { workspaceId: ws.id, limit: PAGE, before: oldest.updatedAt });
      const known = new Set(sessions.map((s) => s.id));
      set({ sessions: newestFirst([...sessions, ...page.sessions.filter((s) => !known.has(s.id))]), hasMore: page.hasMore });
    } catch (err) {
      useAppStore.getState().reportError("Could not list sessions", err);
    }
  },

  selectSession(id, focusSeq = null) {
    set({ activeSessionId: id, focusSeq });
    const ws = get().workspace;
    if (ws) rememberSession(ws.id, id);
  },

  clearFocusSeq() {
    set({ focusSeq: null });
  },

  async switchModel(sessionId, model) {
    try {
      const summary = await client().call("chat.switchModel", { sessionId, model });
      get().upsertSession(summary);
      modelChosen(model);
    } catch (err) {
      useAppStore.getState().reportError("Could not switch the model", err);
    }
  },

  async createSession(model) {
    const ws = get().workspace;
    if (!ws) return null;
    try {
      const summary = await client().call("session.create", model ? { workspaceId: ws.id, model } : { workspaceId: ws.id });
      get().upsertSession(summary);
      get().selectSession(summary.id);
      if (model) modelChosen(model);
      return summary;
    } catch (err) {
      useAppStore.getState().reportError("Could not create a session", err);
      return null;
    }
  },

  async renameSession(id, title) {
    try {
      get().upsertSession(await client().call("session.rename", { sessionId: id, title }));
    } catch (err) {
      useAppStore.getState().reportError("Could not rename the session", err);
    }
  },

  async deleteSession(id) {
    try {
      await client().call("session.delete", { sessionId: id });
      set((s) => ({
        sessions: s.sessions.filter((x) => x.id !== id),
        activeSessionId: s.activeSessionId === id ? null : s.activeSessionId,
        search: { ...s.search, hits: s.search.hits.filter((h) => h.sessionId !== id) },
      }));
    } catch (err) {
      useAppStore.getState().reportError("Could not delete the session", err);
    }
  },

  async forkSession(id, atSeq, model) {
    try {
      const summary = await client().call("session.fork", model ? { sessionId: id, atSeq, model } : { sessionId: id, atSeq });
      get().upsertSession(summary);
      get().selectSession(summary.id);
      useAppStore.getState().notify("info", `Forked into “${summary.title}”`);
    } catch (err) {
      useAppStore.getState().reportError("Could not fork the session", err);
    }
  },

  upsertSession(summary) {
    const ws = get().workspace;
    if (ws && summary.workspaceId !== ws.id) return;
    set((s) => {
      const rest = s.sessions.filter((x) => x.id !== summary.id);
      return { sessions: newestFirst([summary, ...rest]) };
    });
  },

  async runSearch(query) {
    const q = query.trim();
    const token = ++searchToken;
    if (!q) {
      set({ search: { query, hits: [], loading: false, error: null } });
      return;
    }
    set((s) => ({ search: { ...s.search, query, loading: true, error: null } }));
    try {
      const ws = get().workspace;
      const hits = await client().call("session.search", ws ? { query: q, workspaceId: ws.id, limit: 50 } : { query: q, limit: 50 });
      if (token !== searchToken) return;
      set({ search: { query, hits, loading: false, error: null } });
    } catch (err) {
      if (token !== searchToken) return;
      set({ search: { query, hits: [], loading: false, error: err instanceof Error ? err.message : String(err) } });
    }
  },
}));

/** The summary of the active session, if it is in the list. */
export function useActiveSession(): SessionSummary | null {
  return useWorkspaceStore((s) => s.sessions.find((x) => x.id === s.activeSessionId) ?? null);
}

/** The core now defaults new sessions to `model`: the draft of the next one shows it without reloading app.info. */
function modelChosen(model: ModelRef): void {
  const { info } = useAppStore.getState();
  if (info) useAppStore.setState({ info: { ...info, defaultModel: model } });
}
