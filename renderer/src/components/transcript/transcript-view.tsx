/**
 * The virtualised transcript. Only rows near the viewport are in the DOM;
 * their heights are measured as they render. The view sticks to the bottom
 * while the user is there (streaming), and stays put when they scroll up.
 *
 * Reusable read-only (replay): pass `readOnly` and only the actions that fit.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { AssistantMessage } from "../../../../shared/protocol";
import type { ModeChange, ModelOption } from "../../../../shared/api";
import { afterNextPaint } from "../../lib/after-paint";
import { modeMarkersByRow } from "../../lib/mode-markers";
import { rowForSeq, type TranscriptModel, type TranscriptRow } from "../../lib/transcript-model";
import type { LiveToolStatus } from "../../stores/transcript-store";
import {
  CompactionRow,
  ForkRow,
  ModeChangeRow,
  ModelSwitchRow,
  OrphanApprovalRow,
  OrphanResultRow,
  DamagedRow,
  ReasoningChangeRow,
  RenameRow,
} from "./marker-rows";
import { EntryBoundary } from "../error-boundary";
import { AssistantRow, UserRow } from "./message-rows";
import { PlanEditRow } from "../plan/plan-list";
import { TranscriptContext, type TranscriptActions, type TranscriptContextValue } from "./transcript-context";

export interface TranscriptViewProps {
  /** The session shown (its sub-agents' sessions are found by it). */
  sessionId?: string | null;
  model: TranscriptModel;
  partial: AssistantMessage | null;
  toolStatus: Readonly<Record<string, LiveToolStatus>>;
  models: readonly ModelOption[];
  pendingApprovalId?: string | null;
  running?: boolean;
  readOnly?: boolean;
  actions?: TranscriptActions;
  /** Scroll to (and highlight) the row holding this seq. */
  focusSeq?: number | null;
  onFocused?: () => void;
  /** Ask mode switched on or off: drawn after the row of the entry before each switch. */
  modeChanges?: readonly ModeChange[];
  /** Rendered after the last row (turn errors, queued messages). */
  footer?: ReactNode;
  emptyText?: string;
}

function RowView({ row }: { row: TranscriptRow }) {
  switch (row.kind) {
    case "user":
      return <UserRow message={row.message} seq={row.seq} />;
    case "assistant":
      return <AssistantRow message={row.message} seq={row.seq} attempts={row.attempts} />;
    case "modelSwitch":
      return <ModelSwitchRow entry={row.entry} />;
    case "reasoningChange":
      return <ReasoningChangeRow entry={row.entry} />;
    case "compaction":
      return <CompactionRow entry={row.entry} />;
    case "rename":
      return <RenameRow entry={row.entry} />;
    case "fork":
      return <ForkRow entry={row.entry} />;
    case "orphanResult":
      return <OrphanResultRow message={row.message} />;
    case "orphanApproval":
      return <OrphanApprovalRow entry={row.entry} />;
    case "planEdit":
      return <PlanEditRow entry={row.entry} />;
    case "damaged":
      return <DamagedRow damaged={row.damaged} />;
  }
}

const ROW_LABEL: Record<TranscriptRow["kind"], string> = {
  user: "message of yours",
  assistant: "assistant message",
  modelSwitch: "model switch",
  reasoningChange: "reasoning change",
  compaction: "compaction",
  rename: "rename",
  fork: "fork marker",
  orphanResult: "tool result",
  orphanApproval: "approval",
  planEdit: "plan edit",
  damaged: "damaged entry",
};

/** What a row's boundary names when the row cannot render: "entry 12 (assistant message)". */
export function rowLabel(row: TranscriptRow): string {
  return `entry ${row.seq} (${ROW_LABEL[row.kind]})`;
}

const STICK_THRESHOLD_PX = 48;
const ESTIMATED_ROW_PX = 160;
/** Rows rendered beyond each edge of the view: none for the first paint, then enough for smooth scrolling. */
const FIRST_OVERSCAN = 0;
const OVERSCAN = 4;

export function TranscriptView(props: TranscriptViewProps) {
  const { model, partial, footer, modeChanges } = props;
  const modeMarkers = useMemo(() => modeMarkersByRow(model.rows, modeChanges ?? []), [model.rows, modeChanges]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickRef = useRef(true);
  const scrolledOnce = useRef(false);
  const [highlight, setHighlight] = useState<number | null>(null);

  const hasPartial = partial !== null;
  const hasFooter = footer !== undefined && footer !== null && footer !== false;
  const count = model.rows.length + (hasPartial ? 1 : 0) + (hasFooter ? 1 : 0);

  // Before the view is laid out its height is unknown: take the window's. The first render then already
  // holds the rows the view shows (by estimate), so they are laid out and measured at once, instead of
  // one row rendered, a layout, then the rest rendered and laid out again.
  const [initialRect] = useState(() => ({ width: window.innerWidth, height: window.innerHeight }));
  // Rows just outside the view (for smooth scrolling) are added once the first frame is painted:
  // the first paint renders, sanitizes and lays out only what it shows.
  const [overscan, setOverscan] = useState(FIRST_OVERSCAN);
  useEffect(() => {
    if (overscan !== FIRST_OVERSCAN) return;
    return afterNextPaint(() => setOverscan(OVERSCAN));
  }, [overscan]);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan,
    initialRect,
    // Open at the bottom (the latest messages), not at the top and then jump.
    initialOffset: () => (props.focusSeq == null ? Math.max(0, count * ESTIMATED_ROW_PX - initialRect.height) : 0),
    getItemKey: (i) => (i < model.rows.length ? model.rows[i].key : i === model.rows.length && hasPartial ? "partial" : "footer"),
  });

  const ctx: TranscriptContextValue = useMemo(
    () => ({
      results: model.results,
      approvals: model.approvals,
      toolStatus: props.toolStatus,
      pendingApprovalId: props.pendingApprovalId ?? null,
      running: props.running ?? false,
      readOnly: props.readOnly ?? false,
      models: props.models,
      actions: props.actions ?? {},
      sessionId: props.sessionId ?? null,
    }),
    [
      model.results,
      model.approvals,
      props.toolStatus,
      props.pendingApprovalId,
      props.running,
      props.readOnly,
      props.models,
      props.actions,
      props.sessionId,
    ],
  );

  const totalSize = virtualizer.getTotalSize();

  // Follow the bottom while the user is there. Uses the virtualizer's cached
  // sizes, and writes scrollTop only when it must (each write forces a layout).
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || !stickRef.current || props.focusSeq != null) return;
    const viewport = virtualizer.scrollRect?.height ?? el.clientHeight;
    const bottom = Math.max(0, totalSize - viewport);
    if (!scrolledOnce.current || Math.abs((virtualizer.scrollOffset ?? 0) - bottom) > 1) {
      scrolledOnce.current = true;
      el.scrollTop = bottom;
    }
  }, [totalSize, count, partial, props.focusSeq, virtualizer]);

  // Whether the user is at the bottom, from the virtualizer's own reading of the
  // scroll position (no extra layout). Registered after the virtualizer's listener.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onScroll = () => {
      const viewport = virtualizer.scrollRect?.height ?? 0;
      stickRef.current = virtualizer.getTotalSize() - (virtualizer.scrollOffset ?? 0) - viewport < STICK_THRESHOLD_PX;
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, [virtualizer]);

  // A message the user just sent brings the view back to the bottom.
  const lastRow = model.rows[model.rows.length - 1];
  const lastUserKey = lastRow?.kind === "user" ? lastRow.key : null;
  useLayoutEffect(() => {
    if (lastUserKey !== null && scrolledOnce.current) stickRef.current = true;
  }, [lastUserKey]);

  // An answered approval brings the view back to the bottom too: what follows is the outcome the user waits for.
  const pendingApprovalId = props.pendingApprovalId ?? null;
  const shownApproval = useRef(pendingApprovalId);
  useLayoutEffect(() => {
    if (shownApproval.current !== null && pendingApprovalId !== shownApproval.current && scrolledOnce.current) stickRef.current = true;
    shownApproval.current = pendingApprovalId;
  }, [pendingApprovalId]);

  // Jump to a search hit.
  useEffect(() => {
    if (props.focusSeq == null || model.rows.length === 0) return;
    const idx = rowForSeq(model, props.focusSeq);
    if (idx === null) return;
    stickRef.current = false;
    virtualizer.scrollToIndex(idx, { align: "center" });
    setHighlight(idx);
    props.onFocused?.();
    const t = setTimeout(() => setHighlight(null), 2500);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per requested seq (and when its rows arrive); new model or virtualizer objects must not re-scroll
  }, [props.focusSeq, model.rows.length]);

  const items = virtualizer.getVirtualItems();

  return (
    <TranscriptContext.Provider value={ctx}>
      <div className="transcript-scroll" ref={scrollRef} role="log" aria-label="Transcript" aria-live="off" tabIndex={0}>
        {count === 0 && <p className="empty">{props.emptyText ?? "No messages yet."}</p>}
        <div className="transcript-inner" style={{ height: totalSize }}>
          {items.map((item) => {
            const i = item.index;
            let content: ReactNode;
            // Each row renders on its own: one that throws (whatever its entry holds) becomes a row saying so.
            if (i < model.rows.length) {
              const row = model.rows[i];
              const markers = modeMarkers.get(i);
              content = (
                <>
                  <EntryBoundary label={rowLabel(row)} resetKey={row}>
                    <RowView row={row} />
                  </EntryBoundary>
                  {markers && (
                    <EntryBoundary label="Ask mode marker" resetKey={markers}>
                      {markers.map((m) => (
                        <ModeChangeRow key={`${m.afterSeq}-${m.timestamp}`} change={m} />
                      ))}
                    </EntryBoundary>
                  )}
                </>
              );
            } else if (i === model.rows.length && partial) {
              content = (
                <EntryBoundary label="streaming answer" resetKey={partial}>
                  <AssistantRow message={partial} seq={null} streaming />
                </EntryBoundary>
              );
            } else content = <EntryBoundary label="turn status">{footer}</EntryBoundary>;
            return (
              <div
                key={item.key}
                data-index={i}
                ref={virtualizer.measureElement}
                className={`row${highlight === i ? " highlighted" : ""}`}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {content}
              </div>
            );
          })}
        </div>
      </div>
    </TranscriptContext.Provider>
  );
}
