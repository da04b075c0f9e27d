/** User settings: defaults and validation. Stored in the store's settings table (never secrets). */
import { SettingsSchema, type Settings } from "../../../shared/api";
import { DEFAULT_CHECKPOINT_CAP_BYTES } from "../../../shared/checkpoints";

export const SETTINGS_KEY = "settings.v1";
/** The model the user last picked (a ModelRef); new sessions follow it unless Settings names a default. */
export const LAST_MODEL_KEY = "model.lastChosen.v1";

export function defaultSettings(): Settings {
  return {
    defaultModel: null,
    approvalPolicy: { write: "ask", edit: "ask", bash: "ask", bashAllow: [], bashDeny: [] },
    budget: { maxToolCalls: 50, maxOutputBytes: 2_000_000, maxDurationMs: 15 * 60_000, maxSideEffects: 25 },
    baseUrls: {},
    theme: "system",
    network: { caFile: null },
    checkpoints: { enabled: true, capBytes: DEFAULT_CHECKPOINT_CAP_BYTES },
    demoteOtherReasoning: false,
    bashSandbox: { mode: "auto", network: false },
    subAgents: { model: null, maxPerTurn: 8, maxConcurrent: 3, maxDepth: 1, sideEffects: false },
    modelCatalogUrl: null,
    // A runaway loop stops here even when every tool call fits the tool budget.
    limits: { maxCostUsd: null, maxRoundTrips: 500, maxWallTimeMs: null },
    compaction: { ask: false },
  };
}

/** Parses stored settings; anything invalid falls back to the defaults field by field. */
export function parseSettings(stored: unknown): Settings {
  const defaults = defaultSettings();
  if (typeof stored !== "object" || stored === null) return defaults;
  const merged = { ...defaults, ...(stored as Record<string, unknown>) };
  const parsed = SettingsSchema.safeParse(merged);
  if (parsed.success) return parsed.data;
  const out: Record<string, unknown> = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof Settings)[]) {
    const one = SettingsSchema.shape[key].safeParse((stored as Record<string, unknown>)[key]);
    if (one.success) out[key] = one.data;
  }
  return SettingsSchema.parse(out);
}
