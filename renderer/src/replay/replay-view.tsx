/**
 * Replay mode: a past session opened read-only for review. Header (title,
 * fork link, statistics, notes, export/import, exit), transport and filters,
 * then the timeline, the transcript as of the step with the step's details
 * below it, and the shared diff panel showing the files as of the step.
 */
import { FOREIGN_AGENT_LABELS } from "../../../shared/foreign-agents";
import { useEffect } from "react";
import { DiffPanel } from "../components/diff/diff-panel";
import { PanelBoundary } from "../components/error-boundary";
import { useWorkspaceStore } from "../stores/workspace-store";
import { ExportButtons, ImportButton } from "./export-import";
import { ForkDialog } from "./fork-dialog";
import { ModelViewDialog } from "./model-view-dialog";
import { NotesPanel } from "./notes-panel";
import { ReplayControls, usePlayback } from "./replay-controls";
import { openReplay, useReplayStore } from "./replay-store";
import { ReplayPlan, ReplayTranscript } from "./replay-transcript";
import { StatsPanel } from "./stats-panel";
import { StepInspector } from "./step-inspector";
import { TimelineList } from "./timeline-list";
import { useReplayKeys } from "./use-replay-keys";

function ForkedFrom() {
  const session = useReplayStore((s) => s.data?.session ?? null);
  const step = useReplayStore((s) => s.data?.forkedFromStep ?? null);
  const parentTitle = useWorkspaceStore((s) => s.sessions.find((x) => x.id === session?.parentSessionId)?.title ?? null);
  if (!session?.parentSessionId) return null;
  const parentId = session.parentSessionId;
  const at = session.parentSeq;
  return (
    <span className="forked-from small">
      {/* A sub-agent's session hangs off the parent step that started it (docs/sub-agents.md#sub-agents). */}
      {session.parentToolCallId ? "sub-agent of" : "forked from"}{" "}
      <button type="button" className="link-button" onClick={() => openReplay(parentId, { seq: at })}>
        {parentTitle ? `“${parentTitle}”` : "another session"}
        {step !== null ? ` at step ${step}` : ""}
      </button>
    </span>
  );
}

function ReplayHeader() {
  const sessionId = useReplayStore((s) => s.sessionId);
  const title = useReplayStore((s) => s.data?.session.title ?? null);
  const ready = useReplayStore((s) => s.status === "ready");
  const noteCount = useReplayStore((s) => s.notes.length);
  const imported = useReplayStore((s) => s.data?.imported ?? false);
  const origin = useReplayStore((s) => s.data?.origin ?? null);
  const { setPanel, close } = useReplayStore.getState();
  return (
    <header className="app-header replay-header">
      <h1 className="session-title" title={title ?? undefined}>
        <span className="muted">Replay · </span>
        {title ?? "Loading…"}
      </h1>
      <span className="badge">read-only</span>
      {origin ? (
        <details className="origin-details">
          <summary className="badge" title={origin.path}>
            from {FOREIGN_AGENT_LABELS[origin.agent]}
          </summary>
          <div className="origin-notes" role="note" aria-label="What this import could not hold">
            <p className="small">
              Imported from <code>{origin.path}</code> ({FOREIGN_AGENT_LABELS[origin.agent]} session {origin.foreignId}).
            </p>
            <ul className="small">
              {origin.notHeld.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          </div>
        </details>
      ) : (
        imported && (
          <span className="badge" title="Recorded elsewhere and imported from a session export">
            imported
          </span>
        )
      )}
      <ForkedFrom />
      <div className="header-right">
        <button type="button" disabled={!ready} onClick={() => setPanel("stats")}>
          Statistics
        </button>
        <button type="button" disabled={!ready} onClick={() => setPanel("notes")}>
          Notes ({noteCount})
        </button>
        {sessionId && ready && <ExportButtons sessionId={sessionId} />}
        <ImportButton />
        <button type="button" onClick={() => close()} title="Back to the session you came from">
          Exit replay
        </button>
      </div>
    </header>
  );
}

export function ReplayView() {
  const sessionId = useReplayStore((s) => s.sessionId);
  const status = useReplayStore((s) => s.status);
  const error = useReplayStore((s) => s.error);
  const index = useReplayStore((s) => s.data?.index ?? null);
  const problems = useReplayStore((s) => s.data?.problems.length ?? 0);
  const panel = useReplayStore((s) => s.panel);
  const reload = useReplayStore((s) => s.reload);
  useReplayKeys();
  usePlayback();

  useEffect(() => {
    if (sessionId && status === "idle") void reload();
  }, [sessionId, status, reload]);

  return (
    <main className="main replay" aria-label="Replay">
      <PanelBoundary name="the replay header">
        <ReplayHeader />
      </PanelBoundary>
      {status === "error" && (
        <div className="pane-message" role="alert">
          Could not open the session for replay: {error}{" "}
          <button type="button" onClick={() => void reload()}>
            Try again
          </button>
        </div>
      )}
      {(status === "loading" || status === "idle") && <div className="pane-message">Loading the session for replay…</div>}
      {status === "ready" && index && (
        <>
          <ReplayControls />
          {problems > 0 && (
            <p className="replay-problems" role="status">
              {problems} stored row{problems === 1 ? "" : "s"} could not be read and {problems === 1 ? "is" : "are"} left out.
            </p>
          )}
          <div className="workarea">
            <aside className="replay-timeline" aria-label="Timeline panel">
              <PanelBoundary name="the timeline">
                <TimelineList />
              </PanelBoundary>
            </aside>
            <div className="center replay-center">
              <PanelBoundary name="the transcript at this step">
                <ReplayTranscript index={index} />
              </PanelBoundary>
              <PanelBoundary name="the plan at this step">
                <ReplayPlan index={index} />
              </PanelBoundary>
              <PanelBoundary name="the step's details">
                <StepInspector index={index} />
              </PanelBoundary>
            </div>
            <PanelBoundary name="the diff view">
              <DiffPanel />
            </PanelBoundary>
          </div>
        </>
      )}
      <PanelBoundary name="what the model saw">
        <ModelViewDialog />
      </PanelBoundary>
      <PanelBoundary name="the fork dialog">
        <ForkDialog />
      </PanelBoundary>
      {panel === "stats" && (
        <PanelBoundary name="the statistics">
          <StatsPanel />
        </PanelBoundary>
      )}
      {panel === "notes" && (
        <PanelBoundary name="the notes">
          <NotesPanel />
        </PanelBoundary>
      )}
    </main>
  );
}
