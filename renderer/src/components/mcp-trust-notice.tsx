/**
 * A line above the composer when the workspace's `.mcp.json` names servers the
 * user has not trusted: they are not started (so their tools are missing) until
 * the user reviews them in Settings (docs/mcp-trust.md).
 */
import { useEffect, useState } from "react";
import type { McpStatus } from "../../../shared/api";
import { client } from "../api/current";
import { useUiStore } from "../stores/ui-store";

export function McpTrustNotice({ workspaceId }: { workspaceId: string | null }) {
  const [status, setStatus] = useState<McpStatus | null>(null);

  useEffect(() => {
    if (!workspaceId) return;
    let live = true;
    client()
      .call("mcp.status", { workspaceId })
      .then((s) => live && setStatus(s))
      // The notice is a hint; Settings reports a failure to read the status.
      .catch(() => undefined);
    const off = client().on("mcp.status", (s) => {
      if (s.workspaceId === workspaceId) setStatus(s);
    });
    return () => {
      live = false;
      off();
    };
  }, [workspaceId]);

  // A status of the previous workspace is ignored until this one's arrives.
  const current = status && status.workspaceId === workspaceId ? status : null;
  const untrusted = current?.servers.filter((s) => s.state === "untrusted") ?? [];
  if (untrusted.length === 0) return null;
  const names = untrusted.map((s) => s.name).join(", ");
  return (
    <div className="mcp-trust-notice" role="status" aria-label="Untrusted MCP servers">
      <span>
        This workspace&apos;s <code>.mcp.json</code> asks to start{" "}
        {untrusted.length === 1 ? "an MCP server" : `${untrusted.length} MCP servers`} (<strong>{names}</strong>).{" "}
        {untrusted.length === 1 ? "It is" : "They are"} not started until you trust {untrusted.length === 1 ? "it" : "them"}.
      </span>{" "}
      <button type="button" className="link-button" onClick={() => useUiStore.getState().setSettingsOpen(true)}>
        Review in Settings
      </button>
    </div>
  );
}
