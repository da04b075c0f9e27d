/**
 * Replay keyboard: → or j next step, ← or k previous, Home/End first/last,
 * Space play/pause. Ignored while typing in a field or while a dialog is open.
 */
import { useEffect } from "react";
import { useReplayStore } from "./replay-store";

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

export function useReplayKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typingIn(e.target)) return;
      const s = useReplayStore.getState();
      if (s.status !== "ready" || s.modelView || s.forkOpen || s.panel) return;
      switch (e.key) {
        case "ArrowRight":
        case "j":
          s.step(1);
          break;
        case "ArrowLeft":
        case "k":
          s.step(-1);
          break;
        case "ArrowDown":
        case "ArrowUp":
          // Only in the timeline list; elsewhere they scroll.
          if (!(e.target instanceof HTMLElement) || e.target.getAttribute("aria-label") !== "Timeline") return;
          s.step(e.key === "ArrowDown" ? 1 : -1);
          break;
        case "Home":
          s.first();
          break;
        case "End":
          s.last();
          break;
        case " ":
          // Space already presses a focused button.
          if (e.target instanceof HTMLButtonElement) return;
          s.setPlaying(!s.playing);
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
