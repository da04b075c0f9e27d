/**
 * The MCP status of a workspace, kept current by `mcp.status` events: read
 * once, then followed. `set` lets a caller apply the status an action
 * (restart, trust) answered with. A status of another workspace is ignored.
 */
import { useEffect, useState } from "react";
import type { McpStatus } from "../../../shared/api";
import { client } from "../api/current";

export function useMcpStatus(workspaceId: string | null, onReadError?: (err: unknown) => void) {
  const [status, setStatus] = useState<McpStatus | null>(null);
  useEffect(() => {
    if (!workspaceId) return;
    let live = true;
    client()
      .call("mcp.status", { workspaceId })
      .then((s) => live && setStatus(s))
      .catch((err: unknown) => onReadError?.(err));
    const off = client().on("mcp.status", (s) => {
      if (s.workspaceId === workspaceId) setStatus(s);
    });
    return () => {
      live = false;
      off();
    };
    // onReadError is a reporter, not an input: a new function each render must not re-subscribe.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [workspaceId]);
  return [status && status.workspaceId === workspaceId ? status : null, setStatus] as const;
}
