/** The middle column for the open session: transcript, approval card, composer. */
import { Suspense, useCallback, useEffect, useMemo } from "react";
import { hunksFromTexts, hunksFromUnified } from "../lib/diff-hunks";
import { formatDuration } from "../lib/format";
import { readToolDetails } from "../lib/tool-details";
import { composerModel, useModelsStore } from "../stores/models-store";
import { useTranscriptStore } from "../stores/transcript-store";
import { useTurn, useTurnStore } from "../stores/turn-store";
import { useUiStore } from "../stores/ui-store";
import { useWorkspaceStore } from "../stores/workspace-store";
import { ApprovalCard } from "./approval-card";
import { CompactionPrompt } from "./compaction-prompt";
import { useRewindStore } from "./rewind/rewind-store";
import { Composer, type BuiltinCommand } from "./composer";
import { client } from "../api/current";
import type { TodoItem } from "../../../shared/todo";
import { useAppStore } from "../stores/app-store";
import { McpTrustNotice } from "./mcp-trust-notice";
import { ChangesView } from "../lazy-parts";
import { PendingComments } from "./review/pending-comments";
import { selectionFor } from "./transcript/diff-summary";
import type { TranscriptActions } from "./transcript/transcript-context";
import { TranscriptView } from "./transcript/transcript-view";
import { PlanPanel } from "./plan/plan-panel";

export function SessionPane({ sessionId }: { sessionId: string }) {
  const view = useTranscriptStore((s) => (s.view?.sessionId === sessionId ? s.view : null));
  const load = useTranscriptStore((s) => s.load);
  const modes = useTranscriptStore((s) => s.modes);
  const turn = useTurn(sessionId);
  const turnError = useTurnStore((s) => s.errors[sessionId] ?? null);
  const retry = useTurnStore((s) => s.retries[sessionId] ?? null);
  const unsent = useTurnStore((s) => s.unsent[sessionId] ?? null);
  const send = useTurnStore((s) => s.send);
  const abort = useTurnStore((s) => s.abort);
  const models = useModelsStore((s) => s.models);
  const sessionModel = useWorkspaceStore((s) => s.sessions.find((x) => x.id === sessionId)?.model ?? null);
  const openDiff = useUiStore((s) => s.openDiff);
  const focusSeq = useWorkspaceStore((s) => s.focusSeq);
  const clearFocusSeq = useWorkspaceStore((s) => s.clearFocusSeq);
  const forkSession = useWorkspaceStore((s) => s.forkSession);
  const workspaceId = useWorkspaceStore((s) => s.sessions.find((x) => x.id === sessionId)?.workspaceId ?? s.workspace?.id ?? null);

  const runCommand = useCallback(
    (command: BuiltinCommand) => {
      const fail = (what: string) => (err: unknown) => useAppStore.getState().reportError(what, err);
      switch (command) {
        case "new":
          void useWorkspaceStore.getState().createSession();
          break;
        case "model":
          useUiStore.getState().setModelMenuOpen(true);
          break;
        case "compact":
          void client().call("session.compact", { sessionId }).catch(fail("Could not compact the session"));
          break;
        case "ask":
        case "agent":
          void client()
            .call("session.setMode", { sessionId, mode: command })
            .then((t) => useTurnStore.getState().setTurn(t))
            .catch(fail("Could not switch the mode"));
          break;
      }
    },
    [sessionId],
  );
  const changesOpen = useUiStore((s) => s.changesOpen);
  const rowsForTurn = view?.model.rows;
  const lastUserSeq = useMemo(() => {
    if (!rowsForTurn) return null;
    for (let i = rowsForTurn.length - 1; i >= 0; i--) if (rowsForTurn[i].kind === "user") return rowsForTurn[i].seq;
    return null;
  }, [rowsForTurn]);
  const draft = useRewindStore((s) => (s.draft?.sessionId === sessionId ? s.draft.text : null));

  useEffect(() => {
    void load(sessionId);
  }, [sessionId, load]);

  // When an approved change lands, the diff panel moves from the proposal to the stored result.
  const results = view?.model.results;
  useEffect(() => {
    const shown = useUiStore.getState().diff;
    if (!results || !shown?.key.startsWith("approval:")) return;
    const result = results.get(shown.key.slice("approval:".length));
    if (!result) return;
    const diff = readToolDetails(result.message, shown.path).diff;
    if (!diff || result.message.isError || diff.tooLarge) return;
    openDiff(
      selectionFor(
        {
          key: result.message.toolCallId,
          path: diff.path,
          unifiedDiff: diff.unifiedDiff,
          before: diff.before,
          after: diff.after,
          origin: "result",
        },
        diff.unifiedDiff ? hunksFromUnified(diff.unifiedDiff) : hunksFromTexts(diff.path, diff.before ?? "", diff.after ?? ""),
      ),
    );
  }, [results, openDiff]);

  const running = turn !== null && turn.status !== "idle";
  const lastUserText = view?.model.lastUserText ?? null;
  // The user's edit shows at once; the stored plan takes over when it is recorded.
  const plan = turn?.pendingPlan ?? view?.model.plan ?? null;

  // A message the store refused is sent again as it was; otherwise the core runs the failed turn again
  // from the stored history (the message is not sent twice).
  const retryLast = useCallback(() => {
    if (useTurnStore.getState().unsent[sessionId]) void useTurnStore.getState().retryUnsent(sessionId);
    else void useTurnStore.getState().retryTurn(sessionId);
  }, [sessionId]);

  const actions: TranscriptActions = useMemo(
    () => ({
      openDiff,
      retry: lastUserText ? retryLast : undefined,
      forkAt: (seq: number) => void forkSession(sessionId, seq),
      rewindTo: (seq: number, label: string) => void useRewindStore.getState().open({ sessionId, target: { seq }, label }),
      openSession: (id: string) => useWorkspaceStore.getState().selectSession(id),
    }),
    [openDiff, retryLast, lastUserText, forkSession, sessionId],
  );
  const savePlan = useCallback(
    (items: TodoItem[]) =>
      client()
        .call("session.setPlan", { sessionId, items })
        .then(
          () => true,
          (err: unknown) => {
            useAppStore.getState().reportError("Could not save the plan", err);
            return false;
          },
        ),
    [sessionId],
  );

  // The transcript mounts with its rows, so it opens at the bottom in one pass.
  if (!view || (view.status === "loading" && view.model.rows.length === 0)) return <div className="pane-message">Loading…</div>;
  if (view.status === "error")
    return (
      <div className="pane-message" role="alert">
        Could not load the session: {view.error}{" "}
        <button type="button" onClick={() => void load(sessionId)}>
          Try again
        </button>
      </div>
    );

  // A turn error is shown on its own unless the stored error message already says it.
  const rows = view.model.rows;
  const last = rows[rows.length - 1];
  const lastIsError = last?.kind === "assistant" && last.message.stopReason === "error";
  const showError = turnError !== null && (!lastIsError || unsent !== null);
  const footer =
    showError || retry ? (
      <div className="turn-footer">
        {retry && running && (
          <p className="retry-note" role="status">
            Retrying in {formatDuration(retry.delayMs)}
            {retry.hinted ? ", as the provider asked" : ""} (attempt {retry.attempt}): {retry.error}
          </p>
        )}
        {unsent && (
          <p className="unsent-note" role="status">
            Not sent yet: “{unsent.text.length > 120 ? `${unsent.text.slice(0, 120)}…` : unsent.text}”
          </p>
        )}
        {showError && (
          <div className="msg-error" role="alert">
            <span>{turnError}</span>
            {(lastUserText || unsent) && (
              <button type="button" onClick={retryLast} disabled={running}>
                Retry
              </button>
            )}
          </div>
        )}
      </div>
    ) : null;

  return (
    <div className="session-pane">
      {changesOpen && (
        <Suspense fallback={<div className="pane-message">Loading…</div>}>
          <ChangesView
            sessionId={sessionId}
            lastSeq={view.model.lastSeq}
            lastUserSeq={lastUserSeq}
            onClose={() => useUiStore.getState().setChangesOpen(false)}
          />
        </Suspense>
      )}
      {!changesOpen && (
        <TranscriptView
          sessionId={sessionId}
          model={view.model}
          partial={view.partial}
          toolStatus={view.toolStatus}
          modeChanges={modes?.sessionId === view.sessionId ? modes.changes : undefined}
          models={models}
          // A sub-agent's approval shows here too, but its call is in the sub-agent's session, not on a card of this one.
          pendingApprovalId={turn?.pendingApproval?.sessionId === sessionId ? turn.pendingApproval.toolCallId : null}
          running={running}
          actions={actions}
          focusSeq={view.status === "ready" ? focusSeq : null}
          onFocused={clearFocusSeq}
          footer={footer}
          emptyText={view.status === "loading" ? "Loading…" : "Ask the agent to read or change something in this workspace."}
        />
      )}
      {/* A new card per call: the focus is never inside a card that just appeared (docs/approvals.md). */}
      {turn?.pendingApproval && <ApprovalCard key={turn.pendingApproval.toolCallId} approval={turn.pendingApproval} />}
      {turn?.pendingCompaction && <CompactionPrompt sessionId={sessionId} pending={turn.pendingCompaction} />}
      <McpTrustNotice workspaceId={workspaceId} />
      <PendingComments sessionId={sessionId} disabled={view.status !== "ready"} />
      {plan && plan.length > 0 && <PlanPanel items={plan} pending={turn?.pendingPlan !== undefined} onSave={savePlan} />}
      <Composer
        turn={turn}
        disabled={view.status !== "ready"}
        model={composerModel(models, sessionModel)}
        workspaceId={workspaceId}
        onCommand={runCommand}
        onSend={(text, images, mentions, command, steer) => send(sessionId, text, images, mentions, command, steer)}
        onStop={() => void abort(sessionId)}
        draft={draft}
        onDraftTaken={() => useRewindStore.getState().takeDraft(sessionId)}
      />
    </div>
  );
}
