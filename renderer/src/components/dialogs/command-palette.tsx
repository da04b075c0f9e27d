/**
 * The command palette (Ctrl/Cmd+Shift+P) and keyboard help (`?` outside a text
 * field): one list of what the app can do, each with its keys, filtered as the
 * user types; Enter or a click runs an action. Keys that only work in one
 * place (the approval card, replay) are listed with where they apply.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { isDialogOpen, isTextField } from "../../lib/keyboard";
import { openReplay } from "../../replay";
import { useUiStore } from "../../stores/ui-store";
import { openSearchEverything } from "../search/search-everything";
import { useWorkspaceStore } from "../../stores/workspace-store";

const MOD = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform) ? "Cmd" : "Ctrl";

export interface Command {
  label: string;
  /** The keys, as shown ("Ctrl+K"); empty when the action has none. */
  keys: string;
  /** Where the keys work, when not everywhere. */
  where?: string;
  /** Runs it; absent for keys that only make sense where they apply. */
  run?: () => void;
}

export function commands(actions: { newSession(): void }): Command[] {
  const ws = useWorkspaceStore.getState();
  const ui = useUiStore.getState();
  const list: Command[] = [
    { label: "New session", keys: "Alt+N", run: ws.workspace ? actions.newSession : undefined },
    { label: "Search sessions", keys: `${MOD}+K`, run: () => document.getElementById("session-search")?.focus() },
    { label: "Search everything (all workspaces, with filters)", keys: `${MOD}+Shift+F`, run: openSearchEverything },
    { label: "Change model", keys: "", run: ws.activeSessionId || ws.workspace ? () => ui.setModelMenuOpen(true) : undefined },
    { label: "Settings", keys: "", run: () => ui.setSettingsOpen(true) },
    {
      label: ui.diffOpen ? "Close the diff panel" : "Open the diff panel",
      keys: "",
      run: ui.diff ? () => (ui.diffOpen ? ui.closeDiff() : ui.openDiff(ui.diff!)) : undefined,
    },
    { label: "Replay this session", keys: "", run: ws.activeSessionId ? () => openReplay(ws.activeSessionId as string) : undefined },
    { label: "Command palette", keys: `${MOD}+Shift+P` },
    { label: "Keyboard shortcuts", keys: "?" },
    { label: "Send the message", keys: "Enter", where: "in the message box" },
    { label: "New line in the message", keys: "Shift+Enter", where: "in the message box" },
    { label: "Stop the turn", keys: "Escape", where: "while a turn runs" },
    { label: "Approve once", keys: `${MOD}+Enter`, where: "the focus in the approval card (or Y)" },
    { label: "Approve for this session", keys: `${MOD}+Shift+Enter`, where: "the focus in the approval card (or S)" },
    { label: "Deny, with a reason", keys: "N", where: "the focus in the approval card" },
    { label: "Previous / next step", keys: "← / →  or  K / J", where: "in replay" },
    { label: "First / last step", keys: "Home / End", where: "in replay" },
  ];
  return list;
}

/** Commands whose label, keys or place contain every word typed. */
export function filterCommands(list: readonly Command[], query: string): Command[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return list.filter((c) => {
    const text = `${c.label} ${c.keys} ${c.where ?? ""}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** Opens on Ctrl/Cmd+Shift+P anywhere, and on `?` outside a text field; `title` says which door was used. */
export function CommandPalette({ newSession }: { newSession(): void }) {
  const [open, setOpen] = useState<null | "palette" | "help">(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === "p") {
        e.preventDefault();
        setOpen("palette");
      } else if (e.key === "?" && !e.ctrlKey && !e.metaKey && !e.altKey && !isTextField(e.target) && !isDialogOpen()) {
        e.preventDefault();
        setOpen("help");
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  if (!open) return null;
  return (
    <PaletteDialog
      title={open === "help" ? "Keyboard shortcuts" : "Command palette"}
      newSession={newSession}
      onClose={() => setOpen(null)}
    />
  );
}

function PaletteDialog({ title, newSession, onClose }: { title: string; newSession(): void; onClose(): void }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const all = useMemo(() => commands({ newSession }), [newSession]);
  const shown = filterCommands(all, query);
  const current = Math.min(active, Math.max(0, shown.length - 1));

  useEffect(() => {
    const prev = document.activeElement as HTMLElement | null;
    inputRef.current?.focus();
    return () => prev?.focus?.();
  }, []);

  const run = (c: Command | undefined) => {
    if (!c?.run) return;
    onClose();
    // After the dialog is gone, so the action's own focus (the search box, a menu) sticks.
    setTimeout(() => c.run?.(), 0);
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal palette" role="dialog" aria-modal="true" aria-labelledby={`${id}-t`}>
        <h2 id={`${id}-t`}>{title}</h2>
        <input
          ref={inputRef}
          type="text"
          aria-label="Filter commands"
          placeholder="Type to filter: a command, a key…"
          value={query}
          role="combobox"
          aria-expanded="true"
          aria-controls={`${id}-list`}
          aria-activedescendant={shown.length > 0 ? `${id}-c${current}` : undefined}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") setActive(Math.min(current + 1, shown.length - 1));
            else if (e.key === "ArrowUp") setActive(Math.max(current - 1, 0));
            else if (e.key === "Enter") run(shown[current]);
            else if (e.key === "Escape") onClose();
            else return;
            e.preventDefault();
            e.stopPropagation();
          }}
        />
        <ul id={`${id}-list`} className="palette-list" role="listbox" aria-label="Commands">
          {shown.length === 0 && <li className="muted small">No command matches.</li>}
          {shown.map((c, i) => (
            <li
              key={c.label}
              id={`${id}-c${i}`}
              role="option"
              aria-selected={i === current}
              aria-disabled={!c.run}
              className={`palette-item${i === current ? " active" : ""}${c.run ? "" : " info"}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => run(c)}
            >
              <span className="palette-label">
                {c.label}
                {c.where && <span className="muted small"> · {c.where}</span>}
              </span>
              {c.keys && <kbd>{c.keys}</kbd>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
