/** Reviewer notes on a session's entries (used by replay). */
import type { StoreContext } from "./db";
import { lastEntry, sessionHead } from "./entries";
import { StoreError } from "./errors";
import { sessionRange } from "./keys";

export type NoteVerdict = "ok" | "problem";

export interface NoteInput {
  sessionId: string;
  /** The entry the note is about (1..entryCount). */
  seq: number;
  author: string;
  verdict: NoteVerdict | null;
  text: string;
  /** A comment on a diff line: the workspace-relative file and the line (in the file as changed). */
  path?: string | null;
  line?: number | null;
}

export interface Note extends NoteInput {
  id: number;
  createdAt: number;
  path: string | null;
  line: number | null;
}

interface NoteRow {
  id: number;
  session_id: string;
  seq: number;
  author: string;
  verdict: NoteVerdict | null;
  text: string;
  created_at: number;
  path: string | null;
  line: number | null;
}

function toNote(r: NoteRow): Note {
  return {
    id: r.id,
    sessionId: r.session_id,
    seq: r.seq,
    author: r.author,
    verdict: r.verdict,
    text: r.text,
    createdAt: r.created_at,
    path: r.path,
    line: r.line,
  };
}

export function addNote(ctx: StoreContext, input: NoteInput): Note {
  if (input.verdict !== null && input.verdict !== "ok" && input.verdict !== "problem") {
    throw new StoreError("INVALID_ARGUMENT", `unknown verdict ${String(input.verdict)}`);
  }
  const path = input.path ?? null;
  const line = input.line ?? null;
  if ((path === null) !== (line === null) || (line !== null && (!Number.isInteger(line) || line < 1)) || path === "") {
    throw new StoreError("INVALID_ARGUMENT", "a line comment needs both a file path and a line number (from 1)");
  }
  const head = sessionHead(ctx, input.sessionId);
  if (head === undefined) throw new StoreError("NOT_FOUND", `no session ${input.sessionId}`);
  const last = lastEntry(ctx, head.num);
  const count = last === undefined ? 0 : last.id - sessionRange(head.num)[0];
  if (!Number.isInteger(input.seq) || input.seq < 1 || input.seq > count) {
    throw new StoreError("INVALID_ARGUMENT", `entry ${input.seq} is outside 1..${count}`);
  }
  const row = ctx
    .stmt(`INSERT INTO notes (session_id, seq, author, verdict, text, created_at, path, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`)
    .get(input.sessionId, input.seq, input.author, input.verdict, input.text, ctx.now(), path, line) as NoteRow;
  return toNote(row);
}

/** By entry, then in the order written. */
export function listNotes(ctx: StoreContext, sessionId: string): Note[] {
  return (ctx.stmt(`SELECT * FROM notes WHERE session_id = ? ORDER BY seq, id`).all(sessionId) as NoteRow[]).map(toNote);
}

export function deleteNote(ctx: StoreContext, id: number): boolean {
  return ctx.stmt(`DELETE FROM notes WHERE id = ?`).run(id).changes > 0;
}
