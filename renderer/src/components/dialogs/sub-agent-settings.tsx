/**
 * Settings → Sub-agents (docs/sub-agents.md#caps-that-hold): the model they
 * use (default: the model of the agent that starts them), the caps the task
 * tool holds to, and whether sub-agents get side-effect tools.
 */
import type { ModelOption, SubAgentSettings } from "../../../../shared/api";
import { missingCredential, modelRefOf, sameModel } from "../../stores/models-store";

const CAPS: { key: "maxPerTurn" | "maxConcurrent" | "maxDepth"; label: string; min: number; max: number }[] = [
  { key: "maxPerTurn", label: "Sub-agents per turn", min: 1, max: 50 },
  { key: "maxConcurrent", label: "Running at once (per agent)", min: 1, max: 10 },
  { key: "maxDepth", label: "Levels below the main agent (0: none)", min: 0, max: 3 },
];

export function SubAgentSettingsSection({
  headingId,
  value,
  models,
  onChange,
}: {
  headingId: string;
  value: SubAgentSettings;
  models: readonly ModelOption[];
  onChange: (next: SubAgentSettings) => void;
}) {
  const selected = value.model ? models.findIndex((m) => sameModel(modelRefOf(m), value.model)) : -1;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Sub-agents</h3>
      <label className="field">
        <span>Model</span>
        <select
          aria-label="Sub-agent model"
          value={selected}
          onChange={(e) => {
            const m = models[Number(e.target.value)];
            onChange({ ...value, model: m ? modelRefOf(m) : null });
          }}
        >
          <option value={-1}>The model of the agent that starts them</option>
          {models.map((m, i) => (
            <option key={`${m.provider}/${m.id}`} value={i}>
              {m.providerLabel} · {m.name}
              {m.configured ? "" : ` (${missingCredential(m)})`}
            </option>
          ))}
        </select>
      </label>
      <div className="policy-grid">
        {CAPS.map((c) => (
          <label key={c.key} className="field">
            <span>{c.label}</span>
            <input
              type="number"
              min={c.min}
              max={c.max}
              aria-label={c.label}
              value={value[c.key]}
              onChange={(e) => onChange({ ...value, [c.key]: Math.min(c.max, Math.max(c.min, Math.floor(Number(e.target.value) || 0))) })}
            />
          </label>
        ))}
      </div>
      <label className="field">
        <input type="checkbox" checked={value.sideEffects} onChange={(e) => onChange({ ...value, sideEffects: e.target.checked })} /> Let
        sub-agents write, edit and run commands (each asks for approval as the main agent&apos;s do, and the card names the sub-agent)
      </label>
      <p className="muted small">
        Off by default: sub-agents only read. Their tool calls count against the turn&apos;s run budget; Stop ends them with the turn.
      </p>
    </section>
  );
}
