/** Open a workspace: native picker in Electron, a path field and a folder browser in web mode; recent workspaces. */
import { useState, type FormEvent } from "react";
import { FolderBrowser } from "./folder-browser";
import { useAppStore } from "../../stores/app-store";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { useUiStore } from "../../stores/ui-store";

export function WorkspaceSection() {
  const mode = useAppStore((s) => s.info?.mode ?? "web");
  const workspace = useWorkspaceStore((s) => s.workspace);
  const recent = useWorkspaceStore((s) => s.recent);
  const openWorkspace = useWorkspaceStore((s) => s.openWorkspace);
  const pickWorkspace = useWorkspaceStore((s) => s.pickWorkspace);
  const setWorkspace = useWorkspaceStore((s) => s.setWorkspace);
  const [path, setPath] = useState("");
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const browsing = useUiStore((s) => s.browsingFolder);
  const setBrowsing = useUiStore((s) => s.setBrowsingFolder);

  const open = async (folder: string) => {
    setBusy(true);
    const ok = await openWorkspace(folder);
    setBusy(false);
    if (ok) {
      setPath("");
      setEditing(false);
      setBrowsing(false);
    }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (path.trim()) await open(path.trim());
  };

  const others = recent.filter((w) => w.id !== workspace?.id).slice(0, 6);
  const showForm = !workspace || editing;

  return (
    <section className="sidebar-section" aria-label="Workspace">
      {workspace && (
        <div className="workspace-current">
          <div>
            <div className="workspace-name">{workspace.name}</div>
            <div className="workspace-path muted" title={workspace.path}>
              {workspace.path}
            </div>
          </div>
          {mode === "electron" ? (
            <button type="button" onClick={() => void pickWorkspace()}>
              Open folder…
            </button>
          ) : (
            <button type="button" aria-expanded={editing} onClick={() => setEditing((v) => !v)}>
              Change…
            </button>
          )}
        </div>
      )}
      {showForm &&
        (mode === "electron" ? (
          !workspace && (
            <button type="button" className="primary wide" onClick={() => void pickWorkspace()}>
              Open folder…
            </button>
          )
        ) : (
          <>
            {/* The first screen's primary action; the path field below is for a path at hand. */}
            {!workspace && !browsing && (
              <button type="button" className="primary wide" disabled={busy} onClick={() => setBrowsing(true)}>
                Open folder…
              </button>
            )}
            <form className="workspace-form" onSubmit={(e) => void submit(e)}>
              <input
                aria-label="Workspace folder path"
                placeholder="/path/to/project"
                value={path}
                onChange={(e) => setPath(e.target.value)}
                spellCheck={false}
              />
              <button type="submit" disabled={busy || !path.trim()}>
                Open
              </button>
              <button type="button" disabled={busy} onClick={() => setBrowsing(true)}>
                Browse…
              </button>
            </form>
          </>
        ))}
      {browsing && (
        <FolderBrowser
          startPath={path.trim() || workspace?.path || null}
          onOpen={(f) => void open(f)}
          onCancel={() => setBrowsing(false)}
        />
      )}
      {others.length > 0 && (
        <details className="recent" open={!workspace}>
          <summary>Recent workspaces</summary>
          <ul aria-label="Recent workspaces">
            {others.map((w) => (
              <li key={w.id}>
                <button type="button" className="list-button" title={w.path} onClick={() => void setWorkspace(w)}>
                  <span>{w.name}</span> <span className="muted small">{w.path}</span>
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
