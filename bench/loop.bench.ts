/**
 * `npm run bench:loop`: the agent loop's own overhead per tool round trip.
 *
 * 1,000 round trips (model asks for `read`, the loop runs it, stores the call
 * and its result, sends the next request) in one session against the faux
 * provider, which runs in a child process with no scripted delay. The history
 * grows to ~2,000 messages, so history-dependent costs show.
 *
 * Per round trip i, in this process: total = start of request i+1 − start of
 * request i (the request's bytes handed to the socket: our transport's
 * `requestSentChannel`, and for the baseline node's `http.client.request.start`,
 * published at the same moment); the server's own time = from starting to
 * handle request i to having written its whole response, on its own clock:
 * the smaller of its wall and CPU time (wall time includes being descheduled,
 * CPU time includes parallel GC threads), so the overhead is never
 * understated. Overhead = total − server time: the client reading the stream,
 * the adapter, the loop, the tool, the store, building and sending the next
 * request, and the loopback transit both ways. `clientGapMedianMs` is the part
 * spent after the last byte of a response arrived (response "end" → next
 * request start).
 *
 * Baseline, same run: the exact request bodies the loop sent are replayed by
 * a bare `node:http` client (send, read the response to its end, send the
 * next) against a fresh faux provider, measured the same way. Its overhead is
 * what a client on Node's standard HTTP stack pays here for these round trips
 * (HTTP, loopback, kernel, waking up); `loopOwnMedianMs` is the loop's
 * overhead median minus it. `transportOverheadMedianMs`: the same replay
 * through our own transport alone (`postSse`, events read to the end), the
 * part of the overhead that is not the loop's own work.
 *
 * `cpuPerRoundTripMs`: this process's CPU time over the loop run / round
 * trips, unaffected by other load on a shared machine. Heap growth: heap used
 * after a forced GC, before and after the loop run.
 *
 * Ends with one line: RESULT {"overheadMedianMs":…,"overheadP99Ms":…,"heapGrowthMB":…}
 */
import diagnostics from "node:diagnostics_channel";
import http, { type ClientRequest, type IncomingMessage } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createWorkbench } from "../electron/core/api/create-workbench";
import { postSse } from "../electron/core/providers/http";
import { requestSentChannel, responseEndChannel, type RequestSent } from "../electron/core/providers/http/http1-client";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 1000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

const median = (xs: number[]) => percentile([...xs].sort((x, y) => x - y), 0.5);

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
async function startFauxChild(): Promise<{ baseUrl: string; report: () => Promise<ServerTiming[]> }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "loop-faux-child.ts"), String(ROUND_TRIPS)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const nextLine = () => new Promise<string>((resolve) => lines.once("line", resolve));
  const ready = await nextLine();
  return {
    baseUrl: ready.replace(/^READY /, "").trim(),
    report: async () => {
      child.stdin!.write("report\n");
      return JSON.parse(await nextLine()) as ServerTiming[];
    },
  };
}

/** Client-side stamps of every request to a faux provider: start (handed to the socket) and response end. */
class ClientStamps {
  starts: number[] = [];
  ends: number[] = [];
}
let stamps = new ClientStamps();
const stampStart = () => {
  stamps.starts.push(performance.now());
};
const stampEnd = (own: ClientStamps, index: number) => {
  own.ends[index] = performance.now();
};
// The loop's transport (our HTTP/1.1 client) and the baseline's node:http publish the same two moments.
requestSentChannel.subscribe(stampStart);
responseEndChannel.subscribe(() => stampEnd(stamps, stamps.starts.length - 1));
diagnostics.subscribe("http.client.request.start", stampStart);
diagnostics.subscribe("http.client.response.finish", (message) => {
  const { response } = message as { request: ClientRequest; response: IncomingMessage };
  const own = stamps;
  const index = own.starts.length - 1;
  response.once("end", () => stampEnd(own, index));
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

type Body = Array<string | Uint8Array>;

/**
 * Keeps the chunks of every request body the loop sends until `stop()`: text
 * as bytes (kept as strings they would count as the loop's heap growth), byte
 * chunks by reference (arena bytes are never overwritten). It runs after the
 * request went out (subscribed after the stamp), while the server works.
 */
function recordBodies(): { bodies: Body[]; stop: () => void } {
  const bodies: Body[] = [];
  const record = (message: unknown) => {
    bodies.push((message as RequestSent).body.map((c) => (typeof c === "string" ? Buffer.from(c, "utf8") : c)));
  };
  requestSentChannel.subscribe(record);
  return { bodies, stop: () => requestSentChannel.unsubscribe(record) };
}

/** Our transport alone (no loop): each body posted with `postSse`, its events read to the end. */
async function replayTransport(baseUrl: string, bodies: Body[]): Promise<void> {
  const url = `${baseUrl}/v1/messages`;
  const headers = { "content-type": "application/json", "anthropic-version": "2026-10-21", authorization: "Bearer bench-key-0123456789" };
  for (const chunks of bodies) {
    const response = await postSse({ url, headers, body: chunks });
    for await (const event of response.events) void event;
  }
}

/** The bare client: each body sent as soon as the previous response has been read to its end. */
async function replay(baseUrl: string, bodies: Body[]): Promise<void> {
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL(`${baseUrl}/v1/messages`);
  const headers = { "content-type": "application/json", "anthropic-version": "2026-10-21", authorization: "Bearer bench-key-0123456789" };
  for (const chunks of bodies) {
    const buffers = chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c));
    const length = buffers.reduce((n, b) => n + b.byteLength, 0);
    await new Promise<void>((resolve, reject) => {
      const req = http.request(url, { method: "POST", agent, headers: { ...headers, "content-length": String(length) } }, (res) => {
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", reject);
      for (const b of buffers) req.write(b);
      req.end();
    });
  }
  agent.destroy();
}

async function main(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), "bench-loop-"));
  writeFileSync(join(workspace, "a.txt"), "line one\nline two\n");
  const dbPath = join(workspace, "..", `bench-loop-${process.pid}.db`);
  const faux = await startFauxChild();

  const workbench = await createWorkbench({
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

  const recording = recordBodies();
  const heapBefore = heapMB();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await call("chat.send", { sessionId: session.id, text: "read a.txt a thousand times" });
  await done;
  const totalMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  recording.stop();
  const { bodies } = recording;
  const heapAfter = heapMB();
  const loop = overheadsOf(await faux.report(), stamps);
  await workbench.close();

  // Baseline: the same bodies through a bare client, against a fresh faux provider.
  const replayFaux = await startFauxChild();
  stamps = new ClientStamps();
  await replay(replayFaux.baseUrl, bodies);
  const baseline = overheadsOf(await replayFaux.report(), stamps);
  const transportFaux = await startFauxChild();
  stamps = new ClientStamps();
  await replayTransport(transportFaux.baseUrl, bodies);
  const transport = overheadsOf(await transportFaux.report(), stamps);

  rmSync(workspace, { recursive: true, force: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });

  const { overheads } = loop;
  const tenth = Math.max(1, Math.floor(overheads.length / 10));
  const firstTenth = median(overheads.slice(0, tenth));
  const overheadMedian = median(overheads);
  const baselineMedian = median(baseline.overheads);
  console.log(`overhead median, first tenth of the run: ${firstTenth.toFixed(2)} ms; last tenth: ${median(overheads.slice(-tenth)).toFixed(2)} ms`);
  console.log(
    `round trips: ${overheads.length}, total ${totalMs.toFixed(0)} ms, faux server median ${median(loop.serverMs).toFixed(2)} ms/request, rejected requests: ${loop.rejected}`,
  );
  console.log(
    `baseline, a bare node:http client replaying the same ${bodies.length} bodies: overhead median ${baselineMedian.toFixed(2)} ms, gap median ${median(baseline.clientGaps).toFixed(2)} ms, rejected requests: ${baseline.rejected}`,
  );
  console.log(
    `our transport alone replaying them: overhead median ${median(transport.overheads).toFixed(2)} ms, gap median ${median(transport.clientGaps).toFixed(2)} ms, rejected requests: ${transport.rejected}`,
  );
  console.log(
    `RESULT ${JSON.stringify({
      overheadMedianMs: Number(overheadMedian.toFixed(3)),
      overheadP99Ms: Number(percentile([...overheads].sort((x, y) => x - y), 0.99).toFixed(3)),
      overheadFirstTenthMedianMs: Number(firstTenth.toFixed(3)),
      clientGapMedianMs: Number(median(loop.clientGaps).toFixed(3)),
      baselineOverheadMedianMs: Number(baselineMedian.toFixed(3)),
      loopOwnMedianMs: Number((overheadMedian - baselineMedian).toFixed(3)),
      transportOverheadMedianMs: Number(median(transport.overheads).toFixed(3)),
      serverMedianMs: Number(median(loop.serverMs).toFixed(3)),
      heapGrowthMB: Number((heapAfter - heapBefore).toFixed(2)),
      cpuPerRoundTripMs: Number(((cpu.user + cpu.system) / 1000 / overheads.length).toFixed(3)),
      roundTrips: overheads.length,
    })}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
