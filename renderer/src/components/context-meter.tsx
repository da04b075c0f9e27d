/**
 * How full the current model's context window is, from the last answered
 * request, against the share at which the agent compacts older turns. After a
 * switch it measures against the new model's window, so a switch to a smaller
 * model shows it will compact.
 */
import { COMPACT_AT_SHARE } from "../../../shared/models";
import { formatTokens } from "../lib/format";

export function contextShare(tokens: number, window: number): number {
  return window > 0 ? Math.min(1, tokens / window) : 0;
}

export function ContextMeter({ tokens, window, modelName }: { tokens: number; window: number; modelName: string }) {
  const share = contextShare(tokens, window);
  const percent = Math.round(share * 100);
  const level = share >= COMPACT_AT_SHARE ? "full" : share >= COMPACT_AT_SHARE * 0.75 ? "high" : "ok";
  const compactAt = Math.round(COMPACT_AT_SHARE * 100);
  return (
    <span
      className={`context-meter ${level}`}
      role="meter"
      aria-label={`Context: ${tokens} of ${window} tokens (${percent}%) of ${modelName}; older turns are summarised at ${compactAt}%`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      title={`The last request held ${tokens.toLocaleString()} of ${modelName}'s ${window.toLocaleString()} tokens. Older turns are summarised at ${compactAt}%.`}
    >
      <span className="context-bar" aria-hidden>
        <span style={{ width: `${Math.max(2, percent)}%` }} />
      </span>
      {formatTokens(tokens)} / {formatTokens(window)}
    </span>
  );
}
