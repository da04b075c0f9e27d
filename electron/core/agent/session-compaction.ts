/**
 * Compaction for one session (the steps are in compaction.ts): when to stop
 * rather than compact, asking the user first when the setting says so, "Compact
 * now" during a turn (run before its next request), the carriers whose text
 * survives compaction, and the context meter.
 */
import type { ContextMeter, PendingCompaction } from "../../../shared/api";
import { compactionThreshold } from "../../../shared/models";
import { COMPACTION_SHARES, compactHistory, type CompactionCarrier, type CompactionTrigger } from "./compaction";
import { compactionCut, latestCompaction } from "./context";
import type { AgentDeps, ResolvedModel } from "./ports";
import { pruneBoundary } from "./prune";
import type { SessionJournal } from "./session-journal";
import type { TurnCaps } from "./turn-caps";

export interface SessionCompactionHost {
  readonly deps: AgentDeps;
  readonly sessionId: string;
  readonly journal: SessionJournal;
  /** The estimate of the next request's system prompt and tools. */
  overhead(resolved: ResolvedModel): number;
  /** The running turn's budget (the summary's cost is charged to it), null outside a turn. */
  budget(): TurnCaps | null;
  /** Stores why the turn ended, and announces it. */
  failTurn(message: string): void;
  /** The turn now waits for (or no longer waits for) the user's answer. */
  waiting(pending: PendingCompaction | null): void;
}

export type CompactionOutcome =
  /** Compacted, or nothing needed compacting: go on. */
  | { kind: "ok"; compacted: boolean }
  /** Not compacted, and the conversation can go on (a manual request that would not help). */
  | { kind: "refused"; error: string }
  /** The turn must end: the failure is stored, or the user stopped or aborted it. */
  | { kind: "endTurn"; error: string };

type Decision = "compact" | "stop";

export class SessionCompaction {
  private readonly carriers = new Set<CompactionCarrier>();
  private question: { pending: PendingCompaction; resolve: (d: Decision) => void } | null = null;
  private manual: Array<(outcome: CompactionOutcome) => void> = [];

  constructor(private readonly host: SessionCompactionHost) {}

  /** Registers what must survive compaction (docs/architecture.md#compaction-and-budgets); returns the unregister function. */
  addCarrier(carrier: CompactionCarrier): () => void {
    this.carriers.add(carrier);
    return () => this.carriers.delete(carrier);
  }

  pending(): PendingCompaction | null {
    return this.question?.pending ?? null;
  }

  /** Answers the question of a paused turn; false when none is pending. */
  answer(decision: Decision): boolean {
    const q = this.question;
    if (!q) return false;
    this.question = null;
    this.host.waiting(null);
    q.resolve(decision);
    return true;
  }

  /** The turn was aborted: a pending question is answered "stop", a pending "Compact now" is told so. */
  abort(): void {
    this.answer("stop");
    for (const done of this.manual.splice(0)) done({ kind: "refused", error: "the turn was stopped before it compacted" });
  }

  /** "Compact now" during a turn: resolves once the loop has compacted before its next request. */
  requestDuringTurn(): Promise<CompactionOutcome> {
    return new Promise((resolve) => this.manual.push(resolve));
  }

  /** Whether a "Compact now" waits for the loop. */
  hasManualRequest(): boolean {
    return this.manual.length > 0;
  }

  async run(resolved: ResolvedModel, signal: AbortSignal, trigger: CompactionTrigger): Promise<CompactionOutcome> {
    const waiting = trigger === "manual" ? this.manual.splice(0) : [];
    const outcome = await this.compact(resolved, signal, trigger);
    for (const done of waiting) done(outcome);
    return outcome;
  }

  private async compact(resolved: ResolvedModel, signal: AbortSignal, trigger: CompactionTrigger): Promise<CompactionOutcome> {
    const { deps, journal } = this.host;
    const overhead = this.host.overhead(resolved);
    const before = journal.ledger.nextRequest(overhead);
    const window = resolved.model.contextWindow;
    if (trigger !== "manual" && deps.askBeforeCompacting?.() === true) {
      const decision = await this.ask({ tokens: before, window, reason: trigger }, signal);
      if (decision === "stop") {
        const error = `Stopped before compacting: the next request would hold about ${before} of ${window} tokens.`;
        if (!signal.aborted) this.host.failTurn(`${error} Compact the session or start a new one to go on.`);
        return { kind: "endTurn", error };
      }
    }
    const result = await compactHistory({
      entries: journal.entries,
      view: journal.modelView,
      resolved,
      trigger,
      before,
      size: (messages) => journal.ledger.estimate(messages, overhead),
      carry: [...this.carriers].flatMap((c) => c() ?? []),
      signal,
      stream: (r, context, options) => deps.stream(r, context, options),
      cost: (message) => deps.computeCost(resolved.model, message).usage,
      now: () => deps.now(),
    });
    if (result.kind === "compacted" && result.entry.usage) this.host.budget()?.charge({ costUsd: result.entry.usage.cost.total });
    if (signal.aborted) return { kind: "endTurn", error: "aborted" };
    if (result.kind === "failed") return this.end(`compaction failed: ${result.error}`);
    if (result.kind === "nothing") {
      if (trigger !== "overflow") return { kind: "ok", compacted: false };
      return this.end(`The provider reports the conversation is too long for ${resolved.model.name}, and nothing is left to compact.`);
    }
    // Like with like: both sides estimated the same way (`before` may be the provider's count).
    const estimatedBefore = journal.ledger.estimate(journal.history, overhead);
    if (result.after >= estimatedBefore) {
      const error = `Compaction would not make the conversation smaller (about ${estimatedBefore} tokens before, ${result.after} after), so the turn stops rather than send a request that cannot fit.`;
      return trigger === "manual" ? { kind: "refused", error } : this.end(error);
    }
    journal.append(result.entry);
    deps.emit("context.meter", this.meter(resolved, journal.ledger.nextRequest(overhead)));
    return { kind: "ok", compacted: true };
  }

  private end(error: string): CompactionOutcome {
    this.host.failTurn(error);
    return { kind: "endTurn", error };
  }

  private ask(pending: PendingCompaction, signal: AbortSignal): Promise<Decision> {
    if (signal.aborted) return Promise.resolve("stop");
    return new Promise<Decision>((resolve) => {
      const onAbort = () => this.answer("stop");
      signal.addEventListener("abort", onAbort, { once: true });
      this.question = {
        pending,
        resolve: (d) => {
          signal.removeEventListener("abort", onAbort);
          resolve(d);
        },
      };
      this.host.waiting(pending);
    });
  }

  /** The meter for a next request of `tokens`: what compacting would do now is estimated from the view. */
  meter(resolved: ResolvedModel, tokens: number): ContextMeter {
    const { model } = resolved;
    const { journal } = this.host;
    const window = model.contextWindow;
    const view = journal.modelView;
    const latest = latestCompaction(journal.entries);
    const boundary = pruneBoundary(view, Math.floor(window * COMPACTION_SHARES.pruneKeep), latest?.prunedBeforeSeq);
    const enoughToPrune = boundary.pruned > 0 && tokens - boundary.savedTokens <= window * COMPACTION_SHARES.target;
    const canSummarize = compactionCut(view, Math.floor(window * COMPACTION_SHARES.summaryKeep)) !== null;
    const next = enoughToPrune ? "prune" : canSummarize ? "summarize" : boundary.pruned > 0 ? "prune" : "nothing";
    return {
      sessionId: this.host.sessionId,
      model: { provider: model.provider, api: model.api, id: model.id },
      tokens,
      window,
      compactAt: compactionThreshold(model),
      next,
    };
  }
}

/** The outcome as `compactNow` answers it. */
export function compactionResult(outcome: CompactionOutcome): { ok: true } | { ok: false; error: string } {
  return outcome.kind === "ok" ? { ok: true } : { ok: false, error: outcome.error };
}
