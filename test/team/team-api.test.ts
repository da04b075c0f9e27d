/**
 * The team.* requests through the real Workbench (zod-validated dispatch), two
 * app instances on two data folders and a real PostgreSQL: Settings → Team
 * from a URL (its password to the key store, never SQLite), publish from one,
 * open in the other with replay and "what the model saw", a note and a
 * verdict that arrive live in the first, a review state back. Hostile params
 * are refused as INVALID_REQUEST before anything runs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventName, RequestMethod, RequestParams, RequestResult } from "../../shared/api";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import type { SecretStore } from "../../electron/core/api/workbench";
import { buildSession } from "../review/fixture";
import { tempDir, type TempDir } from "../store/helpers";
import { startHarness } from "../agent/harness";
import { PASSWORDS, startTeamEnv, type TeamEnv } from "./team-env";

let env: TeamEnv | null = null;
let skip = "";
const cleanups: Array<() => unknown> = [];
const dirs: TempDir[] = [];

beforeAll(async () => {
  const started = await startTeamEnv();
  if ("skip" in started) skip = started.skip;
  else env = started;
});

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  env?.destroy();
  for (const d of dirs) d.remove();
});

function memorySecrets(): SecretStore & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: (k) => Promise.resolve(values.get(k) ?? null),
    set: (k, v) => Promise.resolve(void (v === null ? values.delete(k) : values.set(k, v))),
    list: () => Promise.resolve([...values.keys()]),
  };
}

async function app(withSession: boolean) {
  const dir = tempDir("team-api-");
  dirs.push(dir);
  const dbPath = join(dir.path, "workbench.db");
  let sessionId = "";
  let workspaceId = "";
  if (withSession) {
    const f = buildSession(dbPath);
    sessionId = f.sessionId;
    workspaceId = f.workspaceId;
    f.store.close();
  }
  const secrets = memorySecrets();
  const wb = await createWorkbench({ dbPath, host: { mode: "web", secrets }, version: "test", env: {}, checkpointDir: null });
  cleanups.push(() => wb.close());
  const events: Array<{ event: EventName; payload: unknown }> = [];
  wb.onEvent((event, payload) => events.push({ event, payload }));
  const call = async <M extends RequestMethod>(method: M, params: RequestParams<M>) => {
    const res = await wb.handle(method, params);
    if (!res.ok) throw Object.assign(new Error(`${method}: ${res.error.message}`), { code: res.error.code });
    return res.result as RequestResult<M>;
  };
  const code = async (method: RequestMethod, params: unknown) => {
    const res = await wb.handle(method, params);
    return res.ok ? "ok" : res.error.code;
  };
  if (!workspaceId) workspaceId = (await call("workspace.open", { path: dir.path })).id;
  return { wb, call, code, events, secrets, dbPath, sessionId, workspaceId };
}

async function until<T>(what: string, fn: () => T | undefined): Promise<T> {
  const end = Date.now() + 15_000;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("team.* requests", () => {
  it("publish from one instance, open in another, note and verdict seen live in the first", async (ctx) => {
    if (!env) return ctx.skip(skip);
    const a = await app(true);
    const b = await app(false);
    expect(await a.code("team.list", {})).toBe("TEAM_NOT_CONFIGURED");

    // Settings → Team from a URL: the password goes to the key store, never into SQLite.
    const url = `${env.pg.url("alice", PASSWORDS.alice, "workbench")}`;
    const saved = await a.call("team.configure", { url, defaultProject: "alpha" });
    expect(saved).toMatchObject({ passwordSet: true, connection: { user: "alice", database: "workbench", defaultProject: "alpha" } });
    expect(a.secrets.values.get("team-postgres")).toBe(PASSWORDS.alice);
    expect(JSON.stringify(saved)).not.toContain(PASSWORDS.alice);
    await b.call("team.configure", { connection: env.connection("bob"), password: PASSWORDS.bob });

    const published = await a.call("team.publish", { sessionId: a.sessionId });
    expect(published.queued).toBe(false);
    const [listed] = await b.call("team.list", {});
    expect(listed).toMatchObject({ title: "Rename greet", publisher: "alice", reviewState: "open" });

    // Opened in b: a local copy, replayed and shown as the model saw it, like any session.
    const opened = await b.call("team.open", { id: listed.id, workspaceId: b.workspaceId });
    const timeline = await b.call("review.timeline", { sessionId: opened.localSessionId });
    expect(timeline.items.length).toBeGreaterThan(5);
    const step = timeline.items.find((i) => i.kind === "assistant");
    expect(step).toBeDefined();
    const seen = await b.call("review.modelView", { sessionId: opened.localSessionId, seq: step!.seq });
    expect(seen).toBeTruthy();

    await until("a's live connection", () =>
      a.events.find((e) => e.event === "team.status" && (e.payload as { reachable: boolean }).reachable),
    );
    const note = await b.call("team.notes.add", {
      sessionId: listed.id,
      revision: 1,
      seq: step!.seq,
      verdict: "problem",
      text: "The edit misses the README",
    });
    expect(note).toMatchObject({ queued: false, note: { author: "bob", verdict: "problem" } });
    const live = await until("bob's note at a", () => a.events.find((e) => e.event === "team.note"));
    expect(live.payload).toMatchObject({ author: "bob", text: "The edit misses the README", verdict: "problem" });

    await a.call("team.review.request", { id: listed.id, assignee: "bob" });
    await b.call("team.review.state", { id: listed.id, state: "approved" });
    const review = await until("the approval at a", () =>
      a.events.find((e) => e.event === "team.review" && (e.payload as { reviewState: string }).reviewState === "approved"),
    );
    expect(review.payload).toMatchObject({ assignees: ["bob"], id: listed.id });

    // Nothing of the password in the local database file.
    await a.wb.close();
    expect(readFileSync(a.dbPath).includes(Buffer.from(PASSWORDS.alice))).toBe(false);
  });

  it("a workspace set to publish its sessions publishes each at the end of its turns; without it nothing is published", async (ctx) => {
    if (!env) return ctx.skip(skip);
    const h = await startHarness({ workbench: { host: { mode: "web", secrets: memorySecrets() } } });
    cleanups.push(() => h.close());
    await h.call("team.configure", { connection: env.connection("alice"), password: PASSWORDS.alice });
    const mine = async () => (await h.call("team.list", {})).filter((s) => s.title.includes("Summarise the changelog"));

    h.faux.script({ type: "reply", content: [{ type: "text", text: "Nothing to summarise yet." }] });
    await h.turn("Summarise the changelog");
    await new Promise((r) => setTimeout(r, 500));
    expect(await mine()).toEqual([]);

    const on = await h.call("team.autoPublish", { workspaceId: h.workspaceId, on: true });
    expect(on.autoPublish).toEqual([h.workspaceId]);
    h.faux.script({ type: "reply", content: [{ type: "text", text: "Still nothing." }] });
    await h.turn("And now?");
    let listed = await mine();
    for (const end = Date.now() + 15_000; listed.length === 0 && Date.now() < end; listed = await mine())
      await new Promise((r) => setTimeout(r, 100));
    expect(listed).toEqual([expect.objectContaining({ publisher: "alice", revision: 1, entryCount: expect.any(Number) })]);
    const entriesAtFirst = listed[0].entryCount;

    h.faux.script({ type: "reply", content: [{ type: "text", text: "Done." }] });
    await h.turn("Thanks");
    for (const end = Date.now() + 15_000; listed[0]?.revision !== 2 && Date.now() < end; listed = await mine())
      await new Promise((r) => setTimeout(r, 100));
    expect(listed).toEqual([expect.objectContaining({ revision: 2 })]);
    expect(listed[0].entryCount).toBeGreaterThan(entriesAtFirst);

    // Turned off: the next turn publishes nothing more.
    await h.call("team.autoPublish", { workspaceId: h.workspaceId, on: false });
    h.faux.script({ type: "reply", content: [{ type: "text", text: "Bye." }] });
    await h.turn("Bye");
    await new Promise((r) => setTimeout(r, 500));
    expect((await mine())[0].revision).toBe(2);
  });

  it("refuses hostile params before anything runs", async (ctx) => {
    if (!env) return ctx.skip(skip);
    const a = await app(false);
    await a.call("team.configure", { connection: env.connection("alice"), password: PASSWORDS.alice });
    expect(await a.code("team.notes.add", { sessionId: "x' OR 1=1 --", revision: 1, seq: 1, verdict: null, text: "t" })).toBe(
      "INVALID_REQUEST",
    );
    expect(await a.code("team.review.request", { id: "6f1d2f43-1b5e-4a57-9a51-0d3f4c2b9e10", assignee: "bob; DROP ROLE bob" })).toBe(
      "INVALID_REQUEST",
    );
    expect(await a.code("team.review.state", { id: "6f1d2f43-1b5e-4a57-9a51-0d3f4c2b9e10", state: "merged" })).toBe("INVALID_REQUEST");
    expect(await a.code("team.configure", { connection: { ...env.connection("alice"), port: 70_000 } })).toBe("INVALID_REQUEST");
    expect(await a.code("team.configure", { url: "http://example.com/x" })).toBe("TEAM_INVALID");
    // A session nobody published (or that is not granted): denied, not a crash.
    expect(await a.code("team.open", { id: "6f1d2f43-1b5e-4a57-9a51-0d3f4c2b9e10", workspaceId: a.workspaceId })).toBe("TEAM_DENIED");
  });
});
