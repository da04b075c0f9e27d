/** Every reviewer note of the session, filterable by verdict and author; a note jumps to its step. */
import { useMemo, useState } from "react";
import { Dialog } from "./dialog";
import { NoteView } from "./step-notes";
import { firstItemOf, useReplayStore } from "./replay-store";

type VerdictFilter = "all" | "ok" | "problem" | "none";

export function NotesPanel() {
  const notes = useReplayStore((s) => s.notes);
  const items = useReplayStore((s) => s.data?.items ?? []);
  const setPanel = useReplayStore((s) => s.setPanel);
  const jump = useReplayStore((s) => s.jump);
  const deleteNote = useReplayStore((s) => s.deleteNote);
  const [verdict, setVerdict] = useState<VerdictFilter>("all");
  const [author, setAuthor] = useState("");
  const authors = useMemo(() => [...new Set(notes.map((n) => n.author))].sort(), [notes]);
  const shown = notes.filter(
    (n) =>
      (verdict === "all" || (verdict === "none" ? n.verdict === null : n.verdict === verdict)) && (author === "" || n.author === author),
  );

  return (
    <Dialog title="Reviewer notes" onClose={() => setPanel(null)}>
      <div className="notes-filters">
        <label>
          Verdict{" "}
          <select aria-label="Filter notes by verdict" value={verdict} onChange={(e) => setVerdict(e.target.value as VerdictFilter)}>
            <option value="all">all</option>
            <option value="ok">OK</option>
            <option value="problem">Problem</option>
            <option value="none">no verdict</option>
          </select>
        </label>
        <label>
          Author{" "}
          <select aria-label="Filter notes by author" value={author} onChange={(e) => setAuthor(e.target.value)}>
            <option value="">anyone</option>
            {authors.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <span className="muted small">
          {shown.length} of {notes.length}
        </span>
      </div>
      {shown.length === 0 && <p className="muted">{notes.length === 0 ? "No notes yet: add one from any step." : "No note matches."}</p>}
      <ul className="notes-list" aria-label="Notes">
        {shown.map((n) => {
          const at = firstItemOf(items, n.seq);
          return (
            <li key={n.id}>
              <button
                type="button"
                className="link-button"
                disabled={at < 0}
                onClick={() => {
                  jump(at);
                  setPanel(null);
                }}
              >
                {at >= 0 ? `Step ${at + 1}` : "A step not in this session's timeline"}
              </button>
              <NoteView note={n} onDelete={() => void deleteNote(n.id)} />
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
