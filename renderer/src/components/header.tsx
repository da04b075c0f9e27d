/** Session title, current model (switcher), running token and cost totals, how full the context is, panel toggles. */
import type { ModelRef } from "../../../shared/protocol";
import { formatCostOf, formatTokens } from "../lib/format";
import { useAppStore } from "../stores/app-store";
import { sameModel, useModelsStore } from "../stores/models-store";
import { useDefaultModel } from "../stores/settings-store";
import { useTranscriptStore } from "../stores/transcript-store";
import { useUiStore } from "../stores/ui-store";
import { useActiveSession } from "../stores/workspace-store";
import { ContextMeter } from "./context-meter";
import { ModelSwitcher } from "./model-switcher";
import { ReasoningControl } from "./reasoning-control";
import { AskModeToggle, InstructionsChip } from "./header-context";
import { useRewindStore } from "./rewind/rewind-store";
import { useTurn } from "../stores/turn-store";

export function Header({
  draftModel,
  onDraftModel,
  onSwitchModel,
}: {
  draftModel: ModelRef | null;
  onDraftModel: (m: ModelRef) => void;
  onSwitchModel: (sessionId: string, m: ModelRef) => void;
}) {
  const session = useActiveSession();
  // Two primitive selectors: re-render only when a total changes.
  const viewTokens = useTranscriptStore((s) => {
    const v = s.view;
    if (!v || v.sessionId !== session?.id || v.status !== "ready") return null;
    return v.model.totals.tokens + (v.partial?.usage.totalTokens ?? 0);
  });
  const viewCost = useTranscriptStore((s) => {
    const v = s.view;
    if (!v || v.sessionId !== session?.id || v.status !== "ready") return null;
    return v.model.totals.cost + (v.partial?.usage.cost.total ?? 0);
  });
  const viewCostUnknown = useTranscriptStore((s) => {
    const v = s.view;
    if (!v || v.sessionId !== session?.id || v.status !== "ready") return false;
    return v.model.totals.costUnknown || v.partial?.usage.cost.unknown === true;
  });
  const context = useTranscriptStore((s) => {
    const v = s.view;
    return v && v.sessionId === session?.id && v.status === "ready" ? v.model.context : null;
  });
  const models = useModelsStore((s) => s.models);
  const defaultModel = useDefaultModel();
  const connection = useAppStore((s) => s.connection);
  const diffOpen = useUiStore((s) => s.diffOpen);
  const hasDiff = useUiStore((s) => s.diff !== null);
  const setSettingsOpen = useUiStore((s) => s.setSettingsOpen);
  const changesOpen = useUiStore((s) => s.changesOpen);
  // The last user message: "Undo last turn" rewinds files and conversation to just before it.
  const lastUserSeq = useTranscriptStore((s) => {
    const v = s.view;
    if (!v || v.sessionId !== session?.id || v.status !== "ready") return null;
    for (let i = v.model.rows.length - 1; i >= 0; i--) {
      const row = v.model.rows[i];
      if (row.kind === "user") return row.seq;
    }
    return null;
  });
  const turn = useTurn(session?.id ?? null);
  const running = turn !== null && turn.status !== "idle";

  const tokens = viewTokens ?? session?.totalTokens ?? 0;
  const cost = viewCost ?? session?.totalCost ?? 0;
  const current = session ? session.model : (draftModel ?? defaultModel);
  const currentInfo = current ? models.find((m) => sameModel(m, current)) : undefined;

  return (
    <header className="app-header">
      <h1 className="session-title" title={session?.title}>
        {session ? session.title : "Agent Workbench"}
      </h1>
      {connection.status !== "open" && (
        <span className="badge warn" role="status">
          {connection.status === "connecting" ? "Connecting…" : "Reconnecting…"}
        </span>
      )}
      <div className="header-right">
        {session && <InstructionsChip sessionId={session.id} />}
        {session && <AskModeToggle sessionId={session.id} />}
        <ModelSwitcher current={current} onSelect={(m) => (session ? onSwitchModel(session.id, m) : onDraftModel(m))} />
        {session && <ReasoningControl session={session} model={currentInfo} />}
        {session && (
          <span className="totals" aria-label={`Session usage: ${tokens} tokens, ${formatCostOf(cost, viewCostUnknown)}`}>
            {formatTokens(tokens)} tokens · {formatCostOf(cost, viewCostUnknown)}
          </span>
        )}
        {session && currentInfo && <ContextMeter sessionId={session.id} model={currentInfo} lastRequest={context} />}
        {session && (
          <button
            type="button"
            disabled={lastUserSeq === null || running}
            title={running ? "Stop the turn first" : "Restore the files and the conversation to before your last message"}
            onClick={() =>
              lastUserSeq !== null &&
              void useRewindStore
                .getState()
                .undoLastTurn({ sessionId: session.id, target: { seq: lastUserSeq - 1 }, label: "the last turn" })
            }
          >
            Undo last turn
          </button>
        )}
        <button
          type="button"
          aria-pressed={diffOpen}
          disabled={!hasDiff}
          onClick={() => (diffOpen ? useUiStore.getState().closeDiff() : useUiStore.setState({ diffOpen: true }))}
        >
          Diff
        </button>
        {session && (
          <button type="button" aria-pressed={changesOpen} onClick={() => useUiStore.getState().setChangesOpen(!changesOpen)}>
            Changes
          </button>
        )}
        <button type="button" onClick={() => setSettingsOpen(true)}>
          Settings
        </button>
      </div>
    </header>
  );
}
