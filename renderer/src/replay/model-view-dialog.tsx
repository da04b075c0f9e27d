/**
 * "What the model saw": the exact request body behind an assistant step (the
 * boundary transform applied, as the provider received it), with the tool-call
 * ids the provider saw mapped back to the ids stored in the session. Rewritten
 * ids are listed in a table and highlighted in the body. A request rebuilt from
 * a long session stays quick to open: the body renders only the lines in view,
 * and a long id table or list of repairs is summarised and rendered when
 * expanded (docs/performance.md).
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { ModelViewHead, RequestRepairKind } from "../../../shared/review";
import { modelLabel, useModelsStore } from "../stores/models-store";
import { Dialog } from "./dialog";
import { useBodyLines } from "./model-view-lines";
import { PromptSourcesList } from "./prompt-sources-list";
import { formatDateTime } from "./replay-format";
import { MODEL_VIEW_HEAD_LINES, firstItemOf, lastItemAtOrBefore, useReplayStore } from "./replay-store";

/** A body of up to this many lines is rendered whole (find in page sees all of it); a longer one renders the lines in view. */
const WHOLE_BODY_LINES = MODEL_VIEW_HEAD_LINES;
/** Line height of the body (px), the virtualiser's first guess for a line that does not wrap. */
const LINE_PX = 18;
/** Characters per visual line, for the first guess of a wrapping line's height. */
const LINE_CHARS = 140;
/** An id table or list of repairs up to this many rows shows open; a longer one is summarised and rendered when expanded. */
export const OPEN_ROWS = 40;

/** A section that shows `summary` and renders its rows only once expanded (or at once when `open`). */
function Expandable({ summary, open, children }: { summary: string; open: boolean; children: () => ReactNode }) {
  const [expanded, setExpanded] = useState(open);
  if (open) return <>{children()}</>;
  return (
    <details className="model-view-more" onToggle={(e) => setExpanded(e.currentTarget.open)}>
      <summary>{summary}</summary>
      {expanded && children()}
    </details>
  );
}

/** "291 reasoning left out, 2 text repaired": the repairs counted by kind, most frequent first. */
export function repairCounts(repairs: readonly { kind: RequestRepairKind }[]): string {
  const counts = new Map<RequestRepairKind, number>();
  for (const r of repairs) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${n.toLocaleString()} ${REPAIR_LABELS[kind]}`)
    .join(", ");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One regular expression finding every wire id of the map (as a JSON string), longest first; null when there is none. */
export function idPattern(idMap: Readonly<Record<string, string>>): RegExp | null {
  const wire = Object.keys(idMap).sort((a, b) => b.length - a.length);
  if (wire.length === 0) return null;
  return new RegExp(`"(${wire.map((w) => escapeRegExp(JSON.stringify(w).slice(1, -1))).join("|")})"`, "g");
}

/** The JSON text split around every occurrence of a wire id (as a JSON string), each marked with its stored id. */
export function highlightIds(
  text: string,
  idMap: Readonly<Record<string, string>>,
  focus: string | null,
  pattern = idPattern(idMap),
): ReactNode[] {
  if (pattern === null) return [text];
  pattern.lastIndex = 0;
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const id = JSON.parse(`"${m[1]}"`) as string;
    const stored = idMap[id];
    out.push(text.slice(last, m.index + 1));
    const rewritten = stored !== id;
    out.push(
      <mark
        key={n++}
        className={`wire-id${rewritten ? " rewritten" : ""}${focus === id ? " focus" : ""}`}
        data-wire-id={id}
        data-stored-id={stored}
        title={rewritten ? `Stored id: ${stored}` : "Sent as stored"}
      >
        {m[1]}
      </mark>,
    );
    last = m.index + m[0].length - 1;
  }
  out.push(text.slice(last));
  return out;
}

/**
 * The request body, pretty-printed. A request rebuilt from a long session is
 * hundreds of thousands of characters: laying all of it out took seconds, so
 * past WHOLE_BODY_LINES only the lines in view (and a margin) are in the page,
 * each measured as it renders (long strings wrap), and read from the core as
 * they come into view (model-view-lines.ts).
 */
const Body = memo(function Body({ view, focus }: { view: ModelViewHead; focus: string | null }) {
  const sessionId = useReplayStore((s) => s.sessionId);
  const body = useBodyLines(sessionId, view.seq, view.text);
  const pattern = useMemo(() => idPattern(view.idMap), [view.idMap]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const whole = body.totalLines <= WHOLE_BODY_LINES;
  const virtualizer = useVirtualizer({
    count: body.totalLines,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => LINE_PX * Math.max(1, Math.ceil((body.line(i)?.length ?? 0) / LINE_CHARS)),
    overscan: whole ? body.totalLines : 40,
  });
  const shown = virtualizer.getVirtualItems();
  const first = shown[0]?.index ?? 0;
  const last = shown.at(-1)?.index ?? 0;
  const { ensure } = body;
  useEffect(() => ensure(first, last), [ensure, first, last]);
  return (
    <>
      <div className="model-view-body-head">
        <span className="muted small">
          {body.totalChars.toLocaleString()} characters of JSON, {body.totalLines.toLocaleString()} lines
        </span>
        <button type="button" className="link-button" onClick={() => void body.all().then((t) => navigator.clipboard?.writeText(t))}>
          Copy
        </button>
      </div>
      {body.error && (
        <p className="error-text small" role="alert">
          Could not read part of the body: {body.error}
        </p>
      )}
      <div ref={scrollRef} className="model-view-body" role="document" aria-label="Request body" tabIndex={0}>
        <div className="model-view-lines" style={{ height: virtualizer.getTotalSize() }}>
          {shown.map((v) => {
            const line = body.line(v.index);
            return (
              <div
                key={v.index}
                ref={virtualizer.measureElement}
                data-index={v.index}
                className={line === undefined ? "model-view-line pending" : "model-view-line"}
                style={{ transform: `translateY(${v.start}px)` }}
              >
                {line === undefined || line === "" ? "\u200b" : highlightIds(line, view.idMap, focus, pattern)}
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
});

const REPAIR_LABELS: Record<RequestRepairKind, string> = {
  otherReasoningDropped: "reasoning left out",
  otherReasoningDemoted: "reasoning sent as text",
  reasoningContentSupplied: "reasoning_content supplied",
  reasoningItemDropped: "reasoning item left out",
  surrogatesReplaced: "text repaired",
  imageOmitted: "image left out",
};

export function ModelViewDialog() {
  const state = useReplayStore((s) => s.modelView);
  const close = useReplayStore((s) => s.closeModelView);
  const models = useModelsStore((s) => s.models);
  const items = useReplayStore((s) => s.data?.items ?? null);
  // Steps are numbered as the timeline and the step counter number them.
  const stepOf = (seq: number): string => {
    const i = items ? firstItemOf(items, seq) : -1;
    return i >= 0 ? `step ${i + 1}` : "this step";
  };
  // A repaired entry may be folded into a step (a tool result into its call): name the step that shows it.
  const stepShowing = (seq: number): string => {
    const i = items ? firstItemOf(items, seq) : -1;
    const at = i >= 0 ? i : items ? lastItemAtOrBefore(items, seq) : -1;
    return at >= 0 ? `Step ${at + 1}: ` : "";
  };
  const [focus, setFocus] = useState<string | null>(null);
  if (!state) return null;
  const view = state.view;
  const pairs = view ? Object.entries(view.idMap) : [];
  const rewritten = pairs.filter(([w, s]) => w !== s).length;
  const names = view ? Object.entries(view.toolNames).filter(([w, a]) => w !== a) : [];

  return (
    <Dialog title="What the model saw" onClose={close} wide>
      {state.status === "loading" && <p className="muted">Loading the request…</p>}
      {state.status === "error" && (
        <p className="error-text" role="alert">
          Could not show the request: {state.error}
        </p>
      )}
      {view && (
        <>
          {view.recorded ? (
            <p>
              The request behind {stepOf(view.seq)}, as <strong>{modelLabel(models, view.model)}</strong> received it ({view.model.api}):{" "}
              <strong>recorded</strong> byte for byte when it was sent. System prompt dated {formatDateTime(view.requestTime)}.
            </p>
          ) : (
            <p>
              The request behind {stepOf(view.seq)} for <strong>{modelLabel(models, view.model)}</strong> ({view.model.api}):{" "}
              <strong>rebuilt, not recorded</strong>. This session was stored before requests were recorded (or was imported), so it is
              rebuilt from the stored history with today&apos;s instructions, tools and settings, and may differ from what was sent. System
              prompt dated {formatDateTime(view.requestTime)}.
            </p>
          )}
          <h3>Files in this request</h3>
          <PromptSourcesList sources={view.sources} stepOf={stepOf} />
          <h3>Left out or changed</h3>
          {view.repairs.length === 0 ? (
            <p className="muted small">Everything in the stored history before this entry was sent as stored.</p>
          ) : (
            <>
              {view.repairs.length > OPEN_ROWS && <p className="small">{repairCounts(view.repairs)}.</p>}
              <Expandable summary={`Show all ${view.repairs.length.toLocaleString()}`} open={view.repairs.length <= OPEN_ROWS}>
                {() => (
                  <ul className="small" aria-label="Left out or changed">
                    {view.repairs.map((r, i) => (
                      <li key={i}>
                        <span className="badge warn">{REPAIR_LABELS[r.kind]}</span> {r.seq !== null ? stepShowing(r.seq) : ""}
                        {r.detail}
                      </li>
                    ))}
                  </ul>
                )}
              </Expandable>
            </>
          )}
          <h3>Tool-call ids</h3>
          {pairs.length === 0 ? (
            <p className="muted small">This request carried no tool calls.</p>
          ) : (
            <>
              <p className="small">
                {rewritten === 0
                  ? "Every id was sent as stored."
                  : `${rewritten} of ${pairs.length} id${pairs.length === 1 ? " was" : "s were"} rewritten for this provider; the mapping lived for this one request only.`}
              </p>
              <Expandable summary={`Show all ${pairs.length.toLocaleString()} ids`} open={pairs.length <= OPEN_ROWS}>
                {() => (
                  <table className="id-map" aria-label="Tool-call ids: sent and stored">
                    <thead>
                      <tr>
                        <th scope="col">Sent to the provider</th>
                        <th scope="col">Stored in the session</th>
                        <th scope="col" />
                      </tr>
                    </thead>
                    <tbody>
                      {pairs.map(([wire, stored]) => (
                        <tr
                          key={wire}
                          className={wire !== stored ? "rewritten" : undefined}
                          onMouseEnter={() => setFocus(wire)}
                          onMouseLeave={() => setFocus(null)}
                        >
                          <td>
                            <code>{wire}</code>
                          </td>
                          <td>
                            <code>{stored}</code>
                          </td>
                          <td>
                            {wire !== stored ? <span className="badge warn">rewritten</span> : <span className="badge">unchanged</span>}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </Expandable>
            </>
          )}
          {names.length > 0 && (
            <>
              <h3>Tool names</h3>
              <ul className="small">
                {names.map(([w, a]) => (
                  <li key={w}>
                    <code>{w}</code> → <code>{a}</code>
                  </li>
                ))}
              </ul>
            </>
          )}
          <h3>Request body</h3>
          <Body view={view} focus={focus} />
        </>
      )}
    </Dialog>
  );
}
