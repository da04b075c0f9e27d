/**
 * Header items about what shapes the agent's behaviour: the Ask mode toggle
 * (only read-only tools) and a chip listing the AGENTS.md files in effect.
 */
import { useEffect, useState } from "react";
import type { InstructionFile, SkillInfo, SkippedPromptFile } from "../../../shared/api";
import { client } from "../api/current";
import { useAppStore } from "../stores/app-store";
import { useTurn, useTurnStore } from "../stores/turn-store";

export function AskModeToggle({ sessionId }: { sessionId: string }) {
  const turn = useTurn(sessionId);
  const ask = turn?.mode === "ask";
  const toggle = () => {
    client()
      .call("session.setMode", { sessionId, mode: ask ? "agent" : "ask" })
      .then((t) => useTurnStore.getState().setTurn(t))
      .catch((err: unknown) => useAppStore.getState().reportError("Could not switch the mode", err));
  };
  return (
    <button
      type="button"
      className="mode-toggle"
      aria-pressed={ask}
      onClick={toggle}
      title={
        ask
          ? "Ask mode: the agent may only read. Click to let it change files again (with approval)."
          : "Switch to Ask mode: the agent may only read (/ask)"
      }
    >
      {ask ? "Ask mode" : "Agent mode"}
    </button>
  );
}

const NONE = { files: [], skipped: [] };

export function InstructionsChip({ sessionId }: { sessionId: string }) {
  const turn = useTurn(sessionId);
  const idle = (turn?.status ?? "idle") === "idle";
  const [{ files, skipped, skills = [] }, setLoaded] = useState<{
    files: InstructionFile[];
    skipped: SkippedPromptFile[];
    skills?: SkillInfo[];
  }>(NONE);
  // Read when the session opens and after each turn (a touched folder may bring its AGENTS.md in).
  useEffect(() => {
    if (!idle) return;
    let live = true;
    client()
      .call("session.instructions", { sessionId })
      .then((r) => live && setLoaded(r))
      .catch(() => live && setLoaded(NONE));
    return () => {
      live = false;
    };
  }, [sessionId, idle]);
  if (files.length === 0 && skipped.length === 0 && skills.length === 0) return null;
  const names = files.map((f) => `${f.path}${f.truncated ? " (cut)" : ""}`);
  // A file left out (a link leading out of the workspace, a FIFO…) is named with the reason: the repository may be hostile.
  const left = skipped.map((s) => `${s.path}: ${s.reason}`);
  const title = [
    ...(names.length > 0 ? ["Instructions in the system prompt:", ...names] : []),
    ...(skills.length > 0 ? ["Skills (loaded on demand):", ...skills.map((s) => `${s.name}: ${s.description}`)] : []),
    ...(left.length > 0 ? ["Left out:", ...left] : []),
  ].join("\n");
  const label = [
    ...(names.length > 0 ? [`Instructions in effect: ${names.join(", ")}`] : []),
    ...(skills.length > 0 ? [`skills: ${skills.map((s) => s.name).join(", ")}`] : []),
    ...(left.length > 0 ? [`left out: ${skipped.map((s) => s.path).join(", ")}`] : []),
  ].join("; ");
  return (
    <span className={`badge instructions-chip${left.length > 0 ? " warn" : ""}`} role="status" title={title} aria-label={label}>
      {files.length === 0 ? "no instruction files" : files.length === 1 ? names[0].split("/").pop() : `${files.length} instruction files`}
      {files.some((f) => f.truncated) ? " · cut" : ""}
      {skills.length > 0 ? ` · ${skills.length} skill${skills.length === 1 ? "" : "s"}` : ""}
      {left.length > 0 ? ` · ${left.length} left out` : ""}
    </span>
  );
}
