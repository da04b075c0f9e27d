/**
 * The team library's PostgreSQL schema: numbered, forward-only migrations in
 * the `wb_team` schema, applied in one transaction under an advisory lock by
 * the role that owns that schema (docs/team.md#the-admin-sql). Members get
 * SELECT and INSERT only (plus the publisher's own revision counter), so
 * revisions, notes and review events are append-only by the grants, and
 * row-level security limits every table to the projects granted to a role.
 */
import type pg from "pg";
import { TeamError, toTeamError } from "./errors";

export const TEAM_SCHEMA = "wb_team";
export const MEMBER_ROLE = "wb_team_member";
/** LISTEN channel: payloads carry ids only; a listener reads the row through RLS. */
export const NOTES_CHANNEL = "wb_team_notes";

interface TeamMigration {
  version: number;
  sql: string;
}

// Projects the current role may see: those granted to a role it is a member of (directly or through groups).
const VISIBLE = `project IN (SELECT a.project FROM wb_team.project_access a JOIN pg_roles r ON r.rolname = a.member
  WHERE pg_has_role(current_user, r.oid, 'MEMBER'))`;

// Each table, and what else an insert must satisfy: nobody writes as someone else, a revision goes only
// to the writer's own session, and entries only into a revision made in the same transaction (immutable after).
const INSERT_CHECK: Record<string, string | null> = {
  payloads: null,
  sessions: "publisher = current_user",
  revisions: `publisher = current_user AND EXISTS (SELECT 1 FROM wb_team.sessions s
    WHERE s.id = session_id AND s.publisher = current_user)`,
  entries: `EXISTS (SELECT 1 FROM wb_team.revisions r WHERE r.session_id = entries.session_id
    AND r.revision = entries.revision AND r.publisher = current_user AND r.txid = pg_current_xact_id())`,
  notes: "author = current_user",
  review_events: "author = current_user",
};

const MIGRATIONS: readonly TeamMigration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE wb_team.project_access (
        project text NOT NULL,
        member name NOT NULL,
        PRIMARY KEY (project, member)
      );
      ALTER TABLE wb_team.project_access ENABLE ROW LEVEL SECURITY;
      CREATE POLICY own_grants ON wb_team.project_access FOR SELECT
        USING (member IN (SELECT r.rolname FROM pg_roles r WHERE pg_has_role(current_user, r.oid, 'MEMBER')));

      -- Content-addressed: an entry's JSON by its SHA-256, once per project.
      CREATE TABLE wb_team.payloads (
        project text NOT NULL,
        hash text NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (project, hash),
        -- Nobody can squat a hash with other content.
        CHECK (hash = encode(sha256(convert_to(body, 'UTF8')), 'hex'))
      );

      CREATE TABLE wb_team.sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project text NOT NULL,
        publisher name NOT NULL DEFAULT current_user,
        origin_id text NOT NULL,
        title text NOT NULL,
        latest_revision integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (publisher, origin_id),
        UNIQUE (id, project)
      );
      CREATE INDEX sessions_by_project ON wb_team.sessions (project, created_at DESC);

      CREATE TABLE wb_team.revisions (
        session_id uuid NOT NULL,
        project text NOT NULL,
        revision integer NOT NULL,
        client_id uuid NOT NULL UNIQUE,
        publisher name NOT NULL DEFAULT current_user,
        txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        published_at timestamptz NOT NULL DEFAULT now(),
        title text NOT NULL,
        model jsonb,
        started_at bigint,
        ended_at bigint,
        entry_count integer NOT NULL,
        bytes bigint NOT NULL,
        -- The envelope without its entries (session, redaction, notes, audit rows, problems).
        header_hash text NOT NULL,
        PRIMARY KEY (session_id, revision),
        FOREIGN KEY (session_id, project) REFERENCES wb_team.sessions (id, project),
        FOREIGN KEY (project, header_hash) REFERENCES wb_team.payloads (project, hash)
      );

      CREATE TABLE wb_team.entries (
        session_id uuid NOT NULL,
        project text NOT NULL,
        revision integer NOT NULL,
        seq integer NOT NULL,
        kind text NOT NULL,
        ts bigint NOT NULL,
        payload_hash text NOT NULL,
        search_text text,
        tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(search_text, ''))) STORED,
        PRIMARY KEY (session_id, revision, seq),
        FOREIGN KEY (session_id, revision) REFERENCES wb_team.revisions (session_id, revision)
      );
      CREATE INDEX entries_fts ON wb_team.entries USING gin (tsv);

      CREATE TABLE wb_team.notes (
        id bigserial PRIMARY KEY,
        session_id uuid NOT NULL,
        project text NOT NULL,
        revision integer NOT NULL,
        seq integer NOT NULL,
        author name NOT NULL DEFAULT current_user,
        verdict text CHECK (verdict IN ('ok', 'problem')),
        text text NOT NULL,
        path text,
        line integer,
        client_id uuid NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (session_id, project) REFERENCES wb_team.sessions (id, project)
      );
      CREATE INDEX notes_by_session ON wb_team.notes (session_id, id);

      CREATE TABLE wb_team.review_events (
        id bigserial PRIMARY KEY,
        session_id uuid NOT NULL,
        project text NOT NULL,
        author name NOT NULL DEFAULT current_user,
        state text CHECK (state IN ('open', 'changesRequested', 'approved')),
        assignee name,
        client_id uuid NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((state IS NULL) <> (assignee IS NULL)),
        FOREIGN KEY (session_id, project) REFERENCES wb_team.sessions (id, project)
      );
      CREATE INDEX review_events_by_session ON wb_team.review_events (session_id, id);

      CREATE FUNCTION wb_team.notify_note() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${NOTES_CHANNEL}', json_build_object('kind', TG_ARGV[0], 'id', NEW.id, 'sessionId', NEW.session_id)::text);
        RETURN NULL;
      END $$;
      CREATE TRIGGER notes_notify AFTER INSERT ON wb_team.notes FOR EACH ROW EXECUTE FUNCTION wb_team.notify_note('note');
      CREATE TRIGGER review_notify AFTER INSERT ON wb_team.review_events FOR EACH ROW EXECUTE FUNCTION wb_team.notify_note('review');

      ${Object.entries(INSERT_CHECK)
        .map(
          ([t, check]) => `ALTER TABLE wb_team.${t} ENABLE ROW LEVEL SECURITY;
      CREATE POLICY visible ON wb_team.${t} FOR SELECT USING (${VISIBLE});
      CREATE POLICY publish ON wb_team.${t} FOR INSERT WITH CHECK (${VISIBLE}${check ? ` AND ${check}` : ""});`,
        )
        .join("\n      ")}
      -- Only the publisher moves a session to its next revision; the project never changes.
      CREATE POLICY next_revision ON wb_team.sessions FOR UPDATE USING (publisher = current_user AND ${VISIBLE});

      -- Search runs as the owner with the policy's own project filter: under RLS the planner may not use the
      -- GIN index for @@ (not a leakproof operator), and 100k rows would be scanned whole. The filter is the
      -- login role's grants (session_user: inside this function current_user is the owner).
      CREATE FUNCTION wb_team.search(q tsquery, only_project text, lim integer, candidates integer)
        RETURNS TABLE (session_id uuid, project text, seq integer, ts bigint, rank real, search_text text)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
        WITH visible AS (
          SELECT a.project FROM wb_team.project_access a JOIN pg_roles r ON r.rolname = a.member
          WHERE pg_has_role(session_user, r.oid, 'MEMBER')),
        matches AS (
          SELECT e.session_id, e.revision, e.seq
          FROM wb_team.entries e JOIN wb_team.sessions s ON s.id = e.session_id AND e.revision = s.latest_revision
          WHERE e.tsv @@ q AND e.project IN (SELECT v.project FROM visible v) AND (only_project IS NULL OR e.project = only_project)
          ORDER BY e.ts DESC LIMIT candidates)
        SELECT e.session_id, e.project, e.seq, e.ts, ts_rank(e.tsv, q) AS rank, e.search_text
        FROM matches m JOIN wb_team.entries e ON e.session_id = m.session_id AND e.revision = m.revision AND e.seq = m.seq
        ORDER BY rank DESC, e.ts DESC LIMIT lim
      $fn$;
      REVOKE ALL ON FUNCTION wb_team.search(tsquery, text, integer, integer) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION wb_team.search(tsquery, text, integer, integer) TO ${MEMBER_ROLE};

      GRANT SELECT ON wb_team.project_access TO ${MEMBER_ROLE};
      GRANT SELECT, INSERT ON wb_team.payloads, wb_team.sessions, wb_team.revisions, wb_team.entries,
        wb_team.notes, wb_team.review_events TO ${MEMBER_ROLE};
      GRANT UPDATE (latest_revision, title) ON wb_team.sessions TO ${MEMBER_ROLE};
      GRANT USAGE ON SEQUENCE wb_team.notes_id_seq, wb_team.review_events_id_seq TO ${MEMBER_ROLE};
    `,
  },
];

export const TEAM_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** The applied version (0 when the app has never migrated this database). */
export async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('wb_team.schema_migrations') AS t`);
  if (exists.rows[0].t === null) return 0;
  const r = await client.query<{ v: number }>(`SELECT coalesce(max(version), 0) AS v FROM wb_team.schema_migrations`);
  return Number(r.rows[0].v);
}

/**
 * Brings the schema to TEAM_SCHEMA_VERSION. A member role cannot (no CREATE
 * on the schema): it gets TEAM_DENIED naming the versions, and an admin runs
 * the app once as the owner.
 */
export async function migrateTeamSchema(client: pg.ClientBase): Promise<number> {
  const current = await schemaVersion(client);
  if (current >= TEAM_SCHEMA_VERSION) return current;
  try {
    await client.query("BEGIN");
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('wb_team.migrate'))`);
    await client.query(`CREATE TABLE IF NOT EXISTS wb_team.schema_migrations (
      version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    await client.query(`GRANT SELECT ON wb_team.schema_migrations TO ${MEMBER_ROLE}`);
    const again = await schemaVersion(client);
    for (const m of MIGRATIONS) {
      if (m.version <= again) continue;
      await client.query(m.sql);
      await client.query(`INSERT INTO wb_team.schema_migrations (version) VALUES ($1)`, [m.version]);
    }
    await client.query("COMMIT");
    return TEAM_SCHEMA_VERSION;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    const err = toTeamError(e);
    if (err.code === "TEAM_DENIED")
      throw new TeamError(
        "TEAM_DENIED",
        `The team library's schema is at version ${current} and this app needs ${TEAM_SCHEMA_VERSION}; this role may not migrate it. An admin runs the app once as the schema's owner (docs/team.md). (${err.message})`,
      );
    throw err;
  }
}
