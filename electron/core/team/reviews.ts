/**
 * Notes, verdicts, assignment and review state on published sessions. All of
 * it is append-only (the grants allow INSERT and SELECT, nothing else): a
 * session's state is its latest state event, so two reviewers can never
 * conflict, and each write carries a client id, so a write sent twice (the
 * outbox after a lost answer) is stored once. The author is the database
 * role, enforced by RLS, not something a client can claim.
 */
import pg from "pg";
import type { ReviewState, TeamNote, TeamNoteInput } from "../../../shared/team";
import { TeamError, toTeamError } from "./errors";
import { NOTES_CHANNEL } from "./schema";

interface NoteRow {
  id: string;
  session_id: string;
  revision: number;
  seq: number;
  author: string;
  verdict: TeamNote["verdict"];
  text: string;
  created_at: Date;
  path: string | null;
  line: number | null;
}

const NOTE_COLUMNS = "id, session_id, revision, seq, author, verdict, text, created_at, path, line";

function toNote(r: NoteRow): TeamNote {
  return {
    id: Number(r.id),
    sessionId: r.session_id,
    revision: r.revision,
    seq: r.seq,
    author: r.author,
    verdict: r.verdict,
    text: r.text,
    createdAt: r.created_at.getTime(),
    path: r.path,
    line: r.line,
  };
}

export async function addNote(client: pg.ClientBase, input: TeamNoteInput, clientId: string): Promise<TeamNote> {
  const r = await client.query<NoteRow>(
    `INSERT INTO wb_team.notes (session_id, project, revision, seq, verdict, text, path, line, client_id)
     SELECT s.id, s.project, $2, $3, $4, $5, $6, $7, $8 FROM wb_team.sessions s WHERE s.id = $1
     ON CONFLICT (client_id) DO NOTHING RETURNING ${NOTE_COLUMNS}`,
    [input.sessionId, input.revision, input.seq, input.verdict, input.text, input.path ?? null, input.line ?? null, clientId],
  );
  if (r.rows[0]) return toNote(r.rows[0]);
  const again = await client.query<NoteRow>(`SELECT ${NOTE_COLUMNS} FROM wb_team.notes WHERE client_id = $1`, [clientId]);
  if (again.rows[0]) return toNote(again.rows[0]);
  throw new TeamError("TEAM_DENIED", "No such published session, or its project is not granted to you");
}

export async function listNotes(client: pg.ClientBase, sessionId: string): Promise<TeamNote[]> {
  const r = await client.query<NoteRow>(`SELECT ${NOTE_COLUMNS} FROM wb_team.notes WHERE session_id = $1 ORDER BY id`, [sessionId]);
  return r.rows.map(toNote);
}

export async function getNote(client: pg.ClientBase, id: number): Promise<TeamNote | null> {
  const r = await client.query<NoteRow>(`SELECT ${NOTE_COLUMNS} FROM wb_team.notes WHERE id = $1`, [id]);
  return r.rows[0] ? toNote(r.rows[0]) : null;
}

export type ReviewEventInput = { sessionId: string } & ({ state: ReviewState } | { assignee: string });

export async function addReviewEvent(client: pg.ClientBase, input: ReviewEventInput, clientId: string): Promise<void> {
  const state = "state" in input ? input.state : null;
  const assignee = "assignee" in input ? input.assignee : null;
  const r = await client.query(
    `INSERT INTO wb_team.review_events (session_id, project, state, assignee, client_id)
     SELECT s.id, s.project, $2, $3, $4 FROM wb_team.sessions s WHERE s.id = $1
     ON CONFLICT (client_id) DO NOTHING`,
    [input.sessionId, state, assignee, clientId],
  );
  if (r.rowCount === 0) {
    const again = await client.query(`SELECT 1 FROM wb_team.review_events WHERE client_id = $1`, [clientId]);
    if (again.rows.length === 0) throw new TeamError("TEAM_DENIED", "No such published session, or its project is not granted to you");
  }
}

export interface LiveChange {
  kind: "note" | "review";
  id: number;
  sessionId: string;
}

/**
 * LISTEN on the notes channel with a connection of its own. A notification
 * carries ids only (every listener receives it, whatever its grants), so the
 * handler reads the row through RLS before anything is shown. Reconnects
 * with backoff while not closed.
 */
export class LiveNotes {
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private delay = 500;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly onChange: (change: LiveChange) => void,
    private readonly onState: (connected: boolean, error?: string) => void,
  ) {}

  async start(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(this.config);
    this.client = client;
    client.on("error", () => this.lost(client, "connection lost"));
    client.on("end", () => this.lost(client, "connection ended"));
    client.on("notification", (msg) => {
      if (msg.channel !== NOTES_CHANNEL || !msg.payload) return;
      const change = parseChange(msg.payload);
      if (change) this.onChange(change);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTES_CHANNEL}`);
      this.delay = 500;
      this.onState(true);
    } catch (e) {
      this.lost(client, toTeamError(e, this.config.password as string | undefined).message);
    }
  }

  private lost(client: pg.Client, why: string): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    this.onState(false, why);
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.start();
    }, this.delay);
    this.retry.unref?.();
    this.delay = Math.min(this.delay * 2, 30_000);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }
}

function parseChange(payload: string): LiveChange | null {
  try {
    const v = JSON.parse(payload) as Partial<LiveChange>;
    if ((v.kind === "note" || v.kind === "review") && Number.isSafeInteger(v.id) && typeof v.sessionId === "string")
      return { kind: v.kind, id: v.id as number, sessionId: v.sessionId };
  } catch {
    // not ours
  }
  return null;
}
