/**
 * The per-turn run budget. Calls and side effects are counted when they
 * start; output bytes and durations (time spent running tools, not waiting
 * for the model or the user) when they end.
 */
import type { RunBudget } from "./types";

export const DEFAULT_RUN_BUDGET: RunBudget = {
  maxToolCalls: 100,
  maxOutputBytes: 4 * 1024 * 1024,
  maxDurationMs: 20 * 60_000,
  maxSideEffects: 50,
};

export interface BudgetUsage {
  toolCalls: number;
  outputBytes: number;
  durationMs: number;
  sideEffects: number;
}

export class TurnBudget {
  private used: BudgetUsage = { toolCalls: 0, outputBytes: 0, durationMs: 0, sideEffects: 0 };

  /** `limits` is read at every check (a change in Settings applies to the next call). */
  constructor(private readonly limitsNow: () => RunBudget) {}

  reset(): void {
    this.used = { toolCalls: 0, outputBytes: 0, durationMs: 0, sideEffects: 0 };
  }

  usage(): BudgetUsage {
    return { ...this.used };
  }

  /** The exhausted limit, described for the model, or null when there is room for one more call. */
  exhausted(kind: "call" | "sideEffect" | "execute"): string | null {
    const { used } = this;
    const limits = this.limitsNow();
    if (kind === "call" && used.toolCalls >= limits.maxToolCalls)
      return `${limits.maxToolCalls} tool call${limits.maxToolCalls === 1 ? "" : "s"}`;
    if (used.outputBytes >= limits.maxOutputBytes) return `${limits.maxOutputBytes} bytes of tool output`;
    if (used.durationMs >= limits.maxDurationMs) return `${Math.round(limits.maxDurationMs / 1000)} s of tool time`;
    if ((kind === "sideEffect" || kind === "execute") && used.sideEffects >= limits.maxSideEffects) {
      return `${limits.maxSideEffects} side-effect action${limits.maxSideEffects === 1 ? "" : "s"}`;
    }
    return null;
  }

  chargeCall(): void {
    this.used.toolCalls++;
  }

  chargeSideEffect(): void {
    this.used.sideEffects++;
  }

  chargeResult(outputBytes: number, durationMs: number): void {
    this.used.outputBytes += outputBytes;
    this.used.durationMs += durationMs;
  }
}
