/**
 * The caps of one turn (its budget beside the tool runtime's per-turn tool
 * budget, tools/budget.ts): cost (USD), model round trips and wall time, plus
 * the tool budget once the tool runtime refused a call for it. The loop checks
 * `reached()` before every request; when a limit is reached it makes one
 * final request without tools for a summary and stops
 * (docs/architecture.md#compaction-and-budgets).
 *
 * Shareable: `charge` may be called from outside the loop
 * (`SessionAgent.turnCaps()` gives the running turn's), and `child()` gives
 * caps whose charges also go to these and which are reached when these are:
 * a sub-agent run on `parent.child(...)` (`send(..., { budget })`) counts
 * against its parent's turn.
 */
import type { TurnLimitHit } from "../../../shared/protocol";

export interface TurnLimits {
  /** USD spent by the turn's requests (compaction summaries included); null: no limit. */
  maxCostUsd: number | null;
  /** Model requests the turn may make (the final summary request comes on top); null: no limit. */
  maxRoundTrips: number | null;
  /** Milliseconds from the start of the turn; null: no limit. */
  maxWallTimeMs: number | null;
}

export const NO_LIMITS: TurnLimits = { maxCostUsd: null, maxRoundTrips: null, maxWallTimeMs: null };

export interface TurnSpend {
  costUsd: number;
  roundTrips: number;
  wallTimeMs: number;
}

export class TurnCaps {
  private costUsd = 0;
  private roundTrips = 0;
  private toolBudget: string | null = null;
  private readonly startedAt: number;

  private readonly limits: () => TurnLimits;

  /** `limits` as a function is read at every check, so a change in Settings applies at the next request. */
  constructor(
    limits: TurnLimits | (() => TurnLimits),
    private readonly now: () => number,
    private readonly parent: TurnCaps | null = null,
  ) {
    this.limits = typeof limits === "function" ? limits : () => limits;
    this.startedAt = now();
  }

  /** Charges spending to this budget and every parent (a sub-agent's request charges its parent's turn). */
  charge(spent: { costUsd?: number; roundTrips?: number }): void {
    const cost = spent.costUsd ?? 0;
    if (Number.isFinite(cost) && cost > 0) this.costUsd += cost;
    const trips = spent.roundTrips ?? 0;
    if (Number.isInteger(trips) && trips > 0) this.roundTrips += trips;
    this.parent?.charge(spent);
  }

  /** The tool runtime refused a call for its per-turn budget: the turn ends with a summary. */
  noteToolBudget(limit: string): void {
    this.toolBudget ??= limit;
  }

  /** A budget for a sub-agent: its own limits on top of this one's, its spending charged here too. */
  child(limits: Partial<TurnLimits> = {}): TurnCaps {
    return new TurnCaps({ ...NO_LIMITS, ...limits }, this.now, this);
  }

  spent(): TurnSpend {
    return { costUsd: this.costUsd, roundTrips: this.roundTrips, wallTimeMs: Math.max(0, this.now() - this.startedAt) };
  }

  /** The first limit reached (this budget's, then its parents'), or null. */
  reached(): TurnLimitHit | null {
    const { maxCostUsd, maxRoundTrips, maxWallTimeMs } = this.limits();
    const spent = this.spent();
    if (this.toolBudget !== null) return { kind: "toolBudget", detail: `the tool budget for this turn (${this.toolBudget})` };
    if (maxCostUsd !== null && spent.costUsd >= maxCostUsd) {
      return { kind: "cost", detail: `the cost limit of $${maxCostUsd} ($${spent.costUsd.toFixed(4)} spent)` };
    }
    if (maxRoundTrips !== null && spent.roundTrips >= maxRoundTrips) {
      return { kind: "roundTrips", detail: `the limit of ${maxRoundTrips} model request${maxRoundTrips === 1 ? "" : "s"} per turn` };
    }
    if (maxWallTimeMs !== null && spent.wallTimeMs >= maxWallTimeMs) {
      return { kind: "wallTime", detail: `the time limit of ${formatDuration(maxWallTimeMs)} per turn` };
    }
    return this.parent?.reached() ?? null;
  }
}

function formatDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}
