/**
 * The diff panel beside the transcript (over it in a narrow window, where
 * Escape closes it). Monaco is loaded on first open and one diff editor is
 * kept for the panel's lifetime; each selection swaps its models.
 */
import { useEffect, useRef, useState } from "react";
import { isDialogOpen } from "../../lib/keyboard";
import { isNarrowLayout } from "../../lib/layout";
import { useUiStore } from "../../stores/ui-store";
import { useDarkMode } from "../use-theme";
import type { DiffHost } from "./monaco-diff";

export function DiffPanel() {
  const diff = useUiStore((s) => s.diff);
  const open = useUiStore((s) => s.diffOpen);
  const mode = useUiStore((s) => s.diffMode);
  const setMode = useUiStore((s) => s.setDiffMode);
  const closeDiff = useUiStore((s) => s.closeDiff);
  const dark = useDarkMode();
  const containerRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<DiffHost | null>(null);
  const [status, setStatus] = useState<"idle" | "loading" | "ready" | "error">("idle");
  const [loadError, setLoadError] = useState<string | null>(null);

  const loadingRef = useRef(false);
  // Create the editor lazily, the first time the panel opens with something to show.
  useEffect(() => {
    if (!open || !diff || hostRef.current || loadingRef.current) return;
    loadingRef.current = true;
    setStatus("loading");
    import("./monaco-diff")
      .then(({ createDiffHost }) => {
        loadingRef.current = false;
        if (!containerRef.current || hostRef.current) return;
        const s = useUiStore.getState();
        hostRef.current = createDiffHost(containerRef.current, { inline: s.diffMode === "inline", dark });
        setStatus("ready");
      })
      .catch((err: unknown) => {
        loadingRef.current = false;
        setLoadError(err instanceof Error ? err.message : String(err));
        setStatus("error");
      });
  }, [open, diff, dark]);

  useEffect(() => {
    if (diff) hostRef.current?.show(diff);
  }, [status, diff]);

  useEffect(() => {
    hostRef.current?.setInline(mode === "inline");
  }, [mode, status]);

  useEffect(() => {
    hostRef.current?.setDark(dark);
  }, [dark, status]);

  // Floating over the transcript (a narrow window), the panel closes with Escape like any overlay,
  // unless something in front of it (a dialog, the model menu) takes the key.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || !isNarrowLayout()) return;
      if (isDialogOpen() || useUiStore.getState().modelMenuOpen) return;
      e.preventDefault();
      closeDiff();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, closeDiff]);

  useEffect(
    () => () => {
      hostRef.current?.dispose();
      hostRef.current = null;
      setStatus("idle");
    },
    [],
  );

  return (
    <aside className={`diff-panel${open ? "" : " hidden"}`} aria-label="Diff view" aria-hidden={!open}>
      <header className="diff-panel-head">
        <span className="diff-title" title={diff?.path}>
          {diff ? diff.path : "No change selected"}
          {diff?.origin === "proposal" && <span className="badge warn">proposed</span>}
          {diff?.origin === "denied" && <span className="badge status-denied">denied, not applied</span>}
          {diff?.origin === "notApplied" && <span className="badge status-error">not applied</span>}
        </span>
        <div className="segmented" role="group" aria-label="Diff layout">
          <button type="button" aria-pressed={mode === "sideBySide"} onClick={() => setMode("sideBySide")}>
            Side by side
          </button>
          <button type="button" aria-pressed={mode === "inline"} onClick={() => setMode("inline")}>
            Inline
          </button>
        </div>
        <button type="button" className="icon" aria-label="Close diff view" onClick={closeDiff}>
          ✕
        </button>
      </header>
      {status === "loading" && <p className="muted pad">Loading the diff editor…</p>}
      {status === "error" && (
        <p className="error-text pad" role="alert">
          The diff editor could not load: {loadError}
        </p>
      )}
      <div className="diff-editor" ref={containerRef} />
    </aside>
  );
}
