/**
 * Settings → Checkpoints (docs/checkpoints.md): on/off, the size cap per
 * workspace, and for the open workspace the space used, the number of
 * checkpoints kept and pruned, where they live and what is never recorded.
 */
import type { CheckpointSettings } from "../../../../shared/checkpoints";
import { client, errorText } from "../../api/current";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { useCoreRead } from "../use-core-read";

const GB = 1024 * 1024 * 1024;

export function formatBytes(n: number): string {
  if (n >= GB) return `${(n / GB).toFixed(2)} GB`;
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${n} B`;
}

export function CheckpointSettingsSection({
  headingId,
  value,
  onChange,
}: {
  headingId: string;
  value: CheckpointSettings;
  onChange: (next: CheckpointSettings) => void;
}) {
  const workspaceId = useWorkspaceStore((s) => s.workspace?.id ?? null);
  const read = useCoreRead(workspaceId, () => client().call("checkpoint.status", { workspaceId: workspaceId! }));
  const status = read.value;
  const error = read.error ? errorText(read.error) : null;

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Checkpoints</h3>
      <p className="muted">
        Before a turn's first change and after every write, edit and bash call, the workspace is recorded in a private git store next to the
        sessions (never in your repository), so any step can be rewound.
      </p>
      <label className="field inline">
        <input type="checkbox" checked={value.enabled} onChange={(e) => onChange({ ...value, enabled: e.target.checked })} />
        <span>Record checkpoints</span>
      </label>
      <label className="field">
        <span>Size cap per workspace (GB; the oldest checkpoints are pruned past it)</span>
        <input
          type="number"
          aria-label="Checkpoint size cap per workspace in GB"
          min={0.05}
          step={0.5}
          value={Number((value.capBytes / GB).toFixed(2))}
          onChange={(e) => onChange({ ...value, capBytes: Math.max(0.05, Number(e.target.value) || 0.05) * GB })}
        />
      </label>
      {error && <p role="alert">{error}</p>}
      {status && (
        <div className="checkpoint-status" aria-label="Checkpoint storage">
          <p>
            This workspace: <strong>{formatBytes(status.usedBytes)}</strong> of {formatBytes(status.capBytes)} used · {status.checkpoints}{" "}
            checkpoint{status.checkpoints === 1 ? "" : "s"}
            {status.pruned > 0 && ` · ${status.pruned} pruned`}
            {status.gitVersion && ` · git ${status.gitVersion}`}
          </p>
          {!status.available && status.reason && <p className="muted">Not recording: {status.reason}.</p>}
          {status.lastError && <p className="muted">Last problem: {status.lastError}</p>}
          {status.location && (
            <p className="muted small">
              Stored in <code>{status.location}</code>
            </p>
          )}
          <details>
            <summary>Never recorded (besides the workspace's .gitignore files)</summary>
            <p className="small">
              {status.excludes.map((x, i) => (
                <span key={x}>
                  {i > 0 ? ", " : ""}
                  <code>{x}</code>
                </span>
              ))}
            </p>
          </details>
        </div>
      )}
    </section>
  );
}
