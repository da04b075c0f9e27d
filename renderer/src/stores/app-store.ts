/** App-wide state: what the host says about itself, the connection, and notices. */
import { create } from "zustand";
import type { RequestResult } from "../../../shared/api";
import type { ConnectionInfo } from "../api/connection";
import { client, errorText } from "../api/current";

export type AppInfo = RequestResult<"app.info">;

export interface Toast {
  id: number;
  kind: "error" | "info";
  text: string;
}

interface AppState {
  info: AppInfo | null;
  connection: ConnectionInfo;
  toasts: Toast[];
  loadInfo(): Promise<AppInfo | null>;
  setConnection(info: ConnectionInfo): void;
  notify(kind: Toast["kind"], text: string): void;
  /** A notice from the host, shown once per browser rather than on every page load. */
  notifyOnce(text: string): void;
  reportError(context: string, err: unknown): void;
  dismiss(id: number): void;
}

let nextToast = 1;

const SEEN_NOTICES_KEY = "workbench.seenNotices";
function seenNotices(): string[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(SEEN_NOTICES_KEY) ?? "[]");
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export const useAppStore = create<AppState>((set, get) => ({
  info: null,
  connection: { status: "connecting", generation: 0 },
  toasts: [],
  async loadInfo() {
    try {
      const info = await client().call("app.info", {});
      performance.mark("wb:app-info:received");
      set({ info });
      return info;
    } catch (err) {
      get().reportError("Could not reach the workbench", err);
      return null;
    }
  },
  setConnection(connection) {
    set({ connection });
  },
  notify(kind, text) {
    const toast = { id: nextToast++, kind, text };
    set((s) => ({ toasts: [...s.toasts.slice(-4), toast] }));
    if (kind === "info") setTimeout(() => get().dismiss(toast.id), 4000);
  },
  notifyOnce(text) {
    if (seenNotices().includes(text)) return;
    get().notify("info", text);
    try {
      localStorage.setItem(SEEN_NOTICES_KEY, JSON.stringify([...seenNotices(), text].slice(-20)));
    } catch {
      // Storage may be unavailable (private mode): the notice just shows again next time.
    }
  },
  reportError(context, err) {
    get().notify("error", `${context}: ${errorText(err)}`);
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));
