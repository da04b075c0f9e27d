/**
 * The diff panel beside the transcript (over it in a narrow window, where
 * Escape closes it). Monaco is loaded on first open and one diff editor is
 * kept for the panel's lifetime; each selection swaps its models.
 */
import { useEffect, useRef, useState } from "react";
import { applyHunks } from "../../../../shared/hunks";
import { revealInvisible } from "../../../../shared/invisible-chars";
import { isDialogOpen } from "../../lib/keyboard";
import { isNarrowLayout } from "../../lib/layout";
import { useCommentsStore } from "../../stores/comments-store";
import { useHunkReviewStore } from "../../stores/hunk-review-store";
import { useTranscriptStore } from "../../stores/transcript-store";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { CommentForm } from "../review/comment-form";
import { effectiveDiffMode, useUiStore } from "../../stores/ui-store";
import { useDarkMode } from "../use-theme";
import { HunkToolbar } from "./hunk-toolbar";
import type { DiffHost } from "./monaco-diff";

export function DiffPanel() {
  const diff = useUiStore((s) => s.diff);
  const open = useUiStore((s) => s.diffOpen);
  const picked = useUiStore((s) => s.diffMode);
  const [width, setWidth] = useState(0);
  const mode = effectiveDiffMode(picked, width);
  const asideRef = useRef<HTMLElement>(null);
  const reviewKey = diff?.origin === "proposal" ? (diff.review?.toolCallId ?? null) : null;
  const review = useHunkReviewStore((s) => (reviewKey ? s.reviews[reviewKey] : undefined));
  const editing = review?.edited != null;
  const sessionId = useWorkspaceStore((s) => s.activeSessionId);
  const commentTarget = useCommentsStore((s) => s.target);
  const pendingComments = useCommentsStore((s) => (sessionId ? s.pending[sessionId] : undefined));
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
        hostRef.current = createDiffHost(containerRef.current, {
          inline: effectiveDiffMode(s.diffMode, asideRef.current?.clientWidth ?? 0) === "inline",
          dark,
        });
        setStatus("ready");
      })
      .catch((err: unknown) => {
        loadingRef.current = false;
        setLoadError(err instanceof Error ? err.message : String(err));
        setStatus("error");
      });
  }, [open, diff, dark]);

  useEffect(() => {
    const el = asideRef.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    if (!diff) return;
    // While the user edits the proposal, the modified side holds their text.
    const edited = diff.review ? useHunkReviewStore.getState().reviews[diff.review.toolCallId]?.edited : null;
    hostRef.current?.show(edited != null ? { ...diff, after: edited } : diff);
  }, [status, diff]);

  // Per-hunk marks of a proposal under review.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    if (!diff?.review || !review || editing) host.setHunks(null);
    else host.setHunks({ hunks: diff.review.hunks, decisions: review.decisions, current: review.current });
  }, [status, diff, review, editing]);

  const current = review?.current;
  useEffect(() => {
    const h = current !== undefined ? diff?.review?.hunks[current] : undefined;
    if (h) hostRef.current?.revealLine(h.newStart);
  }, [status, diff, current]);

  // Editing the proposal: the modified side becomes editable and its text goes to the review.
  useEffect(() => {
    const host = hostRef.current;
    if (!host || !reviewKey) return;
    if (!editing) {
      host.setEditable(null);
      return;
    }
    host.setEditable((text) => useHunkReviewStore.getState().setEdited(reviewKey, text));
    return () => host.setEditable(null);
  }, [status, reviewKey, editing]);

  // Clicking a line number of the changed side opens a review comment on that line.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    host.onLineClick((click) => {
      const shown = useUiStore.getState().diff;
      const session = useWorkspaceStore.getState().activeSessionId;
      if (
        !shown ||
        !session ||
        click.side !== "modified" ||
        useHunkReviewStore.getState().reviews[shown.review?.toolCallId ?? ""]?.edited != null
      )
        return;
      const view = useTranscriptStore.getState().view;
      const seq = shown.seq ?? (view?.sessionId === session ? view.model.lastSeq : 0);
      if (seq < 1) return;
      useCommentsStore.getState().setTarget({ sessionId: session, seq, path: shown.path, line: click.line });
    });
    return () => host.onLineClick(null);
  }, [status]);

  useEffect(() => {
    const lines = (pendingComments ?? []).filter((c) => c.path === diff?.path).map((c) => c.line);
    hostRef.current?.setLineMarks(lines);
  }, [status, diff, pendingComments]);

  const startEditing = () => {
    if (!diff?.review || !review) return;
    // Start from what would be applied now (accepted hunks only).
    const base =
      applyHunks(
        diff.before,
        diff.review.hunks,
        review.decisions.map((d) => d === "accepted"),
      ) ?? diff.after;
    useHunkReviewStore.getState().setEdited(diff.review.toolCallId, base);
    hostRef.current?.show({ ...diff, after: base });
  };
  const stopEditing = () => {
    if (!diff?.review) return;
    useHunkReviewStore.getState().setEdited(diff.review.toolCallId, null);
    hostRef.current?.setEditable(null);
    hostRef.current?.show(diff);
  };

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
    <aside ref={asideRef} className={`diff-panel${open ? "" : " hidden"}`} aria-label="Diff view" aria-hidden={!open}>
      <header className="diff-panel-head">
        <span className="diff-title" title={diff ? revealInvisible(diff.path) : undefined}>
          {diff ? revealInvisible(diff.path) : "No change selected"}
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
      {diff?.review && review && (
        <HunkToolbar
          reviewKey={diff.review.toolCallId}
          hunks={diff.review.hunks}
          review={review}
          onEdit={startEditing}
          onStopEditing={stopEditing}
        />
      )}
      {commentTarget && diff && commentTarget.path === diff.path && commentTarget.sessionId === sessionId && (
        <CommentForm target={commentTarget} />
      )}
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
