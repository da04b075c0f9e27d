/**
 * Settings → Bash sandbox (docs/tool-sandbox.md#bash-in-the-os-sandbox):
 * which OS sandbox this machine offers (or plainly that none works, and why),
 * what to do without one, and whether sandboxed commands get the network.
 */
import { useEffect, useState } from "react";
import type { BashSandboxSettings, BashSandboxStatus } from "../../../../shared/api";
import { client, errorText } from "../../api/current";

const NAMES: Record<BashSandboxStatus["kind"], string> = { bwrap: "bubblewrap", "sandbox-exec": "sandbox-exec", none: "none" };

export function BashSandboxSection({
  headingId,
  value,
  onChange,
}: {
  headingId: string;
  value: BashSandboxSettings;
  onChange: (next: BashSandboxSettings) => void;
}) {
  const [status, setStatus] = useState<BashSandboxStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    client()
      .call("tools.sandboxStatus", {})
      .then(setStatus, (e: unknown) => setError(errorText(e)));
  }, []);

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Bash sandbox</h3>
      <p className={status?.kind === "none" ? "sandbox-status unsandboxed" : "sandbox-status muted"} aria-label="Sandbox status">
        {error
          ? `Could not check the sandbox: ${error}`
          : !status
            ? "Checking…"
            : status.kind === "none"
              ? `Not available: ${status.reason ?? "no sandbox"}. Commands run unsandboxed unless you require the sandbox below.`
              : `Available: ${NAMES[status.kind]}. Commands can write only in the workspace, secret folders are hidden.`}
      </p>
      <label className="field">
        Commands run
        <select value={value.mode} onChange={(e) => onChange({ ...value, mode: e.target.value as BashSandboxSettings["mode"] })}>
          <option value="auto">in the sandbox where there is one, else unsandboxed (the approval card says so)</option>
          <option value="required">only in the sandbox (refused where there is none)</option>
          <option value="off">never sandboxed</option>
        </select>
      </label>
      <label className="field">
        <input type="checkbox" checked={value.network} onChange={(e) => onChange({ ...value, network: e.target.checked })} /> Allow network
        inside the sandbox
      </label>
    </section>
  );
}
