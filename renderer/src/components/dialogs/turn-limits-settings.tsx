/**
 * Settings → Long turns (docs/architecture.md#compaction-and-budgets): the
 * caps of a turn (cost, model requests, minutes; empty means no cap), at which
 * the agent asks once more without tools for a summary and stops, and whether
 * to ask before compacting the context.
 */
import type { Settings } from "../../../../shared/api";

type Limits = Settings["limits"];

const FIELDS: { key: keyof Limits; label: string; step: string; toShown(v: number): number; fromShown(v: number): number }[] = [
  { key: "maxCostUsd", label: "Max cost per turn (USD)", step: "0.01", toShown: (v) => v, fromShown: (v) => v },
  { key: "maxRoundTrips", label: "Max model requests per turn", step: "1", toShown: (v) => v, fromShown: (v) => Math.floor(v) },
  { key: "maxWallTimeMs", label: "Max minutes per turn", step: "1", toShown: (v) => v / 60_000, fromShown: (v) => Math.round(v * 60_000) },
];

export function TurnLimitsSection({
  headingId,
  limits,
  compaction,
  onChange,
}: {
  headingId: string;
  limits: Limits;
  compaction: Settings["compaction"];
  onChange: (patch: Pick<Settings, "limits" | "compaction">) => void;
}) {
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Long turns</h3>
      <p className="muted small">
        At a cap the agent makes one last request without tools for a summary of where the work stands, then stops. Empty: no cap.
      </p>
      <div className="policy-grid">
        {FIELDS.map((f) => {
          const value = limits[f.key];
          return (
            <label key={f.key} className="field">
              <span>{f.label}</span>
              <input
                type="number"
                min={0}
                step={f.step}
                aria-label={f.label}
                value={value === null ? "" : f.toShown(value)}
                onChange={(e) => {
                  const shown = Number(e.target.value);
                  const next = e.target.value.trim() === "" || !(shown > 0) ? null : f.fromShown(shown);
                  onChange({ limits: { ...limits, [f.key]: next !== null && next > 0 ? next : null }, compaction });
                }}
              />
            </label>
          );
        })}
      </div>
      <label className="field">
        <input type="checkbox" checked={compaction.ask} onChange={(e) => onChange({ limits, compaction: { ask: e.target.checked } })} /> Ask
        before compacting the context (otherwise the agent compacts on its own when the next request would not fit)
      </label>
    </section>
  );
}
