/**
 * `npm run bench:compaction`: a 2,000-round-trip turn through compaction.
 *
 * One prompt, then 2,000 `read` calls of ~4 KB files on a model with a
 * 32k-token window (the faux provider, in a child process, enforces it and
 * answers compaction's summary requests), so the turn prunes and summarises
 * about every twenty steps. What must stay flat as the stored history grows
 * (it reaches ~4,000 messages and ~8 MB of tool output):
 *
 * - per-request build time: from the end of a response (undici's
 *   `undici:request:trailers`) to the next request's headers written
 *   (`undici:client:sendHeaders`): storing the answer, running the read,
 *   storing its result, deciding on compaction, building the next request
 *   (transform, body, JSON) and sending it. Summary requests are left out
 *   (their gap holds the compaction's own work); the gap before the request
 *   after a compaction is kept.
 * - core memory: what the history makes the core keep is the RSS and heap
 *   after a forced full GC, sampled every 20 requests: the first / last tenth
 *   figures (the highest of each tenth) and their ratios. `peakRssMB` is the
 *   highest RSS at any request start, garbage made since the last collection
 *   included. (Without forced collections V8 lets garbage grow its heap over
 *   the first few hundred requests before it settles, so a first tenth of
 *   such samples would measure the GC's warm-up, not the history.)
 *
 * Build time is reported for the first and the last tenth of the requests
 * (median), with the ratio last / first. Run with --expose-gc (the npm script does).
 *
 * Ends with one line: RESULT {"roundTrips":…,"requests":…,"summaries":…,"prunes":…,"rejected":…,"maxRequestTokens":…,
 * "buildFirstTenthMs":…,"buildLastTenthMs":…,"buildRatio":…,"peakRssMB":…,"rssFirstTenthMB":…,"rssLastTenthMB":…,"rssRatio":…,
 * "heapFirstTenthMB":…,"heapLastTenthMB":…,"heapRatio":…}
 */
import { spawn } from "node:child_process";
import diagnostics from "node:diagnostics_channel";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { createWorkbench } from "../electron/core/api/create-workbench";
import { createNodeNetwork } from "../electron/core/network/node-fetch";
import type { ModelInfo } from "../shared/models";

const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 2000);
const WINDOW = 32_000;
const MODEL: ModelInfo = {
  id: "bench-window",
  name: "Bench (32k window)",
  provider: "anthropic",
  api: "anthropic-messages",
  contextWindow: WINDOW,
  maxOutput: 4_096,
  input: ["text"],
  reasoning: false,
  price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};

const appFetch = createNodeNetwork({ env: {} }).fetch;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)];
};
const mb = (bytes: number) => bytes / 1024 / 1024;

interface ServerRecord {
  tokens: number;
  summary: boolean;
  accepted: boolean;
}

async function startFauxChild(): Promise<{ baseUrl: string; report: () => Promise<ServerRecord[]> }> {
  const args = ["--import", "tsx", join(import.meta.dirname, "compaction-faux-child.ts"), String(ROUND_TRIPS), String(WINDOW), MODEL.id];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const nextLine = () => new Promise<string>((resolve) => lines.once("line", resolve));
  const ready = await nextLine();
  return {
    baseUrl: ready.replace(/^READY /, "").trim(),
    report: async () => {
      child.stdin.write("report\n");
      return JSON.parse(await nextLine()) as ServerRecord[];
    },
  };
}

const GC_EVERY = 20;
const gc = (globalThis as { gc?: () => void }).gc;
const starts: number[] = [];
const ends: number[] = [];
const rss: number[] = [];
/** After a forced full GC, every GC_EVERY requests: what the core keeps. */
const kept: Array<{ rss: number; heap: number }> = [];
diagnostics.subscribe("undici:client:sendHeaders", () => {
  // Stamped first: the collection below falls after this request's start, outside any build time.
  starts.push(performance.now());
  rss.push(process.memoryUsage().rss);
  if (gc && starts.length % GC_EVERY === 0) {
    gc();
    const m = process.memoryUsage();
    kept.push({ rss: m.rss, heap: m.heapUsed });
  }
});
diagnostics.subscribe("undici:request:trailers", () => {
  ends[starts.length - 1] = performance.now();
});

async function main(): Promise<void> {
  if (!gc) throw new Error("run with node --expose-gc (npm run bench:compaction)");
  const root = mkdtempSync(join(tmpdir(), "bench-compaction-"));
  const workspace = join(root, "project");
  mkdirSync(join(workspace, "src"), { recursive: true });
  for (let f = 0; f < 50; f++) {
    writeFileSync(
      join(workspace, "src", `file-${f}.ts`),
      Array.from({ length: 80 }, (_, i) => `export const value${f}_${i} = "${"v".repeat(30)}";`).join("\n"),
    );
  }
  const faux = await startFauxChild();
  const workbench = await createWorkbench({
    providerFetch: () => appFetch,
    dbPath: join(root, "bench.db"),
    host: { mode: "web" },
    version: "bench",
    env: { ANTHROPIC_API_KEY: "bench-key-0123456789" },
    baseUrlOverrides: { anthropic: faux.baseUrl },
    extraModels: [MODEL],
  });
  const call = async (method: string, params: unknown) => {
    const res = await workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.message}`);
    return res.result as Record<string, unknown>;
  };
  await call("settings.update", {
    budget: { maxToolCalls: ROUND_TRIPS + 10, maxOutputBytes: 1e12, maxDurationMs: 36_000_000, maxSideEffects: 10 },
    limits: { maxCostUsd: null, maxRoundTrips: null, maxWallTimeMs: null },
  });
  const ws = await call("workspace.open", { path: workspace });
  const session = await call("session.create", {
    workspaceId: ws.id,
    model: { provider: MODEL.provider, api: MODEL.api, id: MODEL.id },
  });
  const outcome: { error: string | null } = { error: null };
  const done = new Promise<void>((resolve) =>
    workbench.onEvent((event, payload) => {
      const p = payload as { sessionId?: string; message?: string };
      if (p.sessionId !== session.id) return;
      if (event === "turn.error") outcome.error = p.message ?? "error";
      if (event === "stream.end") resolve();
    }),
  );
  const t0 = performance.now();
  await call("chat.send", {
    sessionId: session.id,
    text: `Read src/file-0.ts to src/file-49.ts over and over, ${ROUND_TRIPS} reads in all.`,
  });
  await done;
  const totalMs = performance.now() - t0;
  const loaded = (await call("session.load", { sessionId: session.id })) as { entries: Array<{ entry: { type: string; step?: string } }> };
  const server = await faux.report();
  await workbench.close();
  rmSync(root, { recursive: true, force: true });

  if (outcome.error !== null) throw new Error(`the turn failed: ${outcome.error}`);
  if (server.length !== starts.length) throw new Error(`server saw ${server.length} requests, client sent ${starts.length}`);
  const compactions = loaded.entries.filter((e) => e.entry.type === "compaction").map((e) => e.entry.step);
  // Request i's build time: from response i-1's end to request i's start (summary requests left out).
  const build: number[] = [];
  for (let i = 1; i < starts.length; i++) {
    if (server[i].summary || ends[i - 1] === undefined) continue;
    build.push(starts[i] - ends[i - 1]);
  }
  const tenth = Math.max(1, Math.floor(build.length / 10));
  const buildFirst = median(build.slice(0, tenth));
  const buildLast = median(build.slice(-tenth));
  const keptTenth = Math.max(1, Math.floor(kept.length / 10));
  const highest = (xs: typeof kept, key: "rss" | "heap") => mb(Math.max(...xs.map((x) => x[key])));
  const rssFirst = highest(kept.slice(0, keptTenth), "rss");
  const rssLast = highest(kept.slice(-keptTenth), "rss");
  const heapFirst = highest(kept.slice(0, keptTenth), "heap");
  const heapLast = highest(kept.slice(-keptTenth), "heap");
  const result = {
    roundTrips: ROUND_TRIPS,
    requests: starts.length,
    summaries: compactions.filter((s) => s === "summary").length,
    prunes: compactions.filter((s) => s === "prune").length,
    rejected: server.filter((r) => !r.accepted).length,
    maxRequestTokens: Math.max(...server.map((r) => r.tokens)),
    buildFirstTenthMs: Number(buildFirst.toFixed(3)),
    buildLastTenthMs: Number(buildLast.toFixed(3)),
    buildRatio: Number((buildLast / buildFirst).toFixed(3)),
    peakRssMB: Number(mb(Math.max(...rss)).toFixed(1)),
    rssFirstTenthMB: Number(rssFirst.toFixed(1)),
    rssLastTenthMB: Number(rssLast.toFixed(1)),
    rssRatio: Number((rssLast / rssFirst).toFixed(3)),
    heapFirstTenthMB: Number(heapFirst.toFixed(1)),
    heapLastTenthMB: Number(heapLast.toFixed(1)),
    heapRatio: Number((heapLast / heapFirst).toFixed(3)),
  };
  console.log(
    `${result.requests} requests in ${(totalMs / 1000).toFixed(1)} s for ${ROUND_TRIPS} round trips: ${result.prunes} prunes, ${result.summaries} summaries, largest request ${result.maxRequestTokens} of ${WINDOW} tokens, ${result.rejected} rejected`,
  );
  console.log(`per-request build time, median: first tenth ${buildFirst.toFixed(2)} ms, last tenth ${buildLast.toFixed(2)} ms`);
  console.log(
    `core after a full GC, highest: RSS first tenth ${rssFirst.toFixed(1)} MB, last tenth ${rssLast.toFixed(1)} MB; heap ${heapFirst.toFixed(1)} → ${heapLast.toFixed(1)} MB; peak RSS at any request ${result.peakRssMB} MB`,
  );
  console.log(`RESULT ${JSON.stringify(result)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
