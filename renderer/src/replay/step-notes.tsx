/**
 * Reviewer notes on the current entry, and the form to add one: free text,
 * an optional verdict (ok / problem) and the author, remembered in this browser.
 * Notes are stored in the session database by the core.
 */
import { useState, type FormEvent } from "react";
import type { NoteVerdict, ReviewNote } from "../../../shared/review";
import { timeAttribute } from "../lib/format";
import { formatDateTime } from "./replay-format";
import { useReplayStore } from "./replay-store";

const AUTHOR_KEY = "workbench.reviewer";

function rememberedAuthor(): string {
  try {
    return localStorage.getItem(AUTHOR_KEY) ?? "";
  } catch {
    return "";
  }
}

function rememberAuthor(author: string): void {
  try {
    localStorage.setItem(AUTHOR_KEY, author);
  } catch {
    // Storage may be unavailable; the author field is then just not prefilled.
  }
}

export function VerdictBadge({ verdict }: { verdict: NoteVerdict | null }) {
  if (verdict === null) return <span className="badge">note</span>;
  return <span className={`badge verdict-${verdict} ${verdict === "ok" ? "ok" : "warn"}`}>{verdict === "ok" ? "OK" : "Problem"}</span>;
}

export function NoteView({ note, onDelete }: { note: ReviewNote; onDelete?: () => void }) {
  return (
    <article className={`review-note${note.verdict ? ` verdict-${note.verdict}` : ""}`} aria-label={`Note by ${note.author}`}>
      <header>
        <VerdictBadge verdict={note.verdict} /> <strong>{note.author}</strong>{" "}
        {note.path !== null && note.line !== null && (
          <code className="note-anchor" aria-label={`Comment on ${note.path}:${note.line}`}>
            {note.path}:{note.line}
          </code>
        )}{" "}
        <time className="muted small" dateTime={timeAttribute(note.createdAt)}>
          {formatDateTime(note.createdAt)}
        </time>
        {onDelete && (
          <button type="button" className="icon" aria-label={`Delete note by ${note.author}`} title="Delete note" onClick={onDelete}>
            ✕
          </button>
        )}
      </header>
      {note.text && <p className="note-text">{note.text}</p>}
    </article>
  );
}

/** `step`: the step's number as the timeline and the step counter show it (notes are stored per entry `seq`). */
export function StepNotes({ seq, step }: { seq: number; step: number }) {
  const notes = useReplayStore((s) => s.notes);
  const addNote = useReplayStore((s) => s.addNote);
  const deleteNote = useReplayStore((s) => s.deleteNote);
  const [author, setAuthor] = useState(rememberedAuthor);
  const [verdict, setVerdict] = useState<NoteVerdict | null>(null);
  const [text, setText] = useState("");
  const [saving, setSaving] = useState(false);
  const here = notes.filter((n) => n.seq === seq);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const who = author.trim();
    if (!who || (!text.trim() && verdict === null)) return;
    setSaving(true);
    const ok = await addNote({ author: who, verdict, text: text.trim() });
    setSaving(false);
    if (ok) {
      rememberAuthor(who);
      setText("");
      setVerdict(null);
    }
  };

  return (
    <section className="replay-notes" aria-label="Notes on this entry">
      <h3>Notes on step {step}</h3>
      <div className="notes-here">
        {here.length === 0 && <p className="muted small">No note yet.</p>}
        {here.map((n) => (
          <NoteView key={n.id} note={n} onDelete={() => void deleteNote(n.id)} />
        ))}
      </div>
      <form className="note-form" onSubmit={(e) => void submit(e)} aria-label="Add a note">
        <textarea
          aria-label="Note"
          placeholder="What did you notice at this step?"
          rows={2}
          value={text}
          maxLength={100_000}
          onChange={(e) => setText(e.target.value)}
        />
        <div className="note-form-row">
          <div className="segmented" role="radiogroup" aria-label="Verdict">
            {([null, "ok", "problem"] as const).map((v) => (
              <button key={v ?? "none"} type="button" role="radio" aria-checked={verdict === v} onClick={() => setVerdict(v)}>
                {v === null ? "No verdict" : v === "ok" ? "OK" : "Problem"}
              </button>
            ))}
          </div>
          <input aria-label="Author" placeholder="Your name" value={author} maxLength={200} onChange={(e) => setAuthor(e.target.value)} />
          <button type="submit" className="primary" disabled={saving || !author.trim() || (!text.trim() && verdict === null)}>
            Add note
          </button>
        </div>
      </form>
    </section>
  );
}
