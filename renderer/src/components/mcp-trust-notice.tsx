/**
 * A line above the composer when the workspace's `.mcp.json` names servers the
 * user has not trusted: they are not started (so their tools are missing) until
 * the user reviews them in Settings (docs/mcp-trust.md).
 */
import { revealInvisible } from "../../../shared/invisible-chars";
import { useUiStore } from "../stores/ui-store";
import { useMcpStatus } from "./use-mcp-status";

export function McpTrustNotice({ workspaceId }: { workspaceId: string | null }) {
  // The notice is a hint; Settings reports a failure to read the status.
  const [current] = useMcpStatus(workspaceId);
  const untrusted = current?.servers.filter((s) => s.state === "untrusted") ?? [];
  if (untrusted.length === 0) return null;
  const names = untrusted.map((s) => revealInvisible(s.name)).join(", ");
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
