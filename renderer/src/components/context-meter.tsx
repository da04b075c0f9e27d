/**
 * How full the current model's context is: the size of the next request (the
 * core's measure, `context.meter`) against the model's window and the size at
 * which the agent compacts, and what compacting would do. Before the core has
 * measured (an old session just opened), the last answered request's size.
 * After a switch it measures against the new model's window, so a switch to a
 * smaller model shows it will compact. A click opens the details and
 * "Compact now", which works during a turn too (it runs before the next request).
 */
import { useEffect, useRef, useState } from "react";
import type { ContextMeter as Meter, ModelOption } from "../../../shared/api";
import { compactionThreshold } from "../../../shared/models";
import { client } from "../api/current";
import { formatTokens } from "../lib/format";
import { useAppStore } from "../stores/app-store";
import { useContextStore } from "../stores/context-store";
import { sameModel } from "../stores/models-store";
import { useTurn } from "../stores/turn-store";

export function contextShare(tokens: number, window: number): number {
  return window > 0 ? Math.min(1, tokens / window) : 0;
}

const NEXT_STEP: Record<Meter["next"], string> = {
  prune: "replaces old tool outputs by short stubs",
  summarize: "summarises the older messages (old tool outputs are stubbed first)",
  nothing: "has nothing left to compact",
};

export function ContextMeter({ sessionId, model, lastRequest }: { sessionId: string; model: ModelOption; lastRequest: number | null }) {
  const stored = useContextStore((s) => s.meters[sessionId] ?? null);
  const turn = useTurn(sessionId);
  const idle = (turn?.status ?? "idle") === "idle";
  const modelKey = `${model.provider}/${model.api}/${model.id}`;
  const [open, setOpen] = useState(false);
  const [compacting, setCompacting] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  // Measured again when the session opens, its model changes and each turn ends.
  useEffect(() => {
    if (idle) void useContextStore.getState().load(sessionId);
  }, [sessionId, modelKey, idle]);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  const meter = stored && sameModel(stored.model, model) ? stored : null;
  const window = meter?.window ?? model.contextWindow;
  const tokens = meter?.tokens ?? lastRequest ?? 0;
  const compactAt = meter?.compactAt ?? compactionThreshold(model);
  const share = contextShare(tokens, window);
  const percent = Math.round(share * 100);
  const compactPercent = Math.round(contextShare(compactAt, window) * 100);
  const level = tokens >= compactAt ? "full" : tokens >= compactAt * 0.75 ? "high" : "ok";
  const what = meter ? NEXT_STEP[meter.next] : NEXT_STEP.summarize;

  const compactNow = () => {
    setCompacting(true);
    client()
      .call("session.compact", { sessionId })
      .then(() => useAppStore.getState().notify("info", "Context compacted"))
      .catch((err: unknown) => useAppStore.getState().reportError("Could not compact the session", err))
      .finally(() => setCompacting(false));
  };

  return (
    <div className="context-meter-box" ref={box}>
      <button
        type="button"
        className="context-meter-button"
        aria-expanded={open}
        aria-label="Context details"
        onClick={() => setOpen((v) => !v)}
      >
        <span
          className={`context-meter ${level}`}
          role="meter"
          aria-label={`Context: ${tokens} of ${window} tokens (${percent}%) of ${model.name}; compacts at ${compactPercent}%`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <span className="context-bar" aria-hidden>
            <span style={{ width: `${Math.max(2, percent)}%` }} />
            <i style={{ left: `${compactPercent}%` }} />
          </span>
          {formatTokens(tokens)} / {formatTokens(window)}
        </span>
      </button>
      {open && (
        <div className="context-popover" role="dialog" aria-label="Context">
          <p>
            {meter ? "The next request holds about " : "The last request held "}
            <strong>{tokens.toLocaleString()}</strong> of {model.name}&apos;s {window.toLocaleString()} tokens ({percent}%).
          </p>
          <p className="muted small">
            At {compactAt.toLocaleString()} tokens ({compactPercent}%) the agent compacts before sending: now it {what}. The full history
            stays in the transcript, replay and exports.
          </p>
          <button type="button" onClick={compactNow} disabled={compacting}>
            {compacting ? "Compacting…" : idle ? "Compact now" : "Compact before the next request"}
          </button>
        </div>
      )}
    </div>
  );
}
