/**
 * Transport (first, back, play/pause, forward, last, speed), the step counter
 * with running totals, and the timeline filters. Keyboard: ← → or j k step,
 * Home/End, Space plays or pauses (see use-replay-keys.ts).
 */
import { useEffect } from "react";
import { formatCost, formatTokens } from "../lib/format";
import { modelLabel, useModelsStore } from "../stores/models-store";
import { BASE_STEP_MS, SPEEDS, useReplayStore } from "./replay-store";
import { isFiltering, visiblePosition } from "./step-view";

/** Advances one visible step per tick while playing; stops at the end. */
export function usePlayback(): void {
  const playing = useReplayStore((s) => s.playing);
  const speed = useReplayStore((s) => s.speed);
  useEffect(() => {
    if (!playing) return;
    const t = setInterval(() => {
      const s = useReplayStore.getState();
      if (!s.step(1)) s.setPlaying(false);
    }, BASE_STEP_MS / speed);
    return () => clearInterval(t);
  }, [playing, speed]);
}

function StepCounter() {
  const cursor = useReplayStore((s) => s.cursor);
  const visible = useReplayStore((s) => s.visible);
  const total = useReplayStore((s) => s.data?.items.length ?? 0);
  const tokens = useReplayStore((s) => s.data?.totals.tokens[s.cursor] ?? 0);
  const cost = useReplayStore((s) => s.data?.totals.cost[s.cursor] ?? 0);
  const filtering = visible.length !== total;
  const pos = visiblePosition(visible, cursor);
  return (
    <span className="replay-counter" aria-live="polite">
      <strong aria-label="Current step">
        Step {cursor + 1} of {total}
      </strong>
      {filtering && (
        <span className="muted small"> · {pos >= 0 ? `match ${pos + 1} of ${visible.length}` : `${visible.length} matching`}</span>
      )}
      <span className="muted small" aria-label="Usage so far">
        {" "}
        · so far {formatTokens(tokens)} tokens · {formatCost(cost)}
      </span>
    </span>
  );
}

function Transport() {
  const playing = useReplayStore((s) => s.playing);
  const speed = useReplayStore((s) => s.speed);
  const atStart = useReplayStore((s) => s.visible.length === 0 || s.cursor <= s.visible[0]);
  const atEnd = useReplayStore((s) => s.visible.length === 0 || s.cursor >= s.visible[s.visible.length - 1]);
  const { first, last, step, setPlaying, setSpeed } = useReplayStore.getState();
  return (
    <div className="replay-transport" role="group" aria-label="Replay controls">
      <button type="button" className="icon-text" aria-label="First step" title="First step (Home)" disabled={atStart} onClick={first}>
        |◀
      </button>
      <button
        type="button"
        className="icon-text"
        aria-label="Previous step"
        title="Previous step (← or k)"
        disabled={atStart}
        onClick={() => step(-1)}
      >
        ◀
      </button>
      <button
        type="button"
        className="icon-text play"
        aria-label={playing ? "Pause" : "Play"}
        title="Play or pause (Space)"
        disabled={!playing && atEnd}
        onClick={() => setPlaying(!playing)}
      >
        {playing ? "Pause" : "Play"}
      </button>
      <button
        type="button"
        className="icon-text"
        aria-label="Next step"
        title="Next step (→ or j)"
        disabled={atEnd}
        onClick={() => step(1)}
      >
        ▶
      </button>
      <button type="button" className="icon-text" aria-label="Last step" title="Last step (End)" disabled={atEnd} onClick={last}>
        ▶|
      </button>
      <label className="small">
        Speed{" "}
        <select aria-label="Playback speed" value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

function Filters() {
  const filter = useReplayStore((s) => s.filter);
  const choices = useReplayStore((s) => s.data?.choices ?? null);
  const setFilter = useReplayStore((s) => s.setFilter);
  const models = useModelsStore((s) => s.models);
  return (
    <div className="replay-filters" role="group" aria-label="Timeline filters">
      <label>
        <input type="checkbox" checked={filter.errorsOnly} onChange={(e) => setFilter({ errorsOnly: e.target.checked })} /> Errors only
      </label>
      <label>
        <input type="checkbox" checked={filter.sideEffectsOnly} onChange={(e) => setFilter({ sideEffectsOnly: e.target.checked })} /> Side
        effects only
      </label>
      <label>
        <input type="checkbox" checked={filter.notedOnly} onChange={(e) => setFilter({ notedOnly: e.target.checked })} /> With notes
      </label>
      <label>
        Tool{" "}
        <select aria-label="Filter by tool" value={filter.tool ?? ""} onChange={(e) => setFilter({ tool: e.target.value || null })}>
          <option value="">all</option>
          {choices?.tools.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label>
        Model{" "}
        <select aria-label="Filter by model" value={filter.model ?? ""} onChange={(e) => setFilter({ model: e.target.value || null })}>
          <option value="">all</option>
          {choices?.models.map((m) => (
            <option key={m.key} value={m.key}>
              {modelLabel(models, m.ref)}
            </option>
          ))}
        </select>
      </label>
      {isFiltering(filter) && (
        <button
          type="button"
          className="link-button"
          onClick={() => setFilter({ errorsOnly: false, sideEffectsOnly: false, notedOnly: false, tool: null, model: null })}
        >
          Clear filters
        </button>
      )}
    </div>
  );
}

export function ReplayControls() {
  return (
    <div className="replay-controls">
      <Transport />
      <StepCounter />
      <Filters />
    </div>
  );
}
