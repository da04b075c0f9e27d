/**
 * `npm run bench:loop`: the agent loop's own overhead per tool round trip.
 *
 * 1,000 round trips (model asks for `read`, the loop runs it, stores the call
 * and its result, sends the next request) in one session against the faux
 * provider, which runs in a child process with no scripted delay. The history
 * grows to ~2,000 messages, so history-dependent costs show.
 *
 * Per round trip i, in this process: total = start of request i+1 − start of
 * request i (Node's `http.client.request.start` diagnostics channel); the
 * server's own time = from starting to handle request i to having written its
 * whole response, on its own clock: the smaller of its wall and CPU time
 * (wall time includes being descheduled, CPU time includes parallel GC
 * threads), so the overhead is never understated. Overhead = total − server time: the client reading the stream, the adapter, the loop, the
 * tool, the store, building and sending the next request, and the loopback
 * transit both ways. `clientGapMedianMs` is the part spent after the last byte
 * of a response arrived (response "end" → next request start).
 * `cpuPerRoundTripMs`: this process's CPU time over the run / round trips,
 * unaffected by other load on a shared machine. Heap growth: heap used after
 * a forced GC, before and after the run.
 *
 * Ends with one line: RESULT {"overheadMedianMs":…,"overheadP99Ms":…,"heapGrowthMB":…}
 */
import diagnostics from "node:diagnostics_channel";
import type { ClientRequest, IncomingMessage } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createWorkbench } from "../electron/core/api/create-workbench";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 1000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

function heapMB(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function main(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), "bench-loop-"));
  writeFileSync(join(workspace, "a.txt"), "line one\nline two\n");
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "loop-faux-child.ts"), String(ROUND_TRIPS)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const nextLine = () => new Promise<string>((resolve) => lines.once("line", resolve));
  const ready = await nextLine();
  const baseUrl = ready.replace(/^READY /, "").trim();

  const workbench = await createWorkbench({
    dbPath: join(workspace, "..", `bench-loop-${process.pid}.db`),
    host: { mode: "web" },
    version: "bench",
    env: { ANTHROPIC_API_KEY: "bench-key-0123456789" },
    baseUrlOverrides: { anthropic: baseUrl },
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

  // Client-side stamps of every request to the faux provider.
  const starts: number[] = [];
  const ends: number[] = [];
  diagnostics.subscribe("http.client.request.start", () => {
    starts.push(performance.now());
  });
  diagnostics.subscribe("http.client.response.finish", (message) => {
    const { response } = message as { request: ClientRequest; response: IncomingMessage };
    const index = starts.length - 1;
    response.once("end", () => {
      ends[index] = performance.now();
    });
  });

  const heapBefore = heapMB();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await call("chat.send", { sessionId: session.id, text: "read a.txt a thousand times" });
  await done;
  const totalMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const heapAfter = heapMB();

  child.stdin!.write("report\n");
  const recorded = JSON.parse(await nextLine()) as Array<{ serverMs: number | null; serverCpuMs: number | null; accepted: boolean }>;
  if (recorded.length !== starts.length) throw new Error(`server saw ${recorded.length} requests, client sent ${starts.length}`);
  const serverMs: number[] = [];
  const overheads: number[] = [];
  const clientGaps: number[] = [];
  for (let i = 0; i + 1 < recorded.length; i++) {
    const { serverMs: wall, serverCpuMs: cpu } = recorded[i];
    if (wall === null || cpu === null || ends[i] === undefined) continue;
    // The server's wall time grows when it is descheduled (a shared 2-core machine), its CPU time when GC
    // threads run beside it: the smaller one is never more than its own time, so the overhead is never understated.
    const server = Math.min(wall, cpu);
    serverMs.push(server);
    overheads.push(starts[i + 1] - starts[i] - server);
    clientGaps.push(starts[i + 1] - ends[i]);
  }
  const median = (xs: number[]) => percentile([...xs].sort((x, y) => x - y), 0.5);
  const tenth = Math.max(1, Math.floor(overheads.length / 10));
  const shortHistoryMedian = median(overheads.slice(0, tenth));
  console.log(
    `overhead median, first tenth of the run: ${shortHistoryMedian.toFixed(2)} ms; last tenth: ${median(overheads.slice(-tenth)).toFixed(2)} ms`,
  );
  const clientGapMedian = median(clientGaps);
  overheads.sort((x, y) => x - y);
  const rejected = recorded.filter((r) => !r.accepted).length;

  await workbench.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(join(workspace, "..", `bench-loop-${process.pid}.db`), { force: true });
  rmSync(join(workspace, "..", `bench-loop-${process.pid}.db-wal`), { force: true });
  rmSync(join(workspace, "..", `bench-loop-${process.pid}.db-shm`), { force: true });

  console.log(
    `round trips: ${overheads.length}, total ${totalMs.toFixed(0)} ms, faux server median ${median(serverMs).toFixed(2)} ms/request, rejected requests: ${rejected}`,
  );
  console.log(
    `RESULT ${JSON.stringify({
      overheadMedianMs: Number(percentile(overheads, 0.5).toFixed(3)),
      overheadP99Ms: Number(percentile(overheads, 0.99).toFixed(3)),
      overheadFirstTenthMedianMs: Number(shortHistoryMedian.toFixed(3)),
      clientGapMedianMs: Number(clientGapMedian.toFixed(3)),
      serverMedianMs: Number(median(serverMs).toFixed(3)),
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
