/**
 * Header items about what shapes the agent's behaviour: the Ask mode toggle
 * (only read-only tools) and a chip listing the AGENTS.md files in effect.
 */
import { useEffect, useState } from "react";
import type { InstructionFile } from "../../../shared/api";
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

export function InstructionsChip({ sessionId }: { sessionId: string }) {
  const turn = useTurn(sessionId);
  const idle = (turn?.status ?? "idle") === "idle";
  const [files, setFiles] = useState<InstructionFile[]>([]);
  // Read when the session opens and after each turn (a touched folder may bring its AGENTS.md in).
  useEffect(() => {
    if (!idle) return;
    let live = true;
    client()
      .call("session.instructions", { sessionId })
      .then((r) => live && setFiles(r.files))
      .catch(() => live && setFiles([]));
    return () => {
      live = false;
    };
  }, [sessionId, idle]);
  if (files.length === 0) return null;
  const names = files.map((f) => `${f.path}${f.truncated ? " (cut)" : ""}`);
  return (
    <span
      className="badge instructions-chip"
      role="status"
      title={`Instructions in the system prompt:\n${names.join("\n")}`}
      aria-label={`Instructions in effect: ${names.join(", ")}`}
    >
      {files.length === 1 ? names[0].split("/").pop() : `${files.length} instruction files`}
      {files.some((f) => f.truncated) ? " · cut" : ""}
    </span>
  );
}
