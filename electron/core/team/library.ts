/**
 * Publishing a redacted envelope into the team library, and reading it back:
 * the list, one published revision, and ranked full-text search.
 *
 * A publish is one transaction: the envelope's entries go into the
 * content-addressed `payloads` table (each entry's JSON once per project, by
 * SHA-256; the schema refuses a body that does not match its hash) with a
 * handful of array-parameter statements, then one immutable revision and its
 * entry rows. A publish is keyed by its client id: sent again after a lost
 * answer, it finds its revision instead of adding one.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import { messageText, type SessionEntry } from "../../../shared/protocol";
import type { SessionExport } from "../../../shared/review";
import type { TeamSearchHit, TeamSession } from "../../../shared/team";
import { parseEnvelope, serializeEnvelope } from "../review/export-json";
import { TeamError } from "./errors";

/** Bytes of payload bodies per statement: big sessions go in several statements of the same transaction. */
const STATEMENT_BYTES = 8 * 1024 * 1024;
/** Search text kept per entry (a tool's output can be megabytes; tsvector caps at 1 MB). */
const SEARCH_CHARS = 100_000;

export interface PublishInput {
  project: string;
  /** The publisher's local session id: re-publishing it adds a revision. */
  originId: string;
  /** Idempotency key of this publish (from the outbox). */
  clientId: string;
  envelope: SessionExport;
}

export interface PublishResult {
  sessionId: string;
  revision: number;
  project: string;
  entries: number;
  bytes: number;
  /** False when this client id had already been published (the answer was lost): nothing was added. */
  added: boolean;
}

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

export async function publishEnvelope(client: pg.ClientBase, input: PublishInput): Promise<PublishResult> {
  const { envelope } = input;
  const header = JSON.stringify({ ...envelope, entries: [] });
  const rows = envelope.entries.map(({ seq, entry }) => {
    const body = JSON.stringify(entry);
    return { seq, body, hash: sha256(body), kind: kindOf(entry), ts: timeOf(entry), text: searchText(entry) };
  });
  const headerHash = sha256(header);
  const bytes = rows.reduce((n, r) => n + Buffer.byteLength(r.body), Buffer.byteLength(header));
  await client.query("BEGIN");
  try {
    const done = await client.query<{ session_id: string; revision: number; project: string; entry_count: number; bytes: string }>(
      `SELECT session_id, revision, project, entry_count, bytes FROM wb_team.revisions WHERE client_id = $1`,
      [input.clientId],
    );
    if (done.rows.length > 0) {
      await client.query("COMMIT");
      const r = done.rows[0];
      return {
        sessionId: r.session_id,
        revision: r.revision,
        project: r.project,
        entries: r.entry_count,
        bytes: Number(r.bytes),
        added: false,
      };
    }
    const s = await client.query<{ id: string; project: string; latest_revision: number }>(
      `INSERT INTO wb_team.sessions (project, origin_id, title, latest_revision) VALUES ($1, $2, $3, 1)
       ON CONFLICT (publisher, origin_id) DO UPDATE SET latest_revision = wb_team.sessions.latest_revision + 1, title = EXCLUDED.title
       RETURNING id, project, latest_revision`,
      [input.project, input.originId, envelope.session.title],
    );
    const { id: sessionId, project, latest_revision: revision } = s.rows[0];
    await insertPayloads(client, project, [{ hash: headerHash, body: header }, ...rows]);
    await client.query(
      `INSERT INTO wb_team.revisions (session_id, project, revision, client_id, title, model, started_at, ended_at, entry_count, bytes, header_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        sessionId,
        project,
        revision,
        input.clientId,
        envelope.session.title,
        envelope.session.model ? JSON.stringify(envelope.session.model) : null,
        envelope.session.startedAt,
        envelope.session.endedAt,
        rows.length,
        bytes,
        headerHash,
      ],
    );
    for (const slice of slices(rows, (r) => (r.text?.length ?? 0) + 100)) {
      await client.query(
        `INSERT INTO wb_team.entries (session_id, project, revision, seq, kind, ts, payload_hash, search_text)
         SELECT $1, $2, $3, * FROM unnest($4::int[], $5::text[], $6::bigint[], $7::text[], $8::text[])`,
        [
          sessionId,
          project,
          revision,
          slice.map((r) => r.seq),
          slice.map((r) => r.kind),
          slice.map((r) => r.ts),
          slice.map((r) => r.hash),
          slice.map((r) => r.text),
        ],
      );
    }
    await client.query("COMMIT");
    return { sessionId, revision, project, entries: rows.length, bytes, added: true };
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  }
}

async function insertPayloads(client: pg.ClientBase, project: string, items: { hash: string; body: string }[]): Promise<void> {
  const seen = new Set<string>();
  const unique = items.filter((i) => !seen.has(i.hash) && seen.add(i.hash));
  for (const slice of slices(unique, (i) => i.body.length)) {
    await client.query(
      `INSERT INTO wb_team.payloads (project, hash, body) SELECT $1, * FROM unnest($2::text[], $3::text[]) ON CONFLICT DO NOTHING`,
      [project, slice.map((i) => i.hash), slice.map((i) => i.body)],
    );
  }
}

function* slices<T>(items: readonly T[], size: (t: T) => number): Generator<T[]> {
  let cur: T[] = [];
  let bytes = 0;
  for (const item of items) {
    cur.push(item);
    bytes += size(item);
    if (bytes >= STATEMENT_BYTES) {
      yield cur;
      cur = [];
      bytes = 0;
    }
  }
  if (cur.length > 0) yield cur;
}

function kindOf(entry: SessionEntry): string {
  return entry.type === "message" ? entry.message.role : entry.type;
}

function timeOf(entry: SessionEntry): number {
  return entry.type === "message" ? entry.message.timestamp : entry.timestamp;
}

// The same text local search indexes (store/search.ts): message text blocks, no thinking or tool arguments.
function searchText(entry: SessionEntry): string | null {
  if (entry.type !== "message") return null;
  const text = messageText(entry.message);
  return text ? text.slice(0, SEARCH_CHARS) : null;
}

interface SessionRow {
  id: string;
  project: string;
  publisher: string;
  title: string;
  model: TeamSession["model"];
  started_at: string | null;
  ended_at: string | null;
  published_at: Date;
  revision: number;
  entry_count: number;
  state: TeamSession["reviewState"] | null;
  assignees: string[];
}

const SESSION_COLUMNS = `s.id, s.project, s.publisher, r.title, r.model, r.started_at, r.ended_at, r.published_at, r.revision, r.entry_count,
  (SELECT e.state FROM wb_team.review_events e WHERE e.session_id = s.id AND e.state IS NOT NULL ORDER BY e.id DESC LIMIT 1) AS state,
  ARRAY(SELECT DISTINCT e.assignee::text FROM wb_team.review_events e WHERE e.session_id = s.id AND e.assignee IS NOT NULL) AS assignees`;

function toSession(r: SessionRow): TeamSession {
  return {
    id: r.id,
    project: r.project,
    publisher: r.publisher,
    title: r.title,
    model: r.model,
    startedAt: r.started_at === null ? null : Number(r.started_at),
    endedAt: r.ended_at === null ? null : Number(r.ended_at),
    publishedAt: r.published_at.getTime(),
    revision: r.revision,
    entryCount: r.entry_count,
    reviewState: r.state ?? "open",
    assignees: [...r.assignees].sort(),
  };
}

/** Newest published first; only the projects the role is granted (RLS). */
export async function listSessions(client: pg.ClientBase, opts: { project?: string; limit?: number } = {}): Promise<TeamSession[]> {
  const limit = Math.min(Math.max(opts.limit ?? 200, 1), 1000);
  const r = await client.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM wb_team.sessions s
     JOIN wb_team.revisions r ON r.session_id = s.id AND r.revision = s.latest_revision
     WHERE ($1::text IS NULL OR s.project = $1) ORDER BY r.published_at DESC LIMIT $2`,
    [opts.project ?? null, limit],
  );
  return r.rows.map(toSession);
}

export async function getSession(client: pg.ClientBase, id: string): Promise<TeamSession | null> {
  const r = await client.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM wb_team.sessions s
     JOIN wb_team.revisions r ON r.session_id = s.id AND r.revision = s.latest_revision WHERE s.id = $1`,
    [id],
  );
  return r.rows[0] ? toSession(r.rows[0]) : null;
}

/**
 * One published revision (the latest when none is named) as an envelope,
 * checked by the import's own reader and rules: what another member
 * published is untrusted input like any imported file.
 */
export async function loadRevision(
  client: pg.ClientBase,
  id: string,
  revision?: number,
): Promise<{ envelope: SessionExport; revision: number }> {
  const head = await client.query<{ revision: number; body: string }>(
    `SELECT r.revision, p.body FROM wb_team.revisions r JOIN wb_team.payloads p ON p.project = r.project AND p.hash = r.header_hash
     WHERE r.session_id = $1 AND ($2::int IS NULL OR r.revision = $2) ORDER BY r.revision DESC LIMIT 1`,
    [id, revision ?? null],
  );
  if (head.rows.length === 0) throw new TeamError("TEAM_DENIED", "No such published session, or its project is not granted to you");
  const rev = head.rows[0].revision;
  const entries = await client.query<{ seq: number; body: string }>(
    `SELECT e.seq, p.body FROM wb_team.entries e JOIN wb_team.payloads p ON p.project = e.project AND p.hash = e.payload_hash
     WHERE e.session_id = $1 AND e.revision = $2 ORDER BY e.seq`,
    [id, rev],
  );
  let header: SessionExport;
  try {
    header = JSON.parse(head.rows[0].body) as SessionExport;
    // Spliced as text: entries are checked by parseEnvelope below, not trusted here.
    header.entries = entries.rows.map((r) => ({ seq: r.seq, entry: JSON.parse(r.body) as SessionEntry }));
  } catch (e) {
    throw new TeamError("TEAM_INVALID", `The published session does not parse: ${(e as Error).message}`);
  }
  const checked = parseEnvelope(serializeEnvelope(header));
  if (!checked.ok) throw new TeamError("TEAM_INVALID", `The published session fails the import checks: ${checked.error.message}`);
  return { envelope: checked.value, revision: rev };
}

/**
 * Terms as local search reads them (store/search.ts): every term must match,
 * a trailing `*` is a prefix. Only letters and digits reach to_tsquery, so
 * nothing the user types is tsquery syntax. Null when nothing is searchable.
 */
export function toTsQuery(query: string): string | null {
  const parts: string[] = [];
  for (const raw of query.split(/\s+/u)) {
    const prefix = raw.endsWith("*");
    const tokens = raw.match(/[\p{L}\p{N}]+/gu);
    if (!tokens) continue;
    tokens.forEach((t, i) => parts.push(prefix && i === tokens.length - 1 ? `${t}:*` : t));
  }
  return parts.length > 0 ? parts.join(" & ") : null;
}

/**
 * Matches ranked: ts_rank reads each match's tsvector, so a common word over
 * a big library would rank tens of thousands of rows; the newest matches
 * this many are ranked, as local search walks newest first.
 */
const RANKED_CANDIDATES = 2_000;

/** Ranked (ts_rank, then newest) over the latest revision of every visible session; snippets marked \u0002 … \u0003 like local search. */
export async function searchLibrary(
  client: pg.ClientBase,
  query: string,
  opts: { project?: string; limit?: number } = {},
): Promise<TeamSearchHit[]> {
  const q = toTsQuery(query);
  if (q === null) return [];
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 500);
  const r = await client.query<{ session_id: string; title: string; project: string; seq: number; ts: string; snippet: string }>(
    `WITH q AS (SELECT to_tsquery('simple', $1) AS q)
     SELECT h.session_id, s.title, h.project, h.seq, h.ts,
       ts_headline('simple', h.search_text, q.q, 'StartSel=' || chr(2) || ', StopSel=' || chr(3) || ', MaxWords=16, MinWords=6, MaxFragments=1, FragmentDelimiter=…') AS snippet
     FROM q, wb_team.search(q.q, $2, $3, ${RANKED_CANDIDATES}) h JOIN wb_team.sessions s ON s.id = h.session_id
     ORDER BY h.rank DESC, h.ts DESC`,
    [q, opts.project ?? null, limit],
  );
  return r.rows.map((h) => ({
    sessionId: h.session_id,
    sessionTitle: h.title,
    project: h.project,
    seq: h.seq,
    snippet: h.snippet,
    timestamp: Number(h.ts),
  }));
}
