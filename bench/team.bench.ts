/**
 * Team library benchmark (`npm run bench:team`). A script, not a test: it
 * prints figures and ends with one line `RESULT {json}`. It starts its own
 * PostgreSQL on this machine (test/team/pg-server.ts; Debian's postgresql
 * package, as root run as the `postgres` user) set up with docs/team.md's
 * admin SQL, and publishes as a member role through the app's TeamService.
 *
 * - publish10k: publishing a 10,000-entry session (bench/store-entries.ts,
 *   1–4 KB of JSON each) in its one transaction, median over the ten sessions
 *   that fill the library; publishBytes: the envelope's bytes as sent, and
 *   serverBytes: what the library's tables grew by for one such publish.
 *   Baseline, same run: the same envelope imported into a local store (the
 *   local write of the same session), median over the same sessions.
 * - search100k: ranked full-text queries over 100,000 published messages,
 *   median over several queries (7 runs each). Baseline: the local store's
 *   FTS5 search over the same 100,000 messages.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { SessionStore } from "../electron/core/store";
import { buildEnvelope, importEnvelope, loadExportSource, serializeEnvelope } from "../electron/core/review/export-json";
import { createRedactor } from "../electron/core/review/redact";
import { TeamService } from "../electron/core/team/service";
import { PASSWORDS, startTeamEnv } from "../test/team/team-env";
import { RARE, nextEntry, pick, resetPendingCalls } from "./store-entries";

const SESSIONS = 10;
const ENTRIES = 10_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function main(): Promise<void> {
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const env = await startTeamEnv();
  if ("skip" in env) {
    console.log(`skipped: ${env.skip}`);
    console.log(`RESULT ${JSON.stringify({ skipped: env.skip })}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-team-"));
  const store = SessionStore.open(join(dir, "local.db"));
  const baselineStore = SessionStore.open(join(dir, "baseline.db"));
  const team = new TeamService({
    store,
    redactor: () => createRedactor(),
    password: () => Promise.resolve(PASSWORDS.alice),
    events: { note() {}, review() {}, status() {} },
  });
  try {
    await team.configure(env.connection("alice"));
    await team.list(); // connect and check the schema before timing
    const ws = store.addWorkspace("/bench/team");
    const baseWs = baselineStore.addWorkspace("/bench/team-baseline");
    const tableBytes = async () => {
      const r = await env.asOwner(
        `SELECT sum(pg_total_relation_size(c.oid))::bigint AS b FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'wb_team' AND c.relkind IN ('r', 'm')`,
      );
      return Number((r.rows[0] as { b: string }).b);
    };
    const publishMs: number[] = [];
    const baselineMs: number[] = [];
    let publishBytes = 0;
    let serverBytes = 0;
    for (let s = 0; s < SESSIONS; s++) {
      const session = store.createSession({ workspaceId: ws.id, title: `bench session ${s}` });
      resetPendingCalls();
      for (let i = 0; i < ENTRIES; i++) store.appendEntry(session.id, nextEntry(s * ENTRIES + i));
      const before = s === 0 ? await tableBytes() : 0;
      const t0 = performance.now();
      const out = await team.publish(session.id);
      publishMs.push(performance.now() - t0);
      if (out.queued) throw new Error("the bench server went away");
      if (s === 0) {
        publishBytes = out.value.bytes;
        serverBytes = (await tableBytes()) - before;
      }
      // Baseline: the same redacted envelope written into a local store.
      const source = loadExportSource(store, session.id);
      if (!source.ok) throw new Error(source.error.message);
      const envelope = buildEnvelope(source.value, createRedactor());
      const t1 = performance.now();
      const imported = await importEnvelope(baselineStore, baseWs.id, envelope);
      baselineMs.push(performance.now() - t1);
      if (!imported.ok) throw new Error(imported.error.message);
      if (s === 0) console.log(`envelope: ${round(Buffer.byteLength(serializeEnvelope(envelope)) / 1e6, 2)} MB as JSON`);
      console.log(`session ${s}: publish ${round(publishMs[s])} ms, local import ${round(baselineMs[s])} ms`);
    }
    const publish10kMs = median(publishMs);
    const localWrite10kMs = median(baselineMs);
    console.log(
      `publish 10k: median ${round(publish10kMs)} ms, ${round(publishBytes / 1e6, 2)} MB sent, tables grew ${round(serverBytes / 1e6, 2)} MB`,
    );

    const queries = [
      pick(RARE.slice(0, 50)),
      RARE[500],
      RARE[5000],
      `${RARE[3]} ${RARE[40]}`,
      "function return",
      `${RARE[12].slice(0, 3)}*`,
      "error",
      'hostile "quote -minus (paren',
    ];
    const teamMedians: number[] = [];
    const localMedians: number[] = [];
    for (const q of queries) {
      const tt: number[] = [];
      const lt: number[] = [];
      let teamHits = 0;
      let localHits = 0;
      for (let r = 0; r < 7; r++) {
        const t0 = performance.now();
        teamHits = (await team.search(q)).length;
        tt.push(performance.now() - t0);
        const t1 = performance.now();
        localHits = store.search(q).length;
        lt.push(performance.now() - t1);
      }
      teamMedians.push(median(tt));
      localMedians.push(median(lt));
      console.log(
        `search ${JSON.stringify(q)}: team ${teamHits} hits ${round(median(tt), 2)} ms, local ${localHits} hits ${round(median(lt), 2)} ms`,
      );
    }
    const search100kMs = median(teamMedians);
    const localSearch100kMs = median(localMedians);
    console.log(
      `load average at end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    console.log(
      `RESULT ${JSON.stringify({
        publish10kMs: round(publish10kMs),
        publishMB: round(publishBytes / 1e6, 2),
        serverMB: round(serverBytes / 1e6, 2),
        localWrite10kMs: round(localWrite10kMs),
        publishRatioToLocal: round(publish10kMs / localWrite10kMs, 2),
        search100kMs: round(search100kMs, 2),
        localSearch100kMs: round(localSearch100kMs, 2),
        searchRatioToLocal: round(search100kMs / localSearch100kMs, 2),
        messages: SESSIONS * ENTRIES,
      })}`,
    );
  } finally {
    await team.close();
    store.close();
    baselineStore.close();
    env.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
