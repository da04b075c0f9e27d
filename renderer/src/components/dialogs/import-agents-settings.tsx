/**
 * Settings → Import from other agents: the folder each agent keeps its
 * sessions in, how many session files are there, and an Import button per
 * file (into the open workspace). Importing only reads those files; an
 * imported session opens in replay and carries its agent's badge.
 */
import { useState } from "react";
import type { RequestResult } from "../../../../shared/api";
import type { FoundForeignSession } from "../../../../shared/foreign-agents";
import { client, errorText } from "../../api/current";
import { formatTime } from "../../lib/format";
import { openReplay } from "../../replay/replay-store";
import { useUiStore } from "../../stores/ui-store";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { useCoreRead } from "../use-core-read";
import { formatBytes } from "./checkpoint-settings";

/** Files shown per agent before "Show all". */
const SHOWN = 20;

export function ImportAgentsSection({ headingId }: { headingId: string }) {
  const workspace = useWorkspaceStore((s) => s.workspace);
  const [generation, setGeneration] = useState(0);
  const read = useCoreRead(`discover-${generation}`, () => client().call("importers.discover", {}));
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Record<string, { text: string; sessionId?: string; error?: boolean }>>({});
  const [all, setAll] = useState<Record<string, boolean>>({});

  const importFile = async (file: FoundForeignSession) => {
    if (!workspace) return;
    setBusy(file.path);
    try {
      const r: RequestResult<"importers.import"> = await client().call("importers.import", {
        workspaceId: workspace.id,
        agent: file.agent,
        path: file.path,
      });
      const subs = r.children.length > 0 ? ` with ${r.children.length} sub-agent session${r.children.length === 1 ? "" : "s"}` : "";
      setOutcome((o) => ({ ...o, [file.path]: { text: `Imported as “${r.session.title}”${subs}.`, sessionId: r.session.id } }));
      void useWorkspaceStore.getState().refreshSessions();
    } catch (err) {
      setOutcome((o) => ({ ...o, [file.path]: { text: `Could not import: ${errorText(err)}`, error: true } }));
    } finally {
      setBusy(null);
      setGeneration((g) => g + 1);
    }
  };

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Import from other agents</h3>
      <p className="muted">
        Sessions other coding agents saved on this machine. Importing reads the file and adds a copy to this workspace for replay, notes,
        export and forking; it never runs anything and never changes the agent&apos;s files.
      </p>
      {!workspace && <p className="muted">Open a workspace to import into.</p>}
      {read.error !== null && <p role="alert">{errorText(read.error)}</p>}
      {read.value === null && read.error === null && <p className="muted">Looking…</p>}
      {read.value?.agents.map((agent) => {
        const files = all[agent.agent] ? agent.sessions : agent.sessions.slice(0, SHOWN);
        return (
          <div key={agent.agent} className="import-agent" aria-label={`${agent.label} sessions`} role="group">
            <p>
              <strong>{agent.label}</strong> · <code>{agent.folder}</code> ·{" "}
              {agent.exists
                ? `${agent.sessions.length}${agent.truncated ? "+" : ""} session${agent.sessions.length === 1 ? "" : "s"}`
                : "folder not found"}
            </p>
            {files.length > 0 && (
              <ul className="import-files">
                {files.map((f) => {
                  const done = outcome[f.path];
                  return (
                    <li key={f.path}>
                      <code title={f.path}>{f.path.slice(agent.folder.length + 1)}</code> · {formatBytes(f.bytes)} ·{" "}
                      {formatTime(f.modifiedAt)}{" "}
                      <button type="button" disabled={busy !== null || !workspace} onClick={() => void importFile(f)}>
                        {busy === f.path ? "Importing…" : f.importedAs.length > 0 ? "Import again" : "Import"}
                      </button>
                      {f.importedAs.length > 0 && !done && <span className="muted small"> imported</span>}
                      {done && (
                        <p className="small" role={done.error ? "alert" : "status"}>
                          {done.text}{" "}
                          {done.sessionId && (
                            <button
                              type="button"
                              className="link-button"
                              onClick={() => {
                                useUiStore.getState().setSettingsOpen(false);
                                if (done.sessionId) openReplay(done.sessionId);
                              }}
                            >
                              Replay it
                            </button>
                          )}
                        </p>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
            {agent.sessions.length > SHOWN && !all[agent.agent] && (
              <button type="button" className="link-button" onClick={() => setAll((a) => ({ ...a, [agent.agent]: true }))}>
                Show all {agent.sessions.length}
              </button>
            )}
          </div>
        );
      })}
    </section>
  );
}
