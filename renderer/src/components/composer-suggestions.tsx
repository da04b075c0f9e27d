/**
 * The composer's pop-up: `/` at the start lists prompt commands (built-ins and
 * the user's templates), `@` lists workspace files (fuzzy, from the core's
 * index). Arrow keys move, Enter or Tab picks, Escape closes.
 */
import { useEffect, useRef, useState } from "react";
import type { PromptCommand } from "../../../shared/api";
import { mentionAtCaret } from "../../../shared/mentions";
import { client } from "../api/current";

export type Suggestion = { kind: "file"; path: string; positions: number[] } | { kind: "command"; command: PromptCommand };

export interface SuggestionContext {
  kind: "file" | "command";
  /** Where the `@` or `/` is. */
  start: number;
  query: string;
}

/** What is being typed at the caret: a command name at the very start, or an @-mention. */
export function suggestionContext(text: string, caret: number): SuggestionContext | null {
  const before = text.slice(0, caret);
  const command = /^\/([\w.:-]*)$/.exec(before);
  if (command) return { kind: "command", start: 0, query: command[1] };
  const mention = mentionAtCaret(text, caret);
  return mention ? { kind: "file", start: mention.start, query: mention.query } : null;
}

/** The workspace's commands, fetched when the menu opens (templates may have changed on disk). */
export function useCommands(workspaceId: string | null) {
  const cache = useRef<{ workspaceId: string; at: number; commands: PromptCommand[] } | null>(null);
  return async (): Promise<PromptCommand[]> => {
    if (!workspaceId) return [];
    const cached = cache.current;
    if (cached && cached.workspaceId === workspaceId && Date.now() - cached.at < 3000) return cached.commands;
    const commands = await client().call("commands.list", { workspaceId });
    cache.current = { workspaceId, at: Date.now(), commands };
    return commands;
  };
}

export function useSuggestions(
  workspaceId: string | null,
  context: SuggestionContext | null,
  loadCommands: () => Promise<PromptCommand[]>,
) {
  const [items, setItems] = useState<Suggestion[]>([]);
  const [index, setIndex] = useState(0);
  const request = useRef(0);
  const kind = context?.kind ?? null;
  const query = context?.query ?? null;

  useEffect(() => {
    const id = ++request.current;
    if (kind === null || query === null || !workspaceId) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- no query: the list empties at once, before any async answer
      setItems([]);
      return;
    }
    const apply = (next: Suggestion[]) => {
      if (id !== request.current) return;
      setItems(next);
      setIndex(0);
    };
    if (kind === "command") {
      void loadCommands()
        .then((all) => {
          const q = query.toLowerCase();
          const starts = all.filter((c) => c.name.toLowerCase().startsWith(q));
          const contains = all.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
          apply([...starts, ...contains].map((command) => ({ kind: "command", command })));
        })
        .catch(() => apply([]));
    } else {
      void client()
        .call("files.search", { workspaceId, query, limit: 30 })
        .then((r) => apply(r.files.map((f) => ({ kind: "file", path: f.path, positions: f.positions }))))
        .catch(() => apply([]));
    }
    // loadCommands is a fresh closure per render; the query and kind decide what to fetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, query, workspaceId]);

  return { items, index, setIndex };
}

function Highlighted({ text, positions }: { text: string; positions: number[] }) {
  if (positions.length === 0) return <>{text}</>;
  const marked = new Set(positions);
  return (
    <>
      {[...text].map((ch, i) =>
        marked.has(i) ? (
          <mark key={i} className="match">
            {ch}
          </mark>
        ) : (
          <span key={i}>{ch}</span>
        ),
      )}
    </>
  );
}

export function SuggestionList({
  kind,
  items,
  index,
  onPick,
  onHover,
}: {
  kind: "file" | "command";
  items: Suggestion[];
  index: number;
  onPick: (s: Suggestion) => void;
  onHover: (i: number) => void;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-index="${index}"]`)?.scrollIntoView({ block: "nearest" });
  }, [index]);
  if (items.length === 0) return null;
  return (
    <ul ref={listRef} className="suggestions" role="listbox" aria-label={kind === "file" ? "Files" : "Commands"}>
      {items.map((s, i) => (
        <li
          key={s.kind === "file" ? s.path : s.command.name}
          role="option"
          data-index={i}
          aria-selected={i === index}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(s);
          }}
          onMouseEnter={() => onHover(i)}
        >
          {s.kind === "file" ? (
            <code>
              <Highlighted text={s.path} positions={s.positions} />
            </code>
          ) : (
            <>
              <code>/{s.command.name}</code> <span className="muted">{s.command.description}</span>
              {s.command.source !== "builtin" && <span className="badge">{s.command.source}</span>}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
