/**
 * "What the model saw": the exact request body behind an assistant step (the
 * boundary transform applied, as the provider received it), with the tool-call
 * ids the provider saw mapped back to the ids stored in the session. Rewritten
 * ids are listed in a table and highlighted in the body.
 */
import { memo, useMemo, useState, type ReactNode } from "react";
import type { ModelView, RequestRepairKind } from "../../../shared/review";
import { modelLabel, useModelsStore } from "../stores/models-store";
import { Dialog } from "./dialog";
import { formatDateTime } from "./replay-format";
import { useReplayStore } from "./replay-store";

/** Bodies past this many characters are cut until the reviewer asks for all of it. */
const BODY_PREVIEW_CHARS = 300_000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The JSON text split around every occurrence of a wire id (as a JSON string), each marked with its stored id. */
export function highlightIds(text: string, idMap: Readonly<Record<string, string>>, focus: string | null): ReactNode[] {
  const wire = Object.keys(idMap).sort((a, b) => b.length - a.length);
  if (wire.length === 0) return [text];
  const pattern = new RegExp(`"(${wire.map((w) => escapeRegExp(JSON.stringify(w).slice(1, -1))).join("|")})"`, "g");
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

const Body = memo(function Body({ view, focus }: { view: ModelView; focus: string | null }) {
  const [all, setAll] = useState(false);
  const text = useMemo(() => JSON.stringify(view.body, null, 2) ?? "", [view.body]);
  const shown = all ? text : text.slice(0, BODY_PREVIEW_CHARS);
  const parts = useMemo(() => highlightIds(shown, view.idMap, focus), [shown, view.idMap, focus]);
  return (
    <>
      <div className="model-view-body-head">
        <span className="muted small">{text.length.toLocaleString()} characters of JSON</span>
        <button type="button" className="link-button" onClick={() => void navigator.clipboard?.writeText(text)}>
          Copy
        </button>
      </div>
      <pre className="model-view-body" aria-label="Request body">
        {parts}
      </pre>
      {!all && text.length > BODY_PREVIEW_CHARS && (
        <button type="button" className="link-button" onClick={() => setAll(true)}>
          Show all {text.length.toLocaleString()} characters
        </button>
      )}
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
  const [focus, setFocus] = useState<string | null>(null);
  if (!state) return null;
  const view = state.view;
  const pairs = view ? Object.entries(view.idMap) : [];
  const rewritten = pairs.filter(([w, s]) => w !== s).length;
  const names = view ? Object.entries(view.toolNames).filter(([w, a]) => w !== a) : [];

  return (
    <Dialog title="What the model saw" onClose={close} wide>
      {state.status === "loading" && <p className="muted">Rebuilding the request…</p>}
      {state.status === "error" && (
        <p className="error-text" role="alert">
          Could not rebuild the request: {state.error}
        </p>
      )}
      {view && (
        <>
          <p>
            The request behind entry #{view.seq}, as <strong>{modelLabel(models, view.model)}</strong> received it ({view.model.api}), rebuilt
            from the stored history with the boundary transform. System prompt dated {formatDateTime(view.requestTime)}.
          </p>
          <h3>Left out or changed</h3>
          {view.repairs.length === 0 ? (
            <p className="muted small">Everything in the stored history before this entry was sent as stored.</p>
          ) : (
            <ul className="small" aria-label="Left out or changed">
              {view.repairs.map((r, i) => (
                <li key={i}>
                  <span className="badge warn">{REPAIR_LABELS[r.kind]}</span> {r.seq !== null ? `Entry #${r.seq}: ` : ""}
                  {r.detail}
                </li>
              ))}
            </ul>
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
                      <td>{wire !== stored ? <span className="badge warn">rewritten</span> : <span className="badge">unchanged</span>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
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
