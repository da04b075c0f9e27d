/**
 * Search everything (Ctrl/Cmd+Shift+F): one box over every workspace's
 * sessions, with filters, answered in groups per session; a hit opens replay
 * at its step (opening the hit's workspace first when it is another one).
 */
import { useEffect, useId, useRef, useState } from "react";
import type { Workspace } from "../../../../shared/api";
import { FOREIGN_AGENTS, FOREIGN_AGENT_LABELS, SessionAgentSchema } from "../../../../shared/foreign-agents";
import type { SearchEverythingResult, SearchFilters } from "../../../../shared/search";
import { client } from "../../api/current";
import { formatTime } from "../../lib/format";
import { openReplay } from "../../replay";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { SnippetText } from "./snippet-text";

const TOOLS = ["read", "write", "edit", "bash", "grep", "glob", "list", "task", "todo"];
const DEBOUNCE_MS = 150;

const OPEN_EVENT = "workbench:search-everything";

/** Opens the dialog (the command palette's entry). */
export function openSearchEverything(): void {
  window.dispatchEvent(new Event(OPEN_EVENT));
}

/** Mounted once by the app: listens for its keys and shows the dialog. */
export function SearchEverything() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === "f") {
        e.preventDefault();
        setOpen(true);
      }
    };
    const onOpen = () => setOpen(true);
    window.addEventListener("keydown", onKey);
    window.addEventListener(OPEN_EVENT, onOpen);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener(OPEN_EVENT, onOpen);
    };
  }, []);
  return open ? <SearchDialog onClose={() => setOpen(false)} /> : null;
}

interface FilterForm {
  workspaceId: string;
  model: string;
  from: string;
  to: string;
  hasNotes: boolean;
  tool: string;
  file: string;
  /** "" (any), "ours" or a foreign agent. */
  agent: string;
}

const EMPTY: FilterForm = { workspaceId: "", model: "", from: "", to: "", hasNotes: false, tool: "", file: "", agent: "" };

/** The form's fields as request filters; dates are local days, `to` inclusive. */
export function toFilters(f: FilterForm): SearchFilters {
  const out: SearchFilters = {};
  if (f.workspaceId) out.workspaceId = f.workspaceId;
  if (f.model.trim()) out.model = f.model.trim();
  const day = (s: string): number | null => {
    const t = new Date(`${s}T00:00:00`).getTime();
    return Number.isFinite(t) && t >= 0 ? t : null;
  };
  const from = f.from ? day(f.from) : null;
  const to = f.to ? day(f.to) : null;
  if (from !== null) out.from = from;
  if (to !== null) out.to = to + 86_400_000;
  if (f.hasNotes) out.hasNotes = true;
  if (f.tool) out.tool = f.tool;
  if (f.file.trim()) out.file = f.file.trim();
  const agent = SessionAgentSchema.safeParse(f.agent);
  if (agent.success) out.agent = agent.data;
  return out;
}

function SearchDialog({ onClose }: { onClose(): void }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState("");
  const [form, setForm] = useState<FilterForm>(EMPTY);
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const [state, setState] = useState<{ result: SearchEverythingResult | null; loading: boolean; error: string | null }>({
    result: null,
    loading: false,
    error: null,
  });

  useEffect(() => {
    const prev = document.activeElement as HTMLElement | null;
    inputRef.current?.focus();
    client()
      .call("workspace.recent", {})
      .then(setWorkspaces)
      .catch(() => setWorkspaces([]));
    return () => prev?.focus?.();
  }, []);

  useEffect(() => {
    const q = query.trim();
    if (!q) return;
    let live = true;
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, loading: true, error: null }));
      client()
        .call("search.everything", { query: q.slice(0, 500), filters: toFilters(form), limit: 200 })
        .then((result) => live && setState({ result, loading: false, error: null }))
        .catch(
          (err: unknown) => live && setState({ result: null, loading: false, error: err instanceof Error ? err.message : String(err) }),
        );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, form]);

  const openHit = async (workspaceId: string, workspacePath: string, sessionId: string, seq: number) => {
    onClose();
    const ws = useWorkspaceStore.getState();
    if (ws.workspace?.id !== workspaceId && !(await ws.openWorkspace(workspacePath))) return;
    openReplay(sessionId, { seq });
  };

  const set = <K extends keyof FilterForm>(k: K, v: FilterForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  // An emptied box shows nothing (the last answer stays in state until the next query).
  const shown = query.trim() ? state : { result: null, loading: false, error: null };
  const result = shown.result;
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="modal search-everything"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-t`}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={`${id}-t`}>Search everything</h2>
        <input
          ref={inputRef}
          type="search"
          aria-label="Search all sessions"
          placeholder="Words in any message of any workspace…"
          value={query}
          maxLength={500}
          onChange={(e) => setQuery(e.target.value)}
        />
        <fieldset className="search-filters">
          <legend className="small muted">Filters</legend>
          <label>
            Workspace
            <select value={form.workspaceId} onChange={(e) => set("workspaceId", e.target.value)}>
              <option value="">All</option>
              {workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Agent
            <select value={form.agent} onChange={(e) => set("agent", e.target.value)}>
              <option value="">Any</option>
              <option value="ours">This app</option>
              {FOREIGN_AGENTS.map((a) => (
                <option key={a} value={a}>
                  {FOREIGN_AGENT_LABELS[a]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Model
            <input type="text" value={form.model} placeholder="model id" onChange={(e) => set("model", e.target.value)} />
          </label>
          <label>
            Tool
            <select value={form.tool} onChange={(e) => set("tool", e.target.value)}>
              <option value="">Any</option>
              {TOOLS.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <label>
            File touched
            <input type="text" value={form.file} placeholder="src/a.ts" onChange={(e) => set("file", e.target.value)} />
          </label>
          <label>
            From
            <input type="date" value={form.from} onChange={(e) => set("from", e.target.value)} />
          </label>
          <label>
            To
            <input type="date" value={form.to} onChange={(e) => set("to", e.target.value)} />
          </label>
          <label className="inline">
            <input type="checkbox" checked={form.hasNotes} onChange={(e) => set("hasNotes", e.target.checked)} /> Has notes
          </label>
        </fieldset>
        <div className="search-everything-results" aria-live="polite">
          {shown.loading && <p className="muted">Searching…</p>}
          {shown.error && <p className="error-text">Search failed: {shown.error}</p>}
          {result && result.groups.length === 0 && !shown.loading && <p className="muted">No matches.</p>}
          {result && (
            <ul aria-label="Sessions found">
              {result.groups.map((g) => (
                <li key={g.sessionId} className="search-group">
                  <div className="search-group-head">
                    <strong>{g.sessionTitle}</strong>{" "}
                    <span className="muted small">
                      {g.workspaceName}
                      {g.model ? ` · ${g.model}` : ""} · {g.hitCount} {g.hitCount === 1 ? "hit" : "hits"} · {formatTime(g.newest)}
                    </span>
                  </div>
                  <ul aria-label={`Hits in ${g.sessionTitle}`}>
                    {g.hits.map((h) => (
                      <li key={h.seq}>
                        <button
                          type="button"
                          className="list-button search-hit"
                          onClick={() => void openHit(g.workspaceId, g.workspacePath, g.sessionId, h.seq)}
                        >
                          <span className="muted small">
                            step {h.seq} · {h.kind}
                          </span>{" "}
                          <span className="hit-snippet">
                            <SnippetText snippet={h.snippet} />
                          </span>
                        </button>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
          {result?.truncated && <p className="muted small">Only the newest matches are shown: add words or filters to narrow them.</p>}
        </div>
      </div>
    </div>
  );
}
