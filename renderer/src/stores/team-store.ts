/**
 * The team library as the renderer sees it (docs/team.md): the connection's
 * status, the published sessions, and the team notes of the sessions opened
 * here as local copies. Notes and review changes arrive live as events.
 */
import { create } from "zustand";
import { z } from "zod";
import { WorkbenchApiError, type RequestResult } from "../../../shared/api";
import type { ReviewState, TeamNote, TeamSearchHit, TeamSession, TeamStatus } from "../../../shared/team";
import type { AppClient } from "../api/client";
import { client, errorText } from "../api/current";

type TeamSettings = RequestResult<"team.settings">;

/** What the status line says: from team.status events, and a refusal seen on the last call. */
export type TeamLinkState = "notConfigured" | "unknown" | "connected" | "unreachable" | "denied";

export interface OpenedCopy {
  teamId: string;
  revision: number;
}

interface TeamState {
  settings: TeamSettings | null;
  status: TeamStatus | null;
  /** The last TEAM_DENIED message (wrong password, no grant), cleared by a call that succeeds. */
  denied: string | null;
  sessions: TeamSession[];
  listError: string | null;
  /** Team notes per published session id, in creation order. */
  notes: Record<string, TeamNote[]>;
  /** Local read-only copies opened from the library: local session id → published id and revision. */
  opened: Record<string, OpenedCopy>;

  loadSettings(): Promise<void>;
  configure(params: Parameters<typeof configureParams>[0]): Promise<string | null>;
  refresh(): Promise<void>;
  /** Ranked full-text search over the library (PostgreSQL, through the server's access rules). */
  search(query: string): Promise<TeamSearchHit[]>;
  /** Publish every session of the workspace at the end of each turn (on) or not; resolves to an error text or null. */
  setAutoPublish(workspaceId: string, on: boolean): Promise<string | null>;
  publish(localSessionId: string): Promise<string>;
  /** Opens a published session as a local copy in the workspace; resolves to the local session id. */
  open(teamId: string, workspaceId: string): Promise<string>;
  loadNotes(teamId: string): Promise<void>;
  addNote(input: { sessionId: string; revision: number; seq: number; verdict: TeamNote["verdict"]; text: string }): Promise<string | null>;
  setReviewState(teamId: string, state: ReviewState): Promise<string | null>;
  applyNote(note: TeamNote): void;
  applySession(session: TeamSession): void;
  setStatus(status: TeamStatus): void;
}

const OPENED_KEY = "workbench.team.opened";
const OpenedSchema = z.record(z.string(), z.object({ teamId: z.string().uuid(), revision: z.number().int().positive() }));

/** The copies opened from the library, kept in this browser so a reload still reviews them with the team. */
function readOpened(): Record<string, OpenedCopy> {
  try {
    const parsed = OpenedSchema.safeParse(JSON.parse(localStorage.getItem(OPENED_KEY) ?? "{}"));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

function writeOpened(opened: Record<string, OpenedCopy>): void {
  try {
    localStorage.setItem(OPENED_KEY, JSON.stringify(opened));
  } catch {
    // Storage may be unavailable: the mapping then lasts until the page reloads.
  }
}

function configureParams(p: {
  url?: string;
  connection?: NonNullable<TeamSettings["connection"]> | null;
  password?: string | null;
  defaultProject?: string;
}) {
  return p;
}

function isDenied(err: unknown): boolean {
  return err instanceof WorkbenchApiError && err.error.code === "TEAM_DENIED";
}

export function linkState(s: Pick<TeamState, "settings" | "status" | "denied">): TeamLinkState {
  if (!s.settings?.connection) return "notConfigured";
  if (s.denied !== null) return "denied";
  const reachable = s.status?.reachable ?? null;
  return reachable === null ? "unknown" : reachable ? "connected" : "unreachable";
}

export const useTeamStore = create<TeamState>((set, get) => {
  /** Runs a team call, keeping `denied` in step with what the server said. */
  const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      const out = await run();
      if (get().denied !== null) set({ denied: null });
      return out;
    } catch (err) {
      if (isDenied(err)) set({ denied: errorText(err) });
      throw err;
    }
  };
  /** Bumped by every settings answer asked for: an older answer arriving late never overwrites a newer one. */
  let settingsAsked = 0;
  const askSettings = async (ask: () => Promise<TeamSettings>): Promise<void> => {
    const mine = ++settingsAsked;
    const settings = await ask();
    if (mine === settingsAsked) set({ settings, status: settings.status });
  };
  return {
    settings: null,
    status: null,
    denied: null,
    sessions: [],
    listError: null,
    notes: {},
    opened: readOpened(),

    async loadSettings() {
      await askSettings(() => client().call("team.settings", {}));
    },
    async configure(params) {
      try {
        await askSettings(() => client().call("team.configure", params));
        set({ denied: null });
        void get().refresh();
        return null;
      } catch (err) {
        return errorText(err);
      }
    },
    search(query) {
      return guarded(() => client().call("team.search", { query }));
    },
    async setAutoPublish(workspaceId, on) {
      try {
        await askSettings(() => client().call("team.autoPublish", { workspaceId, on }));
        return null;
      } catch (err) {
        return errorText(err);
      }
    },
    async refresh() {
      if (!get().settings?.connection) return;
      try {
        const sessions = await guarded(() => client().call("team.list", {}));
        set({ sessions, listError: null });
      } catch (err) {
        set({ listError: errorText(err) });
      }
    },
    async publish(localSessionId) {
      const out = await guarded(() => client().call("team.publish", { sessionId: localSessionId }));
      if (out.queued) return "Queued: the team library is unreachable, it will be published when it is back";
      void get().refresh();
      return `Published revision ${out.revision} (${out.entries} entries)`;
    },
    async open(teamId, workspaceId) {
      const out = await guarded(() => client().call("team.open", { id: teamId, workspaceId }));
      const opened = { ...get().opened, [out.localSessionId]: { teamId, revision: out.revision } };
      writeOpened(opened);
      set({ opened });
      void get().loadNotes(teamId);
      return out.localSessionId;
    },
    async loadNotes(teamId) {
      const list = await guarded(() => client().call("team.notes", { id: teamId }));
      // Notes that arrived live while the list loaded are kept (ids are the server's).
      const live = get().notes[teamId] ?? [];
      const byId = new Map([...list, ...live].map((n) => [n.id, n]));
      set({ notes: { ...get().notes, [teamId]: [...byId.values()].sort((a, b) => a.id - b.id) } });
    },
    async addNote(input) {
      try {
        const out = await guarded(() => client().call("team.notes.add", input));
        if (!out.queued) get().applyNote(out.note);
        return out.queued ? "Queued: the note will be sent when the team library is back" : null;
      } catch (err) {
        return errorText(err);
      }
    },
    async setReviewState(teamId, state) {
      try {
        const out = await guarded(() => client().call("team.review.state", { id: teamId, state }));
        if (!out.queued) {
          const s = get().sessions.find((x) => x.id === teamId);
          if (s) get().applySession({ ...s, reviewState: state });
        }
        return out.queued ? "Queued: the review state will be sent when the team library is back" : null;
      } catch (err) {
        return errorText(err);
      }
    },
    applyNote(note) {
      const list = get().notes[note.sessionId] ?? [];
      if (list.some((n) => n.id === note.id)) return;
      set({ notes: { ...get().notes, [note.sessionId]: [...list, note] } });
    },
    applySession(session) {
      const sessions = get().sessions;
      const at = sessions.findIndex((s) => s.id === session.id);
      set({ sessions: at < 0 ? [session, ...sessions] : sessions.map((s, i) => (i === at ? session : s)) });
    },
    setStatus(status) {
      set({ status, settings: get().settings ? { ...get().settings!, status } : null });
    },
  };
});

/** Routes team.* events into the store. */
export function wireTeamEvents(c: AppClient): () => void {
  const offs = [
    c.on("team.note", (note) => useTeamStore.getState().applyNote(note)),
    c.on("team.review", (session) => useTeamStore.getState().applySession(session)),
    c.on("team.status", (status) => {
      const before = useTeamStore.getState().status?.reachable;
      useTeamStore.getState().setStatus(status);
      if (status.reachable && before !== true) void useTeamStore.getState().refresh();
    }),
  ];
  return () => offs.forEach((off) => off());
}
