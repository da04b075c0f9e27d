/**
 * The session as it stood at a replay step, derived incrementally from one
 * transcript model of the whole session: the rows are a prefix (binary search
 * on their seqs), and tool results and approval decisions are the full maps
 * seen through a bound on seq, so a step costs O(log n), not a rebuild.
 *
 * Pure; the replay store builds the index once per session.
 */
import type { ApprovalEntry, StoredEntry } from "../../../shared/protocol";
import type { TimelineItem } from "../../../shared/review";
import { PlanTracker, type TodoItem } from "../../../shared/todo";
import { buildTranscript, type AttachedResult, type TranscriptModel, type TranscriptRow } from "../lib/transcript-model";

/** Tools whose results change the workspace view of a step (write/edit diffs, bash runs). */
export const FILE_STATE_TOOLS: readonly string[] = ["write", "edit", "bash"];

export interface StepIndex {
  full: TranscriptModel;
  /** seq of each row of `full`, ascending. */
  rowSeqs: Int32Array;
  /** Seqs of the stored tool results and approvals, ascending (for the visible-count keys). */
  resultSeqs: Int32Array;
  approvalSeqs: Int32Array;
  /** seq of each approval decision by tool-call id (ApprovalEntry carries none). */
  approvalSeq: ReadonlyMap<string, number>;
  /** Seqs after which the workspace files may differ (write/edit/bash results), ascending. */
  fileChangeSeqs: Int32Array;
  /** Seqs at which the todo plan changed, ascending, and the plan from each on (docs/sub-agents.md#the-todo-plan). */
  planSeqs: Int32Array;
  plans: readonly (readonly TodoItem[])[];
}

/** Number of values <= bound in an ascending array. */
export function countAtOrBelow(sorted: ArrayLike<number>, bound: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function buildStepIndex(entries: readonly StoredEntry[]): StepIndex {
  const full = buildTranscript(entries);
  const resultSeqs: number[] = [];
  const approvalSeqs: number[] = [];
  const fileChangeSeqs: number[] = [];
  const approvalSeq = new Map<string, number>();
  const planSeqs: number[] = [];
  const plans: TodoItem[][] = [];
  const tracker = new PlanTracker();
  for (const { seq, entry } of entries) {
    const plan = tracker.feed(entry);
    if (plan !== undefined) {
      planSeqs.push(seq);
      plans.push(plan);
    }
    if (entry.type === "approval") {
      approvalSeqs.push(seq);
      approvalSeq.set(entry.toolCallId, seq);
    } else if (entry.type === "message" && entry.message.role === "toolResult") {
      resultSeqs.push(seq);
      if (FILE_STATE_TOOLS.includes(entry.message.toolName)) fileChangeSeqs.push(seq);
    }
  }
  return {
    full,
    rowSeqs: Int32Array.from(full.rows, (r) => r.seq),
    resultSeqs: Int32Array.from(resultSeqs),
    approvalSeqs: Int32Array.from(approvalSeqs),
    approvalSeq,
    fileChangeSeqs: Int32Array.from(fileChangeSeqs),
    planSeqs: Int32Array.from(planSeqs),
    plans,
  };
}

/** The plan as it stood at `seq` (null: none set yet). */
export function planAt(index: StepIndex, seq: number): readonly TodoItem[] | null {
  const n = countAtOrBelow(index.planSeqs, seq);
  return n === 0 ? null : index.plans[n - 1];
}

/**
 * A read-only view of a map keyed by tool-call id that shows only values stored
 * at or before `bound`. get/has are O(1); iteration filters.
 */
export class BoundedMap<V> implements ReadonlyMap<string, V> {
  constructor(
    private readonly source: ReadonlyMap<string, V>,
    private readonly seqOf: (key: string, value: V) => number | undefined,
    private readonly bound: number,
  ) {}

  private visible(key: string, value: V | undefined): value is V {
    if (value === undefined) return false;
    const seq = this.seqOf(key, value);
    return seq !== undefined && seq <= this.bound;
  }

  get(key: string): V | undefined {
    const v = this.source.get(key);
    return this.visible(key, v) ? v : undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  get size(): number {
    let n = 0;
    for (const _ of this.entries()) n++;
    return n;
  }

  *entries(): MapIterator<[string, V]> {
    for (const [k, v] of this.source) if (this.visible(k, v)) yield [k, v];
  }

  *keys(): MapIterator<string> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: string, map: ReadonlyMap<string, V>) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
}

/** The visible-row count and the result/approval counts at a seq: the keys that decide whether the view changed. */
export interface StepKeys {
  rows: number;
  results: number;
  approvals: number;
}

export function stepKeys(index: StepIndex, seq: number): StepKeys {
  return {
    rows: countAtOrBelow(index.rowSeqs, seq),
    results: countAtOrBelow(index.resultSeqs, seq),
    approvals: countAtOrBelow(index.approvalSeqs, seq),
  };
}

export function rowsAt(index: StepIndex, rowCount: number): TranscriptRow[] {
  return rowCount === index.full.rows.length ? index.full.rows : index.full.rows.slice(0, rowCount);
}

export function resultsAt(index: StepIndex, seq: number): ReadonlyMap<string, AttachedResult> {
  return new BoundedMap(index.full.results, (_k, v) => v.seq, seq);
}

export function approvalsAt(index: StepIndex, seq: number): ReadonlyMap<string, ApprovalEntry> {
  return new BoundedMap(index.full.approvals, (k) => index.approvalSeq.get(k), seq);
}

/** The whole transcript model as of `seq` (the live view's shape, so the transcript components render it as is). */
export function transcriptAt(index: StepIndex, seq: number): TranscriptModel {
  const keys = stepKeys(index, seq);
  return {
    ...index.full,
    rows: rowsAt(index, keys.rows),
    results: resultsAt(index, seq),
    approvals: approvalsAt(index, seq),
    lastSeq: seq,
    lastUserText: null,
  };
}

/** The seq after which the files last changed, at or before `seq` (0: untouched so far). */
export function fileStateKey(index: StepIndex, seq: number): number {
  const n = countAtOrBelow(index.fileChangeSeqs, seq);
  return n === 0 ? 0 : index.fileChangeSeqs[n - 1];
}

// Timeline filters live in replay-filter.ts (the HTML export uses them too).
export { NO_FILTER, filterChoices, filterItems, isFiltering, modelKey, type ReplayFilter } from "./replay-filter";

/**
 * The item to move to from `cursor` by `delta` visible items. A cursor that is
 * not visible (the filter changed) moves to the nearest visible item that way.
 * Null when there is none.
 */
export function stepFrom(visible: readonly number[], cursor: number, delta: number): number | null {
  if (visible.length === 0 || delta === 0) return null;
  const below = countAtOrBelow(visible, cursor); // visible items <= cursor
  const here = below > 0 && visible[below - 1] === cursor;
  // Forward counts from the last visible item at or before the cursor; back from the cursor's own slot.
  const pos = delta > 0 || here ? below - 1 + delta : below + delta;
  if (pos < 0 || pos >= visible.length) return null;
  return visible[pos];
}

/** The visible item nearest to `cursor`: itself, else the next one, else the last before it. */
export function nearestVisible(visible: readonly number[], cursor: number): number | null {
  if (visible.length === 0) return null;
  const below = countAtOrBelow(visible, cursor);
  if (below > 0 && visible[below - 1] === cursor) return cursor;
  return below < visible.length ? visible[below] : visible[visible.length - 1];
}

/** Position of the item in the visible list, or -1. */
export function visiblePosition(visible: readonly number[], index: number): number {
  const below = countAtOrBelow(visible, index);
  return below > 0 && visible[below - 1] === index ? below - 1 : -1;
}

// ---------------------------------------------------------------- running totals

export interface RunningTotals {
  /** Tokens and cost of the items up to and including each index. */
  tokens: Float64Array;
  cost: Float64Array;
}

export function runningTotals(items: readonly TimelineItem[]): RunningTotals {
  const tokens = new Float64Array(items.length);
  const cost = new Float64Array(items.length);
  let t = 0;
  let c = 0;
  for (let i = 0; i < items.length; i++) {
    t += items[i].tokens?.total ?? 0;
    c += items[i].cost ?? 0;
    tokens[i] = t;
    cost[i] = c;
  }
  return { tokens, cost };
}
