/** The workbench layout: sidebar, header, transcript (or start screen), diff panel, dialogs. */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import type { ModelRef } from "../../shared/protocol";
import { Composer, COMPOSER_ID } from "./components/composer";
import { DiffPanel } from "./components/diff/diff-panel";
import { PanelBoundary } from "./components/error-boundary";
import { CommandPalette } from "./components/dialogs/command-palette";
import { SearchEverything } from "./components/search/search-everything";
import { useRewindStore } from "./components/rewind/rewind-store";
import { preloadLazyParts, RewindDialog, SettingsDialog } from "./lazy-parts";
import { useUiStore } from "./stores/ui-store";
import { Header } from "./components/header";
import { SessionPane } from "./components/session-pane";
import { SessionsSection } from "./components/sidebar/sessions-section";
import { TeamLibrarySection } from "./components/team/team-library-section";
import { WorkspaceSection } from "./components/sidebar/workspace-section";
import { Toasts } from "./components/toasts";
import { useApplyTheme } from "./components/use-theme";
import { useAppStore } from "./stores/app-store";
import { composerModel, useModelsStore } from "./stores/models-store";
import { useDefaultModel } from "./stores/settings-store";
import { useTranscriptStore } from "./stores/transcript-store";
import { startBoot } from "./boot";
import { useTurnStore } from "./stores/turn-store";
import { useWorkspaceStore } from "./stores/workspace-store";
import { useReplayActive } from "./replay";

// Replay is its own chunk: a session's first paint does not wait for its code.
const ReplayView = lazy(() => import("./replay/replay-view").then((m) => ({ default: m.ReplayView })));

export function App() {
  useApplyTheme();
  const info = useAppStore((s) => s.info);
  const workspace = useWorkspaceStore((s) => s.workspace);
  const activeSessionId = useWorkspaceStore((s) => s.activeSessionId);
  const createSession = useWorkspaceStore((s) => s.createSession);
  const [draftModel, setDraftModel] = useState<ModelRef | null>(null);
  const replaying = useReplayActive();
  const settingsOpen = useUiStore((s) => s.settingsOpen);
  const rewindOpen = useRewindStore((s) => s.request !== null);

  // Started in main.tsx as the shell first renders (the same call, once per page).
  useEffect(() => {
    void startBoot();
    preloadLazyParts();
  }, []);

  // Leaving a session drops its transcript; it is reloaded from the store when reopened.
  // Not before the first session opens: the session loading at start (boot.ts) may not be active yet.
  const hadSession = useRef(false);
  useEffect(() => {
    if (activeSessionId) hadSession.current = true;
    else if (hadSession.current) useTranscriptStore.getState().close();
  }, [activeSessionId]);

  const newSession = useCallback(() => {
    // The open session is still empty, so it already is a new one: no second empty session in the list.
    const { sessions, activeSessionId: active } = useWorkspaceStore.getState();
    if (sessions.some((x) => x.id === active && x.entryCount === 0)) {
      document.getElementById(COMPOSER_ID)?.focus();
      return;
    }
    void createSession(draftModel ?? undefined);
  }, [createSession, draftModel]);

  const switchModel = useWorkspaceStore((s) => s.switchModel);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
        document.getElementById("session-search")?.focus();
      } else if (e.altKey && e.key.toLowerCase() === "n" && useWorkspaceStore.getState().workspace) {
        e.preventDefault();
        newSession();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [newSession]);

  return (
    <div className="app">
      {/* Each panel renders on its own: one that throws says so, and the rest of the app keeps working. */}
      <nav className="sidebar" aria-label="Workspace and sessions">
        <div className="brand">Agent Workbench{info?.demo ? <span className="badge">demo</span> : null}</div>
        <PanelBoundary name="the workspace">
          <WorkspaceSection />
        </PanelBoundary>
        <PanelBoundary name="the session list">
          <SessionsSection onNewSession={newSession} />
        </PanelBoundary>
        <PanelBoundary name="the team library">
          <TeamLibrarySection />
        </PanelBoundary>
        {/* In the sidebar's flow, under the list: a notice never covers a control, and a dialog covers it. */}
        <PanelBoundary name="the notices">
          <Toasts />
        </PanelBoundary>
      </nav>
      {replaying ? (
        <PanelBoundary name="replay" className="main">
          <Suspense fallback={<main className="main replay" aria-busy="true" />}>
            <ReplayView />
          </Suspense>
        </PanelBoundary>
      ) : (
        <main className="main">
          <PanelBoundary name="the header">
            <Header draftModel={draftModel} onDraftModel={setDraftModel} onSwitchModel={(id, m) => void switchModel(id, m)} />
          </PanelBoundary>
          <div className="workarea">
            <div className="center">
              <PanelBoundary name="the session" resetKey={activeSessionId}>
                {activeSessionId ? (
                  <SessionPane key={activeSessionId} sessionId={activeSessionId} />
                ) : (
                  <StartPane hasWorkspace={workspace !== null} draftModel={draftModel} />
                )}
              </PanelBoundary>
            </div>
            <PanelBoundary name="the diff view">
              <DiffPanel />
            </PanelBoundary>
          </div>
        </main>
      )}
      {settingsOpen && (
        <PanelBoundary name="Settings">
          <Suspense fallback={null}>
            <SettingsDialog />
          </Suspense>
        </PanelBoundary>
      )}
      {rewindOpen && (
        <PanelBoundary name="the rewind dialog">
          <Suspense fallback={null}>
            <RewindDialog />
          </Suspense>
        </PanelBoundary>
      )}
      <PanelBoundary name="the command palette">
        <CommandPalette newSession={newSession} />
      </PanelBoundary>
      <PanelBoundary name="search everything">
        <SearchEverything />
      </PanelBoundary>
    </div>
  );
}

/** No session open: a composer that starts one. */
function StartPane({ hasWorkspace, draftModel }: { hasWorkspace: boolean; draftModel: ModelRef | null }) {
  const createSession = useWorkspaceStore((s) => s.createSession);
  const send = useTurnStore((s) => s.send);
  const models = useModelsStore((s) => s.models);
  const defaultModel = useDefaultModel();
  return (
    <div className="start-pane">
      <div className="start-text">
        {hasWorkspace ? (
          <>
            <h2>Start a session</h2>
            <p className="muted">
              Ask the agent to read, explain or change files in this workspace. Side-effect tools ask for your approval first.
            </p>
          </>
        ) : (
          <>
            <h2>Open a workspace</h2>
            <p className="muted">Choose the folder the agent may read and change.</p>
            <OpenFolderButton />
          </>
        )}
      </div>
      <Composer
        turn={null}
        disabled={!hasWorkspace}
        disabledReason="Open a workspace first"
        model={composerModel(models, draftModel ?? defaultModel)}
        onSend={async (text, images) => {
          const summary = await createSession(draftModel ?? undefined);
          return summary ? send(summary.id, text, images) : false;
        }}
        onStop={() => undefined}
      />
    </div>
  );
}

/** The empty first screen's primary action: the native picker in Electron, the folder browser in web mode. */
function OpenFolderButton() {
  const mode = useAppStore((s) => s.info?.mode ?? "web");
  const pickWorkspace = useWorkspaceStore((s) => s.pickWorkspace);
  return (
    <button
      type="button"
      className="primary"
      onClick={() => (mode === "electron" ? void pickWorkspace() : useUiStore.getState().setBrowsingFolder(true))}
    >
      Open folder…
    </button>
  );
}
