/**
 * The model switcher: models that can run now grouped by provider, then those
 * that cannot (key missing, local server down) under them, marked; picking one
 * of those asks first. Opens on the current model with the filter focused.
 * Switching mid-session inserts a marker and applies from the next request.
 * Keyboard: arrows, Enter, Escape.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { ModelOption } from "../../../shared/api";
import type { ModelRef } from "../../../shared/protocol";
import { formatContextWindow, formatPrice } from "../lib/format";
import { missingCredential, modelLabel, modelRefOf, notReadyReason, pickerGroups, sameModel, useModelsStore } from "../stores/models-store";
import { useUiStore } from "../stores/ui-store";

const LOCAL_NOTE: Record<NonNullable<ModelOption["local"]> | "unknown", string> = {
  installed: "",
  notInstalled: ", not installed on the server",
  unreachable: ", server not running",
  unknown: "",
};

/** Whether picking the model can work now: its key, or for a local server whether it has the model. */
function ReadinessBadge({ model }: { model: ModelOption }) {
  if (model.local === "installed") return <span className="badge ok">installed</span>;
  if (model.local === "notInstalled") return <span className="badge">not installed</span>;
  if (model.local === "unreachable") return <span className="badge warn">server not running</span>;
  return model.configured ? <span className="badge ok">configured</span> : <span className="badge warn">{missingCredential(model)}</span>;
}

export function ModelSwitcher({ current, onSelect }: { current: ModelRef | null; onSelect: (model: ModelRef) => void }) {
  const models = useModelsStore((s) => s.models);
  const open = useUiStore((s) => s.modelMenuOpen);
  const setOpen = useUiStore((s) => s.setModelMenuOpen);
  const [filter, setFilter] = useState("");
  /** The highlighted row, by model (not by position: local servers answering reorder the list while it is open). */
  const [activeId, setActiveId] = useState<string | null>(null);
  /** A model that cannot run now, waiting for "Use anyway". */
  const [confirming, setConfirming] = useState<ModelOption | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const filterRef = useRef<HTMLInputElement>(null);

  const groups = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const list = q ? models.filter((m) => `${m.name} ${m.id} ${m.providerLabel}`.toLowerCase().includes(q)) : models;
    return pickerGroups(list);
  }, [models, filter]);
  const flat = useMemo(() => groups.flatMap((g) => g.models), [groups]);
  const active = Math.max(
    0,
    flat.findIndex((m) => optionId(m) === activeId),
  );
  const setActive = (update: number | ((i: number) => number)) => {
    const next = typeof update === "number" ? update : update(active);
    setActiveId(flat[next] ? optionId(flat[next]) : null);
  };

  // On opening: a fresh filter on the current model (its row in the grouped order the rows are numbered in),
  // and the local servers asked what they have installed (the list updates when they answer, without resetting
  // what the user typed meanwhile).
  useEffect(() => {
    if (!open) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the filter is cleared each time the picker opens
    setFilter("");
    setConfirming(null);
    const { models: now, refresh } = useModelsStore.getState();
    const currentOption = now.find((m) => sameModel(modelRefOf(m), current));
    setActiveId(currentOption ? optionId(currentOption) : null);
    filterRef.current?.focus();
    // The current model in the middle of the list, the filter above it in view.
    const frame = requestAnimationFrame(() =>
      listRef.current?.querySelector(".model-option.selected")?.scrollIntoView({ block: "center" }),
    );
    void refresh();
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!listRef.current?.contains(t) && !buttonRef.current?.contains(t)) setOpen(false);
    };
    window.addEventListener("mousedown", onDown);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("mousedown", onDown);
    };
  }, [open, current, setOpen]);

  useEffect(() => {
    if (open) listRef.current?.querySelector(`[data-idx="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active, open]);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const apply = (m: ModelOption) => {
    setOpen(false);
    setConfirming(null);
    buttonRef.current?.focus();
    if (!sameModel(modelRefOf(m), current)) onSelect(modelRefOf(m));
  };
  const choose = (m: ModelOption) => {
    if (notReadyReason(m) !== null && !sameModel(modelRefOf(m), current)) setConfirming(m);
    else apply(m);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (confirming) {
      if (e.key !== "Escape") return;
      setConfirming(null);
      filterRef.current?.focus();
      e.preventDefault();
      return;
    }
    if (e.key === "ArrowDown") setActive((i) => Math.min(flat.length - 1, i + 1));
    else if (e.key === "ArrowUp") setActive((i) => Math.max(0, i - 1));
    else if (e.key === "Enter" && flat[active]) choose(flat[active]);
    else if (e.key === "Escape") {
      setOpen(false);
      buttonRef.current?.focus();
    } else return;
    e.preventDefault();
  };

  const label = modelLabel(models, current);
  return (
    <div className="model-switcher">
      <button
        ref={buttonRef}
        type="button"
        className="model-button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`Model: ${label}. Change model`}
        onClick={() => setOpen(!open)}
      >
        <span className="model-name">{label}</span> <span aria-hidden>▾</span>
      </button>
      {open && (
        <div className="model-menu" ref={listRef} onKeyDown={onKeyDown}>
          {confirming && (
            <div className="model-confirm" role="alertdialog" aria-label="Model not ready" aria-describedby="model-confirm-text">
              <p id="model-confirm-text">
                <strong>{confirming.name}</strong> cannot run now: {notReadyReason(confirming)}. A message sent with it will fail until that
                is fixed{confirming.configured ? "" : " in Settings"}.
              </p>
              <div className="model-confirm-actions">
                <button ref={confirmRef} type="button" onClick={() => apply(confirming)}>
                  Use anyway
                </button>
                <button
                  type="button"
                  onClick={() => {
                    setConfirming(null);
                    filterRef.current?.focus();
                  }}
                >
                  Cancel
                </button>
              </div>
            </div>
          )}
          <input
            ref={filterRef}
            className="model-filter"
            aria-label="Filter models"
            placeholder="Filter models…"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value);
              setActive(0);
            }}
          />
          <div
            role="listbox"
            className="model-list"
            aria-label="Models"
            aria-activedescendant={flat[active] ? optionId(flat[active]) : undefined}
            tabIndex={-1}
          >
            {groups.length === 0 && <p className="muted">No model matches.</p>}
            {groups.map((g, gi) => (
              <div
                key={`${g.ready ? "ready" : "later"}-${g.provider}`}
                role="group"
                aria-label={g.ready ? g.label : `${g.label} (not ready)`}
                className={`model-group${g.ready ? "" : " not-ready"}`}
              >
                {!g.ready && groups[gi - 1]?.ready !== false && (
                  <div className="model-section-label" aria-hidden>
                    Not ready now: key missing or server not running
                  </div>
                )}
                <div className="model-group-label" aria-hidden>
                  {g.label}
                </div>
                {g.models.map((m) => {
                  const idx = flat.indexOf(m);
                  const selected = sameModel(modelRefOf(m), current);
                  return (
                    <div
                      key={`${m.provider}/${m.api}/${m.id}`}
                      id={optionId(m)}
                      data-idx={idx}
                      role="option"
                      aria-selected={selected}
                      aria-label={`${m.name} (${m.providerLabel})${m.configured ? "" : m.api === "bedrock-converse-stream" ? ", AWS credentials missing" : ", API key missing"}${LOCAL_NOTE[m.local ?? "unknown"]}${
                        m.discovered ? ", listed by the provider, not in the catalog" : ""
                      }${m.priceUnknown ? ", price unknown" : ""}`}
                      className={`model-option${idx === active ? " active" : ""}${selected ? " selected" : ""}`}
                      // Move, not enter: a menu opening under a resting pointer must keep the current model highlighted.
                      onMouseMove={() => idx !== active && setActive(idx)}
                      onClick={() => choose(m)}
                      title={notReadyReason(m) ? `Cannot run now: ${notReadyReason(m)}` : undefined}
                    >
                      <div className="model-option-main">
                        <span className="name">{m.name}</span>
                        {selected && <span className="badge ok">current</span>}
                        <ReadinessBadge model={m} />
                        {m.demo && <span className="badge">demo</span>}
                        {m.discovered && (
                          <span className="badge" title="Listed by the provider's models endpoint; the catalog does not know it yet">
                            not in catalog
                          </span>
                        )}
                      </div>
                      <div className="model-option-meta muted">
                        <span>{m.id}</span> · <span>{formatContextWindow(m.contextWindow)} context</span> ·{" "}
                        {m.priceUnknown ? (
                          <span>price unknown</span>
                        ) : (
                          <span>
                            {formatPrice(m.price.input)} / {formatPrice(m.price.output)} per M tokens
                          </span>
                        )}
                        {m.reasoning && <> · reasoning</>}
                      </div>
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

function optionId(m: ModelOption): string {
  return `model-${m.provider}-${m.api}-${m.id}`.replace(/[^a-zA-Z0-9_-]/g, "_");
}
