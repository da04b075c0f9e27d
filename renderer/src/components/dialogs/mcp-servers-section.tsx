/**
 * Settings: the MCP servers of the open workspace (its `.mcp.json` and the
 * user's `mcp.json`) with their status — starting, ready with N tools, failed
 * with the tail of the server's stderr, stopped — and Restart buttons. The
 * status follows `mcp.status` events. Servers are edited in those files
 * (secrets as `${VAR}` from the environment, never stored by the app).
 *
 * A server from the workspace's `.mcp.json` came with the repository: it is
 * not started until the user reads what it runs and presses "Trust and start"
 * (docs/mcp-trust.md). Trust covers that exact entry; an edit asks again.
 */
import { useState } from "react";
import type { McpServerStatus } from "../../../../shared/api";
import { revealInvisible } from "../../../../shared/invisible-chars";
import { client } from "../../api/current";
import { useAppStore } from "../../stores/app-store";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { useMcpStatus } from "../use-mcp-status";

function stateText(s: McpServerStatus): string {
  switch (s.state) {
    case "starting":
      return "starting…";
    case "ready":
      return `ready · ${s.toolCount} tool${s.toolCount === 1 ? "" : "s"}`;
    case "failed":
      return "failed";
    case "stopped":
      return "stopped";
    case "untrusted":
      return "not trusted · not started";
  }
}

export function McpServersSection({ headingId }: { headingId: string }) {
  const workspaceId = useWorkspaceStore((s) => s.workspace?.id ?? null);
  const [status, setStatus] = useMcpStatus(workspaceId, (err) => useAppStore.getState().reportError("Could not read the MCP servers", err));
  const [busy, setBusy] = useState<string | null>(null);

  const restart = (name?: string) => {
    if (!workspaceId) return;
    setBusy(name ?? "*");
    client()
      .call("mcp.restart", name === undefined ? { workspaceId } : { workspaceId, name })
      .then(setStatus)
      .catch((err: unknown) => useAppStore.getState().reportError("Could not restart the MCP server", err))
      .finally(() => setBusy(null));
  };

  const setTrust = (servers: McpServerStatus[], trusted: boolean) => {
    if (!workspaceId || servers.length === 0) return;
    setBusy(servers.length === 1 ? servers[0].name : "*");
    client()
      .call("mcp.trust", { workspaceId, trusted, servers: servers.map((s) => ({ name: s.name, fingerprint: s.fingerprint })) })
      .then(setStatus)
      .catch((err: unknown) =>
        useAppStore.getState().reportError(trusted ? "Could not trust the MCP server" : "Could not revoke trust", err),
      )
      .finally(() => setBusy(null));
  };
  const forget = (tool: string) => {
    if (!workspaceId) return;
    setBusy(tool);
    client()
      .call("mcp.forgetTool", { workspaceId, tool })
      .then(setStatus)
      .catch((err: unknown) => useAppStore.getState().reportError("Could not forget the tool", err))
      .finally(() => setBusy(null));
  };
  const untrusted = status?.servers.filter((s) => s.state === "untrusted") ?? [];

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>MCP servers</h3>
      {!workspaceId && <p className="muted">Open a workspace to see its MCP servers.</p>}
      {status && (
        <>
          <p className="muted">
            Configured in <code>{status.files.workspace}</code> and <code>{status.files.user}</code> (<code>mcpServers</code>; write secrets
            as <code>{"${VAR}"}</code> from the environment).
          </p>
          {status.problems.map((p) => (
            <p key={p} className="badge warn" role="alert">
              {p}
            </p>
          ))}
          {untrusted.length > 0 && (
            <div className="mcp-trust-note" role="note">
              This workspace&apos;s <code>.mcp.json</code> asks to start{" "}
              {untrusted.length === 1 ? "a server" : `${untrusted.length} servers`} that came with the folder, not from you. Each one runs
              the command shown with your user&apos;s rights: start only what you recognise.
            </div>
          )}
          {status.servers.length === 0 ? (
            <p className="muted">No MCP servers configured.</p>
          ) : (
            <ul className="mcp-servers" aria-label="MCP servers">
              {status.servers.map((s) => (
                <li key={s.name} aria-label={`MCP server ${revealInvisible(s.name)}`}>
                  <strong>{revealInvisible(s.name)}</strong>{" "}
                  <span className="muted">
                    {s.transport} · {s.source}
                  </span>{" "}
                  <span className={`badge${s.state === "failed" || s.state === "untrusted" ? " warn" : ""}`} role="status">
                    {stateText(s)}
                  </span>{" "}
                  {s.state === "untrusted" ? (
                    <button type="button" disabled={busy !== null} onClick={() => setTrust([s], true)}>
                      Trust and start
                    </button>
                  ) : (
                    <button type="button" disabled={busy !== null} onClick={() => restart(s.name)}>
                      Restart
                    </button>
                  )}
                  {s.source === "workspace" && s.state !== "untrusted" && (
                    <>
                      {" "}
                      <button type="button" disabled={busy !== null} onClick={() => setTrust([s], false)}>
                        Revoke trust
                      </button>
                    </>
                  )}
                  <p className="muted mcp-launch">
                    {s.transport === "stdio" ? "Runs" : "Connects to"} <code>{revealInvisible(s.launch)}</code>
                  </p>
                  {s.source === "workspace" && <McpPins pins={s.pins} />}
                  {/* For an untrusted server: why (never trusted, or what changed since). */}
                  {s.error && <p className="muted">{s.error}</p>}
                  {s.state === "failed" && s.stderrTail && (
                    <pre aria-label={`stderr of ${s.name}`}>{s.stderrTail.trim().split("\n").slice(-8).join("\n")}</pre>
                  )}
                  {s.skippedTools.length > 0 && <p className="muted">Left out: {s.skippedTools.join("; ")}</p>}
                  {s.alwaysAllowed.length > 0 && (
                    <p className="muted small">
                      Always allowed in this workspace:{" "}
                      {s.alwaysAllowed.map((tool) => (
                        <span key={tool}>
                          <code>{tool.slice(`mcp__${s.name}__`.length)}</code>{" "}
                          <button type="button" className="link-button" disabled={busy !== null} onClick={() => forget(tool)}>
                            Forget
                          </button>{" "}
                        </span>
                      ))}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
          <button type="button" disabled={busy !== null} onClick={() => restart()}>
            Reload configuration
          </button>
        </>
      )}
    </section>
  );
}

/** What trusting the server pins (the workspace files whose change voids trust) and what it cannot. */
function McpPins({ pins }: { pins: McpServerStatus["pins"] }) {
  return (
    <p className="muted small" aria-label="Trust covers">
      {pins.files.length > 0 ? (
        <>
          Trust covers the entry and {pins.files.length === 1 ? "the file" : "the files"}{" "}
          {pins.files.map((f, i) => (
            <span key={f}>
              {i > 0 ? ", " : ""}
              <code>{f}</code>
            </span>
          ))}
          : a change to any of them asks you again.
        </>
      ) : (
        "Trust covers the entry only."
      )}
      {pins.notes.length > 0 && ` Not covered: ${pins.notes.join("; ")}.`}
    </p>
  );
}
