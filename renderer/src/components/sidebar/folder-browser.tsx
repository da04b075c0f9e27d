/**
 * Web mode's folder browser (Electron uses the native dialog): the core lists
 * the sub-folders of one folder (`workspace.browse`), the user walks down or
 * up, or types a path, and opens the folder shown. Folders the user may not
 * read are shown disabled.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { FolderListing } from "../../../../shared/api";
import { client } from "../../api/current";

export function FolderBrowser({
  startPath,
  onOpen,
  onCancel,
}: {
  startPath: string | null;
  onOpen: (path: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [typed, setTyped] = useState(startPath ?? "");
  const [showHidden, setShowHidden] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const go = useCallback(
    (path: string | undefined) => {
      client()
        .call("workspace.browse", path === undefined ? { showHidden } : { path, showHidden })
        .then((l) => {
          setListing(l);
          setTyped(l.path);
          setError(null);
        })
        .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
    },
    [showHidden],
  );

  // The first listing (typed path or home), and again when "show hidden" changes.
  const current = listing?.path;
  useEffect(() => {
    go(current ?? (startPath?.startsWith("/") ? startPath : undefined));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-list the same folder only when showHidden changes
  }, [go]);

  useEffect(() => {
    const prev = document.activeElement as HTMLElement | null;
    headingRef.current?.focus();
    return () => prev?.focus?.();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim()) go(typed.trim());
  };

  const name = listing ? (listing.path.split("/").filter(Boolean).pop() ?? "/") : "";
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onCancel()}>
      <div
        className="modal folder-browser"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-t`}
        onKeyDown={(e) => e.key === "Escape" && onCancel()}
      >
        <h2 id={`${id}-t`} ref={headingRef} tabIndex={-1}>
          Choose a workspace folder
        </h2>
        <form className="folder-browser-path" onSubmit={submit}>
          <input aria-label="Folder path" value={typed} onChange={(e) => setTyped(e.target.value)} spellCheck={false} />
          <button type="submit">Go</button>
        </form>
        <div className="folder-browser-nav">
          <button type="button" disabled={!listing?.parent} onClick={() => listing?.parent && go(listing.parent)}>
            Up
          </button>
          <button type="button" onClick={() => go(listing?.home)}>
            Home
          </button>
          <label>
            <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} /> Show hidden folders
          </label>
        </div>
        {error && (
          <p className="badge warn folder-browser-error" role="alert">
            {error}
          </p>
        )}
        {listing && (
          <ul className="folder-list" aria-label={`Folders in ${listing.path}`}>
            {listing.folders.length === 0 && <li className="muted">No folders here.</li>}
            {listing.folders.map((f) => (
              <li key={f.path}>
                <button
                  type="button"
                  className="list-button"
                  disabled={!f.readable}
                  title={f.readable ? f.path : `${f.path} (you may not read it)`}
                  onClick={() => go(f.path)}
                >
                  {f.name}
                </button>
              </li>
            ))}
            {listing.truncated && <li className="muted">More folders not shown: type the path above.</li>}
          </ul>
        )}
        <div className="modal-actions">
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={!listing} onClick={() => listing && onOpen(listing.path)}>
            Open {name}
          </button>
        </div>
      </div>
    </div>
  );
}
