/** Session title, current model (switcher), running token and cost totals, how full the context is, panel toggles. */
import type { ModelRef } from "../../../shared/protocol";
import { formatCost, formatTokens } from "../lib/format";
import { useAppStore } from "../stores/app-store";
import { sameModel, useModelsStore } from "../stores/models-store";
import { useDefaultModel } from "../stores/settings-store";
import { useTranscriptStore } from "../stores/transcript-store";
import { useUiStore } from "../stores/ui-store";
import { useActiveSession } from "../stores/workspace-store";
import { ContextMeter } from "./context-meter";
import { ModelSwitcher } from "./model-switcher";

export function Header({ draftModel, onDraftModel, onSwitchModel }: {
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
        <ModelSwitcher current={current} onSelect={(m) => (session ? onSwitchModel(session.id, m) : onDraftModel(m))} />
        {session && (
          <span className="totals" aria-label={`Session usage: ${tokens} tokens, ${formatCost(cost)}`}>
            {formatTokens(tokens)} tokens · {formatCost(cost)}
          </span>
        )}
        {session && context !== null && currentInfo && <ContextMeter tokens={context} window={currentInfo.contextWindow} modelName={currentInfo.name} />}
        <button
          type="button"
          aria-pressed={diffOpen}
          disabled={!hasDiff}
          onClick={() => (diffOpen ? useUiStore.getState().closeDiff() : useUiStore.setState({ diffOpen: true }))}
        >
          Diff
        </button>
        <button type="button" onClick={() => setSettingsOpen(true)}>
          Settings
        </button>
      </div>
    </header>
  );
}
