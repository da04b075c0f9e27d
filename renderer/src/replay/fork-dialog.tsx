/**
 * Fork onto another model: a new session holding the entries up to the
 * current step, switched to the chosen model, opened in the normal view so the
 * conversation can continue there. The fork links back to this session.
 */
import { useState } from "react";
import type { ModelRef } from "../../../shared/protocol";
import { ModelSwitcher } from "../components/model-switcher";
import { modelLabel, useModelsStore } from "../stores/models-store";
import { Dialog } from "./dialog";
import { useReplayStore } from "./replay-store";

export function ForkDialog() {
  const open = useReplayStore((s) => s.forkOpen);
  const setOpen = useReplayStore((s) => s.setForkOpen);
  const fork = useReplayStore((s) => s.fork);
  const item = useReplayStore((s) => s.data?.items[s.cursor] ?? null);
  const models = useModelsStore((s) => s.models);
  const [model, setModel] = useState<ModelRef | null>(null);
  const [busy, setBusy] = useState(false);
  if (!open || !item) return null;

  return (
    <Dialog title="Fork onto another model" onClose={() => setOpen(false)}>
      <p>
        A new session with the entries up to step {item.index + 1}, switched to the model you choose. It opens in the normal view, where you
        can continue the conversation; it links back to this session.
      </p>
      {item.model && (
        <p className="muted small">
          At this step the session used <strong>{modelLabel(models, item.model)}</strong>.
        </p>
      )}
      <div className="fork-model">
        <span>Continue with</span> <ModelSwitcher current={model} onSelect={setModel} />
      </div>
      <div className="modal-actions">
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={!model || busy}
          onClick={() => {
            if (!model) return;
            setBusy(true);
            void fork(model).finally(() => setBusy(false));
          }}
        >
          {busy ? "Forking…" : "Fork and continue"}
        </button>
      </div>
    </Dialog>
  );
}
