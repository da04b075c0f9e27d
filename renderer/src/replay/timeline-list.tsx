/**
 * The replay timeline: every item of the session (or those passing the
 * filters), virtualised with fixed-height rows so a 10,000-entry session keeps
 * a few dozen rows in the DOM. A step re-renders only the two rows whose
 * `active` flag changed.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useLayoutEffect, useRef } from "react";
import type { ModelOption } from "../../../shared/api";
import { revealInvisible } from "../../../shared/invisible-chars";
import type { NoteVerdict, TimelineItem } from "../../../shared/review";
import { formatCost, formatTokens, timeAttribute } from "../lib/format";
import { EntryBoundary } from "../components/error-boundary";
import { modelLabel, useModelsStore } from "../stores/models-store";
import { KIND_LABEL, OUTCOME_LABEL, formatClock, formatLatency } from "./replay-format";
import { useReplayStore } from "./replay-store";
import { visiblePosition } from "./step-view";

const ROW_PX = 46;

/** The note marker of an entry: the worst verdict wins (problem, then ok, then a plain note). */
export type NoteMark = NoteVerdict | "note" | null;

function noteMarks(notes: readonly { seq: number; verdict: NoteVerdict | null }[]): Map<number, NoteMark> {
  const rank = { problem: 3, ok: 2, note: 1 } as const;
  const out = new Map<number, NoteMark>();
  for (const n of notes) {
    const mark = n.verdict ?? "note";
    const prev = out.get(n.seq);
    if (!prev || rank[mark] > rank[prev]) out.set(n.seq, mark);
  }
  return out;
}

export function itemLabel(item: TimelineItem): string {
  return `Step ${item.index + 1}, ${KIND_LABEL[item.kind]}: ${revealInvisible(item.summary)}`;
}

const TimelineRow = memo(function TimelineRow({
  item,
  active,
  mark,
  start,
  models,
  onJump,
}: {
  item: TimelineItem;
  active: boolean;
  mark: NoteMark;
  start: number;
  models: readonly ModelOption[];
  onJump: (index: number) => void;
}) {
  const outcome = item.outcome && item.kind !== "user" ? OUTCOME_LABEL[item.outcome] : null;
  return (
    <div
      id={`replay-step-${item.index}`}
      role="option"
      aria-selected={active}
      aria-label={itemLabel(item)}
      data-kind={item.kind}
      data-seq={item.seq}
      className={`tl-row kind-${item.kind}${active ? " active" : ""}${item.isError ? " is-error" : ""}`}
      style={{ transform: `translateY(${start}px)`, height: ROW_PX }}
      onClick={() => onJump(item.index)}
    >
      <div className="tl-line">
        <span className="tl-kind">{KIND_LABEL[item.kind]}</span>
        <span className="tl-summary">{revealInvisible(item.summary)}</span>
        {mark && (
          <span className={`tl-note note-${mark}`} title={mark === "note" ? "Has a reviewer note" : `Reviewer verdict: ${mark}`}>
            {mark === "problem" ? "✗" : mark === "ok" ? "✓" : "✎"}
          </span>
        )}
      </div>
      <div className="tl-meta">
        <span className="tl-index">#{item.index + 1}</span>
        <time dateTime={timeAttribute(item.timestamp)}>{formatClock(item.timestamp)}</time>
        {item.model && <span>{modelLabel(models, item.model)}</span>}
        {item.tokens && item.tokens.total > 0 && <span>{formatTokens(item.tokens.total)} tok</span>}
        {item.cost !== null && item.cost > 0 && <span>{formatCost(item.cost)}</span>}
        {item.latencyMs !== null && <span title="Latency">{formatLatency(item.latencyMs)}</span>}
        {outcome && <span className={item.isError ? "error-text" : undefined}>{outcome}</span>}
      </div>
    </div>
  );
});

export function TimelineList() {
  const items = useReplayStore((s) => s.data?.items ?? EMPTY);
  const visible = useReplayStore((s) => s.visible);
  const cursor = useReplayStore((s) => s.cursor);
  const notes = useReplayStore((s) => s.notes);
  const jump = useReplayStore((s) => s.jump);
  const models = useModelsStore((s) => s.models);
  const scrollRef = useRef<HTMLDivElement>(null);
  const marksRef = useRef<{ notes: unknown; marks: Map<number, NoteMark> }>({ notes: null, marks: new Map() });
  if (marksRef.current.notes !== notes) marksRef.current = { notes, marks: noteMarks(notes) };
  const marks = marksRef.current.marks;

  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_PX,
    overscan: 12,
    getItemKey: (i) => visible[i],
  });

  const pos = visiblePosition(visible, cursor);
  // Keep the current step in view, before paint. Rows have a fixed height, so
  // this needs no layout read: the offset and viewport are the virtualizer's
  // cached readings, and only a row out of view writes scrollTop.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (pos < 0 || !el) return;
    const top = pos * ROW_PX;
    const offset = virtualizer.scrollOffset ?? 0;
    const viewport = virtualizer.scrollRect?.height ?? el.clientHeight;
    if (top < offset) el.scrollTop = top;
    else if (top + ROW_PX > offset + viewport) el.scrollTop = top + ROW_PX - viewport;
  }, [pos, visible, virtualizer]);

  return (
    <div
      ref={scrollRef}
      className="tl-scroll"
      role="listbox"
      aria-label="Timeline"
      aria-activedescendant={pos >= 0 ? `replay-step-${cursor}` : undefined}
      tabIndex={0}
    >
      {visible.length === 0 && <p className="muted pad">No step matches the filters.</p>}
      <div className="tl-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const item = items[visible[v.index]];
          return (
            <EntryBoundary
              key={item.index}
              label={`step ${item.index + 1} (entry ${item.seq})`}
              resetKey={item}
              className="tl-row"
              style={{ transform: `translateY(${v.start}px)`, height: ROW_PX }}
            >
              <TimelineRow
                item={item}
                active={item.index === cursor}
                mark={marks.get(item.seq) ?? null}
                start={v.start}
                models={models}
                onJump={jump}
              />
            </EntryBoundary>
          );
        })}
      </div>
    </div>
  );
}

const EMPTY: TimelineItem[] = [];
