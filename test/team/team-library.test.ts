/**
 * The team library against a real PostgreSQL (test/team/pg-server.ts), set
 * up with docs/team.md's admin SQL: two app instances on two data folders
 * (alice and bob, granted project alpha) publish and see each other's
 * sessions, notes arrive live, carol (a member with no project) sees
 * nothing, hostile members cannot rewrite history or write as someone else,
 * and a server stopped mid-publish loses and doubles nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { SessionStore } from "../../electron/core/store";
import { createRedactor } from "../../electron/core/review/redact";
import { TeamError } from "../../electron/core/team/errors";
import { publishEnvelope } from "../../electron/core/team/library";
import { TeamService } from "../../electron/core/team/service";
import { buildEnvelope, loadExportSource } from "../../electron/core/review/export-json";
import type { TeamNote, TeamSession, TeamStatus } from "../../shared/team";
import { buildSession } from "../review/fixture";
import { tempDir, user, assistant, type TempDir } from "../store/helpers";
import { PASSWORDS, startTeamEnv, type TeamEnv } from "./team-env";

let env: TeamEnv | null = null;
let skip = "";
const dirs: TempDir[] = [];
const services: TeamService[] = [];

beforeAll(async () => {
  const started = await startTeamEnv();
  if ("skip" in started) skip = started.skip;
  else env = started;
});

afterAll(async () => {
  for (const s of services) await s.close();
  env?.destroy();
  for (const d of dirs) d.remove();
});

interface Instance {
  store: SessionStore;
  team: TeamService;
  workspaceId: string;
  notes: TeamNote[];
  reviews: TeamSession[];
  statuses: TeamStatus[];
}

/** One app instance: its own data folder and store, connected as `role`. */
async function instance(role: string, withSession = false): Promise<Instance & { sessionId: string }> {
  const dir = tempDir("team-app-");
  dirs.push(dir);
  const fixture = withSession ? buildSession(dir.file("sessions.db")) : null;
  const store = fixture?.store ?? SessionStore.open(dir.file("sessions.db"));
  const workspaceId = fixture?.workspaceId ?? store.addWorkspace("/home/dev/review").id;
  const notes: TeamNote[] = [];
  const reviews: TeamSession[] = [];
  const statuses: TeamStatus[] = [];
  const team = new TeamService({
    store,
    redactor: () => createRedactor(),
    password: async () => PASSWORDS[role] ?? null,
    events: { note: (n) => notes.push(n), review: (s) => reviews.push(s), status: (s) => statuses.push(s) },
    retryMs: 200,
  });
  services.push(team);
  await team.configure(env!.connection(role));
  return { store, team, workspaceId, notes, reviews, statuses, sessionId: fixture?.sessionId ?? "" };
}

async function until<T>(what: string, fn: () => T | Promise<T>, ms = 15_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function expectTeamError(p: Promise<unknown>, code: string): Promise<void> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(TeamError);
  expect((e as TeamError).code).toBe(code);
}

describe("team library on PostgreSQL", () => {
  it("two instances publish, see and open each other's sessions; re-publishing adds a revision", async (ctx) => {
    if (!env) return ctx.skip(skip);
    const a = await instance("alice", true);
    const b = await instance("bob");
    const published = await a.team.publish(a.sessionId);
    expect(published.queued).toBe(false);
    if (published.queued) return;
    const localEntries = a.store.loadEntries(a.sessionId);
    expect(published.value).toMatchObject({ revision: 1, project: "alpha", entries: localEntries.length, added: true });

    const bobSession = b.store.createSession({ workspaceId: b.workspaceId, title: "Bob fixes the parser" });
    b.store.appendEntry(bobSession.id, user("the tokenizer drops unicode quotes", Date.UTC(2025, 3, 1)));
    b.store.appendEntry(
      bobSession.id,
      assistant([{ type: "text", text: "Found it: the quote regex is ASCII only." }], { timestamp: Date.UTC(2025, 3, 1, 0, 1) }),
    );
    const bobPublished = await b.team.publish(bobSession.id);
    expect(bobPublished.queued).toBe(false);

    const seenByBob = await b.team.list();
    const seenByAlice = await a.team.list();
    expect(seenByBob.map((s) => s.title).sort()).toEqual(["Bob fixes the parser", "Rename greet"]);
    expect(seenByAlice.map((s) => s.id).sort()).toEqual(seenByBob.map((s) => s.id).sort());
    const alices = seenByBob.find((s) => s.title === "Rename greet")!;
    expect(alices).toMatchObject({
      publisher: "alice",
      project: "alpha",
      revision: 1,
      reviewState: "open",
      entryCount: localEntries.length,
    });

    // Bob opens Alice's session: a local copy with the same entries, as an export envelope has them.
    const opened = await b.team.open(alices.id, b.workspaceId);
    const copy = b.store.loadEntries(opened.session.id);
    const source = loadExportSource(a.store, a.sessionId);
    if (!source.ok) throw new Error("fixture");
    const envelope = buildEnvelope(source.value, createRedactor());
    expect(copy.map((e) => e.seq)).toEqual(envelope.entries.map((e) => e.seq));
    expect(copy).toEqual(envelope.entries);
    // Opening again reuses the copy.
    expect((await b.team.open(alices.id, b.workspaceId)).session.id).toBe(opened.session.id);

    // Alice works on and publishes again: revision 2; revision 1 stays as it was.
    a.store.appendEntry(a.sessionId, user("one more thing: update the README", Date.UTC(2025, 2, 1, 10)));
    const again = await a.team.publish(a.sessionId);
    expect(again.queued === false && again.value).toMatchObject({ revision: 2, sessionId: alices.id });
    const v1 = await b.team.open(alices.id, b.workspaceId, 1);
    const v2 = await b.team.open(alices.id, b.workspaceId);
    expect(v2.revision).toBe(2);
    expect(b.store.loadEntries(v2.session.id)).toHaveLength(localEntries.length + 1);
    expect(b.store.loadEntries(v1.session.id)).toHaveLength(localEntries.length);
    expect((await b.team.get(alices.id))?.revision).toBe(2);

    // Search: ranked full-text over the latest revisions, with the project filter.
    const hits = await b.team.search("unicode quotes");
    expect(hits[0]).toMatchObject({ sessionTitle: "Bob fixes the parser", project: "alpha", seq: 1 });
    expect(hits[0].snippet).toContain("\u0002unicode\u0003");
    expect(await b.team.search("README", { project: "beta" })).toEqual([]);
    expect((await b.team.search("readm*")).some((h) => h.sessionId === alices.id)).toBe(true);
    expect(await b.team.search(`'); DROP TABLE wb_team.notes; --`)).toEqual([]);
  });

  it("notes and verdicts from two reviewers arrive live, attributed by the server", async (ctx) => {
    if (!env) return ctx.skip(skip);
    const a = await instance("alice", true);
    const b = await instance("bob");
    const p = await a.team.publish(a.sessionId);
    if (p.queued) throw new Error("unexpected queue");
    await a.team.watch();
    await b.team.watch();
    const note = await b.team.addNote({
      sessionId: p.value.sessionId,
      revision: 1,
      seq: 3,
      verdict: "problem",
      text: "This read fails: wrong path",
    });
    expect(note.queued === false && note.value).toMatchObject({ author: "bob", verdict: "problem", seq: 3 });
    const live = await until("bob's note at alice", () => a.notes.find((n) => n.text === "This read fails: wrong path"));
    expect(live).toMatchObject({ author: "bob", verdict: "problem", sessionId: p.value.sessionId });

    await a.team.addNote({ sessionId: p.value.sessionId, revision: 1, seq: 3, verdict: null, text: "Fixed in the next step" });
    await until("alice's note at bob", () => b.notes.find((n) => n.text === "Fixed in the next step"));
    await b.team.requestReview(p.value.sessionId, "carol");
    await b.team.setReviewState(p.value.sessionId, "changesRequested");
    const reviewed = await until("the review state at alice", () => a.reviews.find((s) => s.reviewState === "changesRequested"));
    expect(reviewed.assignees).toEqual(["carol"]);
    const all = await a.team.notes(p.value.sessionId);
    expect(all.map((n) => [n.author, n.text])).toEqual([
      ["bob", "This read fails: wrong path"],
      ["alice", "Fixed in the next step"],
    ]);
  });

  it("row-level security: a member with no grant on the project sees and writes nothing of it", async (ctx) => {
    if (!env) return ctx.skip(skip);
    const a = await instance("alice", true);
    const c = await instance("carol");
    const p = await a.team.publish(a.sessionId);
    if (p.queued) throw new Error("unexpected queue");
    await a.team.addNote({ sessionId: p.value.sessionId, revision: 1, seq: 1, verdict: "ok", text: "secret project note" });

    expect(await c.team.list()).toEqual([]);
    expect(await c.team.search("greet")).toEqual([]);
    expect(await c.team.notes(p.value.sessionId)).toEqual([]);
    await expectTeamError(c.team.open(p.value.sessionId, c.workspaceId), "TEAM_DENIED");
    await expectTeamError(c.team.addNote({ sessionId: p.value.sessionId, revision: 1, seq: 1, verdict: null, text: "hi" }), "TEAM_DENIED");
    const own = c.store.createSession({ workspaceId: c.workspaceId, title: "carol's" });
    c.store.appendEntry(own.id, user("hello"));
    await expectTeamError(c.team.publish(own.id, "alpha"), "TEAM_DENIED");
    expect(c.team.status().failed).toEqual([]);

    // Straight SQL as carol: every table is empty to her.
    const carol = new pg.Client({ connectionString: env.pg.url("carol", PASSWORDS.carol, "workbench") });
    await carol.connect();
    try {
      for (const t of ["payloads", "sessions", "revisions", "entries", "notes", "review_events", "project_access"]) {
        const r = await carol.query<{ n: number }>(`SELECT count(*)::int AS n FROM wb_team.${t}`);
        expect(r.rows[0].n, t).toBe(0);
      }
      // The search function runs as the owner: it must apply the grants itself, whatever project is asked for.
      const searched = await carol.query(`SELECT count(*)::int AS n FROM wb_team.search(to_tsquery('simple', 'greet'), 'alpha', 50, 2000)`);
      expect((searched.rows[0] as { n: number }).n).toBe(0);
      // A notification reaches every listener, but carries ids only.
      await carol.query("LISTEN wb_team_notes");
      const heard = new Promise<string>((resolve) => carol.on("notification", (m) => resolve(m.payload ?? "")));
      await a.team.addNote({ sessionId: p.value.sessionId, revision: 1, seq: 2, verdict: null, text: "do not leak this text" });
      const payload = await heard;
      expect(payload).not.toContain("leak");
      expect(Object.keys(JSON.parse(payload) as object).sort()).toEqual(["id", "kind", "sessionId"]);
    } finally {
      await carol.end();
    }
  });

  it("a granted member cannot rewrite a revision, squat a payload hash or write as someone else", async (ctx) => {
    if (!env) return ctx.skip(skip);
    const a = await instance("alice", true);
    const p = await a.team.publish(a.sessionId);
    if (p.queued) throw new Error("unexpected queue");
    const bob = new pg.Client({ connectionString: env.pg.url("bob", PASSWORDS.bob, "workbench") });
    await bob.connect();
    const refused = async (sql: string, params: unknown[] = []) => {
      const e = await bob.query(sql, params).then(
        () => null,
        (err: { code?: string }) => err,
      );
      expect(e, sql).not.toBeNull();
      return e?.code;
    };
    try {
      const sid = p.value.sessionId;
      expect(await refused(`UPDATE wb_team.revisions SET title = 'x' WHERE session_id = $1`, [sid])).toBe("42501");
      expect(await refused(`DELETE FROM wb_team.notes`)).toBe("42501");
      expect(await refused(`DELETE FROM wb_team.entries WHERE session_id = $1`, [sid])).toBe("42501");
      const { rows } = await bob.query<{ hash: string }>(`SELECT hash FROM wb_team.payloads LIMIT 1`);
      expect(
        await refused(
          `INSERT INTO wb_team.entries (session_id, project, revision, seq, kind, ts, payload_hash) VALUES ($1, 'alpha', 1, 9999, 'user', 0, $2)`,
          [sid, rows[0].hash],
        ),
      ).toBe("42501");
      expect(
        await refused(
          `INSERT INTO wb_team.revisions (session_id, project, revision, client_id, title, entry_count, bytes, header_hash) VALUES ($1, 'alpha', 7, gen_random_uuid(), 'x', 0, 0, $2)`,
          [sid, rows[0].hash],
        ),
      ).toBe("42501");
      // Another publisher's session: RLS leaves no row to update.
      const upd = await bob.query(`UPDATE wb_team.sessions SET latest_revision = 99 WHERE id = $1`, [sid]);
      expect(upd.rowCount).toBe(0);
      expect(await refused(`INSERT INTO wb_team.payloads (project, hash, body) VALUES ('alpha', repeat('0', 64), '{"evil":true}')`)).toBe(
        "23514",
      );
      expect(
        await refused(
          `INSERT INTO wb_team.notes (session_id, project, revision, seq, text, client_id, author) VALUES ($1, 'alpha', 1, 1, 'as alice', gen_random_uuid(), 'alice')`,
          [sid],
        ),
      ).toBe("42501");
    } finally {
      await bob.end();
    }
    expect((await a.team.get(p.value.sessionId))?.revision).toBe(1);
  });

  it("the server stopped mid-publish: queued, then synced once; a note written while down too", async (ctx) => {
    if (!env) return ctx.skip(skip);
    const a = await instance("alice");
    const big = a.store.createSession({ workspaceId: a.workspaceId, title: "Long refactor" });
    for (let i = 0; i < 2_000; i++)
      a.store.appendEntry(big.id, user(`step ${i} of the refactor ${"x".repeat(200)}`, Date.UTC(2025, 4, 1) + i));
    const first = await a.team.publish(big.id);
    if (first.queued) throw new Error("unexpected queue");
    a.store.appendEntry(big.id, user("and the last step", Date.UTC(2025, 4, 2)));

    // Hold the publish inside its transaction (entries locked by the admin), then stop the server under it.
    const admin = new pg.Client({ connectionString: env.pg.url("postgres", env.pg.superuser.password, "workbench") });
    await admin.connect();
    admin.on("error", () => undefined);
    await admin.query("BEGIN");
    await admin.query("LOCK TABLE wb_team.entries IN ACCESS EXCLUSIVE MODE");
    const pending = a.team.publish(big.id);
    await until("the publish waiting on the lock", async () => {
      // Its insert into entries waits for the lock (after the payloads and the revision are written in its transaction).
      const r = await admin.query(`SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE a.usename = 'alice' AND NOT l.granted AND l.relation = 'wb_team.entries'::regclass`);
      return r.rows.length > 0;
    });
    env.pg.stop();
    const outcome = await pending;
    expect(outcome.queued).toBe(true);
    expect(a.team.status()).toMatchObject({ queued: 1, reachable: false });
    expect(a.team.status().lastError).not.toContain(PASSWORDS.alice);
    const note = await a.team.addNote({ sessionId: first.value.sessionId, revision: 1, seq: 1, verdict: "ok", text: "written offline" });
    expect(note.queued).toBe(true);
    expect(a.team.status().queued).toBe(2);

    env.pg.start();
    await until("the outbox drained", () => a.team.status().queued === 0, 30_000);
    expect(a.team.status().failed).toEqual([]);
    const check = await env.asOwner(
      `SELECT r.revision, r.entry_count, (SELECT count(*)::int FROM wb_team.entries e WHERE e.session_id = r.session_id AND e.revision = r.revision) AS n
       FROM wb_team.revisions r WHERE r.session_id = $1 ORDER BY r.revision`,
      [first.value.sessionId],
    );
    expect(check.rows).toEqual([
      { revision: 1, entry_count: 2_000, n: 2_000 },
      { revision: 2, entry_count: 2_001, n: 2_001 },
    ]);
    const notes = await env.asOwner(`SELECT text FROM wb_team.notes WHERE session_id = $1`, [first.value.sessionId]);
    expect(notes.rows).toEqual([{ text: "written offline" }]);

    // An answer lost after the commit: the same client id is sent again and adds nothing.
    const envelope = buildEnvelope((loadExportSource(a.store, big.id) as { ok: true; value: never }).value, createRedactor());
    const c = new pg.Client({ connectionString: env.pg.url("alice", PASSWORDS.alice, "workbench") });
    await c.connect();
    try {
      const clientId = "6f1d2f43-1b5e-4a57-9a51-0d3f4c2b9e10";
      const once = await publishEnvelope(c, { project: "alpha", originId: big.id, clientId, envelope });
      const twice = await publishEnvelope(c, { project: "alpha", originId: big.id, clientId, envelope });
      expect(once).toMatchObject({ revision: 3, added: true });
      expect(twice).toMatchObject({ revision: 3, added: false });
    } finally {
      await c.end();
    }
  });

  it("says what is wrong: a wrong password is TEAM_DENIED without the password, a closed port TEAM_UNREACHABLE", async (ctx) => {
    if (!env) return ctx.skip(skip);
    const a = await instance("alice");
    const wrong = new TeamService({
      store: a.store,
      redactor: () => createRedactor(),
      password: async () => "hunter2-wrong",
      events: { note() {}, review() {}, status() {} },
    });
    services.push(wrong);
    await wrong.configure(env.connection("alice"));
    const e = await wrong.list().catch((err: unknown) => err as TeamError);
    expect(e).toBeInstanceOf(TeamError);
    expect((e as TeamError).code).toBe("TEAM_DENIED");
    expect((e as TeamError).message).not.toContain("hunter2-wrong");
    await wrong.configure({ ...env.connection("alice"), port: 1 });
    await expectTeamError(wrong.list(), "TEAM_UNREACHABLE");
  });
});
