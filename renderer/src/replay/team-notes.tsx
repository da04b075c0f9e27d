/**
 * Replay of a copy opened from the team library: the team's notes and verdicts
 * on the current step, live (team.note events), each attributed to the
 * database role that wrote it; a form to add one; and the session's review
 * state (open / changes requested / approved). It takes the place of the local
 * notes (StepNotes) for such a copy.
 */
import { useEffect, useState, type FormEvent } from "react";
import type { NoteVerdict } from "../../../shared/review";
import type { ReviewState } from "../../../shared/team";
import { useAppStore } from "../stores/app-store";
import { useTeamStore } from "../stores/team-store";
import { NoteView } from "./step-notes";
import { useReplayStore } from "./replay-store";

const EMPTY: never[] = [];
const STATES: { value: ReviewState; label: string }[] = [
  { value: "open", label: "Open" },
  { value: "changesRequested", label: "Changes requested" },
  { value: "approved", label: "Approved" },
];

function ReviewStateControl({ teamId }: { teamId: string }) {
  const state = useTeamStore((s) => s.sessions.find((x) => x.id === teamId)?.reviewState ?? null);
  const setReviewState = useTeamStore((s) => s.setReviewState);
  const [busy, setBusy] = useState(false);
  return (
    <label className="field team-review-state">
      <span>Review state</span>
      <select
        aria-label="Team review state"
        value={state ?? "open"}
        disabled={busy}
        onChange={(e) => {
          setBusy(true);
          void setReviewState(teamId, e.target.value as ReviewState).then((msg) => {
            setBusy(false);
            if (msg) useAppStore.getState().notify("info", msg);
          });
        }}
      >
        {STATES.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Renders nothing unless the replayed session was opened from the team library (step-inspector.tsx). */
export function TeamStepNotes({ seq, step }: { seq: number; step: number }) {
  const sessionId = useReplayStore((s) => s.sessionId);
  const copy = useTeamStore((s) => (sessionId ? s.opened[sessionId] : undefined));
  const notes = useTeamStore((s) => (copy ? (s.notes[copy.teamId] ?? EMPTY) : EMPTY));
  const addNote = useTeamStore((s) => s.addNote);
  const [verdict, setVerdict] = useState<NoteVerdict | null>(null);
  const [text, setText] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const teamId = copy?.teamId ?? null;

  useEffect(() => {
    if (teamId)
      void useTeamStore
        .getState()
        .loadNotes(teamId)
        .catch(() => undefined);
  }, [teamId]);

  if (!copy) return null;
  const here = notes.filter((n) => n.seq === seq);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim() && verdict === null) return;
    setSaving(true);
    const msg = await addNote({ sessionId: copy.teamId, revision: copy.revision, seq, verdict, text: text.trim() });
    setSaving(false);
    const queued = msg?.startsWith("Queued") ?? false;
    setError(queued ? null : msg);
    if (queued && msg) useAppStore.getState().notify("info", msg);
    if (!msg || queued) {
      setText("");
      setVerdict(null);
    }
  };

  return (
    <section className="replay-notes team-notes" aria-label="Team notes on this entry">
      <h3>Team notes on step {step}</h3>
      <ReviewStateControl teamId={copy.teamId} />
      <div className="notes-here">
        {here.length === 0 && <p className="muted small">No team note yet.</p>}
        {here.map((n) => (
          <NoteView key={n.id} note={n} />
        ))}
      </div>
      <form className="note-form" onSubmit={(e) => void submit(e)} aria-label="Add a team note">
        <textarea
          aria-label="Team note"
          placeholder="A note for the team (signed with your database role)"
          rows={2}
          value={text}
          maxLength={100_000}
          onChange={(e) => setText(e.target.value)}
        />
        <div className="note-form-row">
          <div className="segmented" role="radiogroup" aria-label="Team verdict">
            {([null, "ok", "problem"] as const).map((v) => (
              <button key={v ?? "none"} type="button" role="radio" aria-checked={verdict === v} onClick={() => setVerdict(v)}>
                {v === null ? "No verdict" : v === "ok" ? "OK" : "Problem"}
              </button>
            ))}
          </div>
          <button type="submit" className="primary" disabled={saving || (!text.trim() && verdict === null)}>
            Add team note
          </button>
        </div>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
