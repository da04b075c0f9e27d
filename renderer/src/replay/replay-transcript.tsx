/**
 * The transcript as it stood at the current step, rendered by the live view's
 * own TranscriptView (read-only: no retry, no fork buttons on rows). The model
 * passed in changes identity only when a row, a result or a decision appears
 * or disappears, so stepping across tool calls of one message re-renders nothing.
 *
 * The step's newest entry is the last row, so the view follows the bottom as
 * it does while a live session streams (no scroll-to-row per step); a reviewer
 * who scrolls up to read is left there until they scroll back down.
 */
import { useMemo } from "react";
import { TranscriptView } from "../components/transcript/transcript-view";
import type { TranscriptActions } from "../components/transcript/transcript-context";
import type { TranscriptModel } from "../lib/transcript-model";
import type { LiveToolStatus } from "../stores/transcript-store";
import { useModelsStore } from "../stores/models-store";
import { useUiStore } from "../stores/ui-store";
import { PlanPanel } from "../components/plan/plan-panel";
import { openReplay, useReplayStore } from "./replay-store";
import { approvalsAt, countAtOrBelow, planAt, resultsAt, rowsAt, type StepIndex } from "./step-view";

const NO_LIVE_STATUS: Readonly<Record<string, LiveToolStatus>> = {};

/** The highest seq among the first `count` values (0 when none): a stable bound for a count. */
function boundOf(sorted: Int32Array, count: number): number {
  return count === 0 ? 0 : sorted[count - 1];
}

export function useTranscriptAt(index: StepIndex, seq: number): TranscriptModel {
  const rowCount = countAtOrBelow(index.rowSeqs, seq);
  const resultBound = boundOf(index.resultSeqs, countAtOrBelow(index.resultSeqs, seq));
  const approvalBound = boundOf(index.approvalSeqs, countAtOrBelow(index.approvalSeqs, seq));
  const rows = useMemo(() => rowsAt(index, rowCount), [index, rowCount]);
  const results = useMemo(() => resultsAt(index, resultBound), [index, resultBound]);
  const approvals = useMemo(() => approvalsAt(index, approvalBound), [index, approvalBound]);
  return useMemo(
    () => ({ ...index.full, rows, results, approvals, lastSeq: rows.length > 0 ? rows[rows.length - 1].seq : 0, lastUserText: null }),
    [index, rows, results, approvals],
  );
}

export function ReplayTranscript({ index }: { index: StepIndex }) {
  const seq = useReplayStore((s) => s.data?.items[s.cursor]?.seq ?? 0);
  const sessionId = useReplayStore((s) => s.sessionId);
  const models = useModelsStore((s) => s.models);
  const openDiff = useUiStore((s) => s.openDiff);
  const model = useTranscriptAt(index, seq);
  // A task call's card opens the sub-agent's session in replay too.
  const actions: TranscriptActions = useMemo(() => ({ openDiff, openSession: (id: string) => openReplay(id) }), [openDiff]);
  return (
    <div className="replay-transcript" role="region" aria-label="Transcript at this step">
      <TranscriptView
        sessionId={sessionId}
        model={model}
        partial={null}
        toolStatus={NO_LIVE_STATUS}
        models={models}
        readOnly
        actions={actions}
        focusSeq={null}
        emptyText="Nothing had happened yet at this step."
      />
    </div>
  );
}

/** The todo plan as it stood at the current step (derived from the stored calls up to it). */
export function ReplayPlan({ index }: { index: StepIndex }) {
  const seq = useReplayStore((s) => s.data?.items[s.cursor]?.seq ?? 0);
  const plan = planAt(index, seq);
  if (!plan || plan.length === 0) return null;
  return <PlanPanel items={plan} label="Plan at this step" />;
}
