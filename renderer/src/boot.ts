/** The app's first requests, sent from main.tsx before the first render. */
import { useAppStore, type AppInfo } from "./stores/app-store";
import { prefetchSession } from "./stores/transcript-store";
import { lastOpen } from "./stores/workspace-store";

let boot: Promise<AppInfo | null> | null = null;

/**
 * app.info, and the session open last time (the likely one to show) alongside
 * it — session.load sends only its last entries first, so it is small. If
 * app.info names another workspace, that prefetch goes unused. Once per page.
 */
export function startBoot(): Promise<AppInfo | null> {
  if (!boot) {
    const last = lastOpen();
    if (last?.sessionId) prefetchSession(last.sessionId);
    boot = useAppStore.getState().loadInfo();
  }
  return boot;
}
