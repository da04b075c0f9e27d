/**
 * `npm run bench:loop`: the agent loop's own overhead per tool round trip.
 *
 * 1,000 round trips (model asks for `read`, the loop runs it, stores the call
 * and its result, sends the next request) against the faux provider with no
 * scripted delay. Per round trip: the time between two requests arriving at
 * the faux server, minus the server's own time answering the first of them
 * (measured by the server side of the same run). Heap growth: heap used after
 * a forced GC, before and after the run.
 *
 * Ends with one line: RESULT {"overheadMedianMs":…,"overheadP99Ms":…,"heapGrowthMB":…}
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createWorkbench } from "../electron/core/api/create-workbench";
import { startFauxProvider } from "../electron/core/faux";
import type { FauxRequest } from "../electron/core/faux";

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
  const faux = await startFauxProvider();

  // Server-side timing: arrival of each request and the time spent answering it.
  const arrivals: number[] = [];
  const serverMs: number[] = [];
  let calls = 0;
  faux.setDefaultResponder((req: FauxRequest) => {
    const started = performance.now();
    arrivals[req.seq] = started;
    calls++;
    const reply =
      calls <= ROUND_TRIPS
        ? { type: "reply" as const, content: [{ type: "toolCall" as const, id: `toolu_${calls}`, name: "read", arguments: { path: "a.txt" } }] }
        : { type: "reply" as const, content: [{ type: "text" as const, text: "done" }] };
    serverMs[req.seq] = performance.now() - started;
    return reply;
  });

  const workbench = await createWorkbench({
    dbPath: join(workspace, "..", `bench-loop-${process.pid}.db`),
    host: { mode: "web" },
    version: "bench",
    env: { ANTHROPIC_API_KEY: "bench-key-0123456789" },
    baseUrlOverrides: { anthropic: faux.baseUrls.anthropic },
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

  const heapBefore = heapMB();
  const t0 = performance.now();
  await call("chat.send", { sessionId: session.id, text: "read a.txt a thousand times" });
  await done;
  const totalMs = performance.now() - t0;
  const heapAfter = heapMB();

  // Round trip i: from the arrival of request i to the arrival of request i+1.
  // The server also spent serverMs[i] and the bytes travelled both ways over
  // loopback; what remains is the client: SDK parsing, adapter, loop, tool, store.
  const recorded = faux.requests.map((r) => r.seq);
  const overheads: number[] = [];
  for (let i = 0; i + 1 < recorded.length; i++) {
    const a = recorded[i];
    const b = recorded[i + 1];
    if (arrivals[a] === undefined || arrivals[b] === undefined) continue;
    overheads.push(arrivals[b] - arrivals[a] - serverMs[a]);
  }
  overheads.sort((x, y) => x - y);
  const rejected = faux.requests.filter((r) => !r.accepted).length;

  await workbench.close();
  await faux.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(join(workspace, "..", `bench-loop-${process.pid}.db`), { force: true });
  rmSync(join(workspace, "..", `bench-loop-${process.pid}.db-wal`), { force: true });
  rmSync(join(workspace, "..", `bench-loop-${process.pid}.db-shm`), { force: true });

  console.log(`round trips: ${overheads.length}, total ${totalMs.toFixed(0)} ms, rejected requests: ${rejected}`);
  console.log(
    `RESULT ${JSON.stringify({
      overheadMedianMs: Number(percentile(overheads, 0.5).toFixed(3)),
      overheadP99Ms: Number(percentile(overheads, 0.99).toFixed(3)),
      heapGrowthMB: Number((heapAfter - heapBefore).toFixed(2)),
      roundTrips: overheads.length,
    })}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
