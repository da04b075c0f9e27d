/**
 * The app's start: app.info, the session open last time (the likely one to
 * show; session.load sends only its last entries first, so it is small), then
 * the workspace, models, settings and running turns. Started from main.tsx
 * as the shell first renders; the stores fill the shell in as the answers
 * arrive. Once per page.
 */
import { useAppStore, type AppInfo } from "./stores/app-store";
import { useModelsStore } from "./stores/models-store";
import { useSettingsStore } from "./stores/settings-store";
import type { Workspace } from "../../shared/api";
import { prefetchSession, primeSession } from "./stores/transcript-store";
import { useTurnStore } from "./stores/turn-store";
import { lastOpen, useWorkspaceStore } from "./stores/workspace-store";

let boot: Promise<AppInfo | null> | null = null;

async function run(): Promise<AppInfo | null> {
  const last = lastOpen();
  // If app.info names another workspace, this prefetch goes unused.
  if (last?.sessionId) prefetchSession(last.sessionId);
  const appInfo = await useAppStore.getState().loadInfo();
  void useModelsStore.getState().load();
  void useTurnStore.getState().loadActive();
  void useSettingsStore.getState().load();
  const ws = useWorkspaceStore.getState();
  const open = async (workspace: Workspace) => {
    const opening = ws.setWorkspace(workspace);
    // setWorkspace has picked the session to reopen: load it now rather than when its pane first mounts.
    const active = useWorkspaceStore.getState().activeSessionId;
    if (active) primeSession(active);
    await opening;
  };
  if (appInfo?.initialWorkspace) await open(appInfo.initialWorkspace);
  else {
    // No workspace on the command line: reopen the one used last (in this browser, else the most recent one).
    await ws.loadRecent();
    const recent = useWorkspaceStore.getState().recent;
    const previous = recent.find((w) => w.id === last?.workspaceId) ?? recent[0];
    if (previous) await open(previous);
  }
  for (const notice of appInfo?.notices ?? []) useAppStore.getState().notifyOnce(notice);
  return appInfo;
}

export function startBoot(): Promise<AppInfo | null> {
  boot ??= run();
  return boot;
}
