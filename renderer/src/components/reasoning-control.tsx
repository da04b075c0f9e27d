/**
 * The session's reasoning level, next to the model switcher: the model's
 * default, off, low, medium or high — only the levels the current model takes
 * (none: the control is hidden). A change is stored with the session, shows
 * as a marker in the transcript and applies from the next request.
 */
import type { ModelOption, SessionSummary } from "../../../shared/api";
import type { ReasoningLevel } from "../../../shared/protocol";
import { client } from "../api/current";
import { useAppStore } from "../stores/app-store";
import { useWorkspaceStore } from "../stores/workspace-store";

const LABELS: Record<ReasoningLevel, string> = {
  default: "Model default",
  off: "Off",
  low: "Low",
  medium: "Medium",
  high: "High",
};

export function ReasoningControl({ session, model }: { session: SessionSummary; model: ModelOption | undefined }) {
  const levels = model?.reasoningLevels ?? [];
  if (levels.length === 0) return null;
  // A level this model does not take (kept from another model) is shown as stored, and sends nothing.
  const options = levels.includes(session.reasoning) ? levels : [...levels, session.reasoning];

  const change = async (level: ReasoningLevel) => {
    try {
      const summary = await client().call("chat.setReasoning", { sessionId: session.id, level });
      useWorkspaceStore.getState().upsertSession(summary);
    } catch (err) {
      useAppStore.getState().reportError("Could not change the reasoning level", err);
    }
  };

  return (
    <label className="reasoning-control" title="How much the model reasons before answering (applies from the next request)">
      <span className="muted small">Reasoning</span>
      <select aria-label="Reasoning level" value={session.reasoning} onChange={(e) => void change(e.target.value as ReasoningLevel)}>
        {options.map((level) => (
          <option key={level} value={level}>
            {LABELS[level]}
            {levels.includes(level) ? "" : " (not used by this model)"}
          </option>
        ))}
      </select>
    </label>
  );
}
