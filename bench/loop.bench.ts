/**
 * `npm run bench:loop`: the agent loop's own overhead per tool round trip.
 *
 * 1,000 round trips (model asks for `read`, the loop runs it, stores the call
 * and its result, sends the next request) in one session against the faux
 * provider, which runs in a child process with no scripted delay. The history
 * grows to ~2,000 messages, so history-dependent costs show.
 *
 * Per round trip i, in this process: total = start of request i+1 − start of
 * request i (its headers written to the socket: undici's
 * `undici:client:sendHeaders` channel, which the SDKs' fetch publishes); the
 * server's own time = from starting to handle request i to having written its
 * whole response, on its own clock: the smaller of its wall and CPU time, so
 * the overhead is never understated. Overhead = total − server time: the SDK
 * client and fetch reading the stream, the adapter, the loop, the tool, the
 * store, building and sending the next request, and the loopback transit both
 * ways. `clientGapMedianMs` is the part spent after the response ended
 * (`undici:request:trailers` → next request start).
 *
 * SDK baseline, same run: the exact request bodies the loop sent (as the faux
 * provider received them, written to files by its process once the loop run
 * is over: recording them costs the loop nothing) are parsed back into params
 * and replayed by a bare `@anthropic-ai/sdk` client (same SDK, same fetch,
 * retries off), each stream iterated to its end, against a fresh faux
 * provider, measured the same way; the time to read and parse each body back
 * is measured and left out. `sdkBaselineMedianMs` is what the SDK and the
 * network stack cost per round trip here; `loopOwnMedianMs` = the loop's
 * overhead median minus it: the loop, store, tool and transform work.
 *
 * `buildBody10kMs`: building the full request for a 10,000-message history
 * (the boundary transform, the body, JSON.stringify), median of 7 runs.
 * `cpuPerRoundTripMs`: this process's CPU time over the loop run / round
 * trips. Heap growth: heap used after a forced GC, before and after the loop run.
 *
 * Ends with one line: RESULT {"overheadMedianMs":…,"overheadP99Ms":…,"sdkBaselineMedianMs":…,"loopOwnMedianMs":…,"heapGrowthMB":…,"buildBody10kMs":…}
 */
import Anthropic from "@anthropic-ai/sdk";
import diagnostics from "node:diagnostics_channel";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createWorkbench } from "../electron/core/api/create-workbench";
import { createNodeNetwork } from "../electron/core/network/node-fetch";
import { buildRequest } from "../electron/core/providers/requests";
import { findModel, findProvider } from "../electron/core/providers/registry";
import type { Message } from "../shared/protocol";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** The provider fetch web mode uses (no proxy set here): the loop and the SDK baseline both go through it. */
const appFetch = createNodeNetwork({ env: {} }).fetch;

const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 1000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((x, y) => x - y),
    0.5,
  );

function heapMB(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

interface ServerTiming {
  serverMs: number | null;
  serverCpuMs: number | null;
  accepted: boolean;
}

/** The faux provider in a child process; `report()` returns its per-request timings and ends it. */
async function startFauxChild(bodiesDir?: string): Promise<{ baseUrl: string; report: () => Promise<ServerTiming[]> }> {
  const args = ["--import", "tsx", join(import.meta.dirname, "loop-faux-child.ts"), String(ROUND_TRIPS), ...(bodiesDir ? [bodiesDir] : [])];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const nextLine = () => new Promise<string>((resolve) => lines.once("line", resolve));
  const ready = await nextLine();
  return {
    baseUrl: ready.replace(/^READY /, "").trim(),
    report: async () => {
      child.stdin.write("report\n");
      return JSON.parse(await nextLine()) as ServerTiming[];
    },
  };
}

/** Client-side stamps of every request to a faux provider: start (headers written) and response end. */
class ClientStamps {
  starts: number[] = [];
  ends: number[] = [];
}
let stamps = new ClientStamps();
// The loop's SDK client and the baseline's go through the same fetch (undici), which publishes these moments.
diagnostics.subscribe("undici:client:sendHeaders", () => {
  stamps.starts.push(performance.now());
});
diagnostics.subscribe("undici:request:trailers", () => {
  stamps.ends[stamps.starts.length - 1] = performance.now();
});

interface Overheads {
  overheads: number[];
  clientGaps: number[];
  serverMs: number[];
  rejected: number;
}

/** Per round trip: total (client clock) minus the server's own time, and the gap after each response. */
function overheadsOf(recorded: ServerTiming[], own: ClientStamps): Overheads {
  if (recorded.length !== own.starts.length) throw new Error(`server saw ${recorded.length} requests, client sent ${own.starts.length}`);
  const out: Overheads = { overheads: [], clientGaps: [], serverMs: [], rejected: recorded.filter((r) => !r.accepted).length };
  for (let i = 0; i + 1 < recorded.length; i++) {
    const { serverMs: wall, serverCpuMs: cpu } = recorded[i];
    if (wall === null || cpu === null || own.ends[i] === undefined) continue;
    // The server's wall time grows when it is descheduled (a shared 2-core machine), its CPU time when GC
    // threads run beside it: the smaller one is never more than its own time, so the overhead is never understated.
    const server = Math.min(wall, cpu);
    out.serverMs.push(server);
    out.overheads.push(own.starts[i + 1] - own.starts[i] - server);
    out.clientGaps.push(own.starts[i + 1] - own.ends[i]);
  }
  return out;
}

/**
 * The bare SDK client: each body parsed back into params and sent as soon as
 * the previous stream was iterated to its end. Returns the parse time per
 * request (it falls between a response's end and the next start, and is not the SDK's).
 */
async function replaySdk(baseUrl: string, bodyFiles: string[]): Promise<number[]> {
  const client = new Anthropic({ apiKey: "bench-key-0123456789", baseURL: baseUrl, maxRetries: 0, logLevel: "off", fetch: appFetch });
  const parseMs: number[] = [];
  for (const file of bodyFiles) {
    const t0 = performance.now();
    const params = JSON.parse(readFileSync(file, "utf8")) as Anthropic.MessageCreateParamsStreaming;
    parseMs.push(performance.now() - t0);
    const stream = await client.messages.create(params);
    for await (const event of stream) void event;
  }
  return parseMs;
}

/** A 10,000-message history: a user prompt, then tool rounds (call + result) with now and then a text turn. */
function history10k(): Message[] {
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "Go through the repository." }], timestamp: 1 }];
  const usage = {
    input: 10,
    output: 5,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 15,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const model = { provider: "anthropic", api: "anthropic-messages" as const, id: "claude-haiku-4-5" };
  for (let i = 0; messages.length < 10_000; i++) {
    const id = `toolu_${i.toString().padStart(6, "0")}`;
    messages.push({
      role: "assistant",
      content: [
        { type: "text", text: `Reading file ${i}.` },
        { type: "toolCall", id, name: "read", arguments: { path: `src/file-${i}.ts` } },
      ],
      stopReason: "toolUse",
      model,
      usage,
      timestamp: 2 + i,
    });
    messages.push({
      role: "toolResult",
      toolCallId: id,
      toolName: "read",
      content: [{ type: "text", text: `export const value${i} = ${i};\n`.repeat(8) }],
      isError: false,
      timestamp: 2 + i,
    });
  }
  return messages.slice(0, 10_000);
}

/** The full request (transform + body + JSON) for a 10,000-message history, median of 7 runs after a warm-up. */
function buildBody10kMs(): number {
  const model = findModel({ provider: "anthropic", api: "anthropic-messages", id: "claude-haiku-4-5" });
  const provider = findProvider("anthropic");
  if (!model || !provider) throw new Error("bench model missing from the registry");
  const context = {
    systemPrompt: "You are a coding agent.",
    messages: history10k(),
    tools: [
      {
        name: "read",
        description: "Read a file.",
        parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    ],
  };
  const times: number[] = [];
  for (let run = 0; run < 8; run++) {
    const t0 = performance.now();
    const json = JSON.stringify(buildRequest(model, provider, context, {}).body);
    const ms = performance.now() - t0;
    if (json.length === 0) throw new Error("empty body");
    if (run > 0) times.push(ms);
  }
  return median(times);
}

async function main(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), "bench-loop-"));
  writeFileSync(join(workspace, "a.txt"), "line one\nline two\n");
  const dbPath = join(workspace, "..", `bench-loop-${process.pid}.db`);
  // The loop's request bodies, as the faux provider received them: the baseline replays them.
  const bodiesDir = mkdtempSync(join(tmpdir(), "bench-loop-bodies-"));
  const faux = await startFauxChild(bodiesDir);

  const workbench = await createWorkbench({
    providerFetch: () => appFetch,
    dbPath,
    host: { mode: "web" },
    version: "bench",
    env: { ANTHROPIC_API_KEY: "bench-key-0123456789" },
    baseUrlOverrides: { anthropic: faux.baseUrl },
  });
  const call = async (method: string, params: unknown) => {
    const res = await workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.message}`);
    return res.result as Record<string, unknown>;
  };
  await call("settings.update", {
    budget: { maxToolCalls: ROUND_TRIPS + 10, maxOutputBytes: 1e9, maxDurationMs: 3_600_000, maxSideEffects: 10 },
    // The default cap of model requests per turn is below the bench's round trips.
    limits: { maxCostUsd: null, maxRoundTrips: null, maxWallTimeMs: null },
  });
  const ws = await call("workspace.open", { path: workspace });
  const session = await call("session.create", {
    workspaceId: ws.id,
    model: { provider: "anthropic", api: "anthropic-messages", id: "claude-haiku-4-5" },
  });
  const done = new Promise<void>((resolve) =>
    workbench.onEvent((event, payload) => {
      if (event === "stream.end" && (payload as { sessionId: string }).sessionId === session.id) resolve();
    }),
  );

  const heapBefore = heapMB();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await call("chat.send", { sessionId: session.id, text: "read a.txt a thousand times" });
  await done;
  const totalMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const heapAfter = heapMB();
  const loop = overheadsOf(await faux.report(), stamps);
  const bodies = Array.from({ length: stamps.starts.length }, (_, i) => join(bodiesDir, `${i}.json`));
  await workbench.close();

  // Baseline: the same params through a bare SDK client, against a fresh faux provider.
  const replayFaux = await startFauxChild();
  stamps = new ClientStamps();
  const parseMs = await replaySdk(replayFaux.baseUrl, bodies);
  const baseline = overheadsOf(await replayFaux.report(), stamps);
  // Parsing body i+1 back into params falls inside round trip i: not the SDK's cost.
  const baselineOverheads = baseline.overheads.map((o, i) => o - (parseMs[i + 1] ?? 0));
  const build10k = buildBody10kMs();

  rmSync(workspace, { recursive: true, force: true });
  rmSync(bodiesDir, { recursive: true, force: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });

  const { overheads } = loop;
  const tenth = Math.max(1, Math.floor(overheads.length / 10));
  const firstTenth = median(overheads.slice(0, tenth));
  const overheadMedian = median(overheads);
  const baselineMedian = median(baselineOverheads);
  console.log(
    `overhead median, first tenth of the run: ${firstTenth.toFixed(2)} ms; last tenth: ${median(overheads.slice(-tenth)).toFixed(2)} ms`,
  );
  console.log(
    `round trips: ${overheads.length}, total ${totalMs.toFixed(0)} ms, faux server median ${median(loop.serverMs).toFixed(2)} ms/request, rejected requests: ${loop.rejected}`,
  );
  console.log(
    `SDK baseline, a bare @anthropic-ai/sdk client replaying the same ${bodies.length} requests: overhead median ${baselineMedian.toFixed(2)} ms (body read and parse median ${median(parseMs).toFixed(2)} ms left out), gap median ${median(baseline.clientGaps).toFixed(2)} ms, rejected requests: ${baseline.rejected}`,
  );
  console.log(
    `RESULT ${JSON.stringify({
      overheadMedianMs: Number(overheadMedian.toFixed(3)),
      overheadP99Ms: Number(
        percentile(
          [...overheads].sort((x, y) => x - y),
          0.99,
        ).toFixed(3),
      ),
      sdkBaselineMedianMs: Number(baselineMedian.toFixed(3)),
      loopOwnMedianMs: Number((overheadMedian - baselineMedian).toFixed(3)),
      heapGrowthMB: Number((heapAfter - heapBefore).toFixed(2)),
      buildBody10kMs: Number(build10k.toFixed(2)),
      overheadFirstTenthMedianMs: Number(firstTenth.toFixed(3)),
      clientGapMedianMs: Number(median(loop.clientGaps).toFixed(3)),
      serverMedianMs: Number(median(loop.serverMs).toFixed(3)),
      cpuPerRoundTripMs: Number(((cpu.user + cpu.system) / 1000 / overheads.length).toFixed(3)),
      roundTrips: overheads.length,
    })}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
