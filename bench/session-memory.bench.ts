/**
 * `npm run bench:session-memory`: what a long stored session costs the core's
 * memory, against its size on disk.
 *
 * A session of 20,000 realistic messages (user text, assistant text with tool
 * calls, tool results of 1–4 KB, from bench/store-entries.ts) is stored, the
 * core is opened on that store, and after a forced full GC it reports the
 * core's RSS and heap:
 *
 * - `base`: the workbench open, no session loaded (the baseline of this run);
 * - `loaded`: after the renderer's `session.load` and the session's agent with
 *   its journal (everything a next request is built from) and context meter;
 * - `compacted`: after `session.compact` ("Compact now"), answered by the faux
 *   provider in a child process (its memory is not the core's).
 *
 * Each figure minus the baseline is compared with the store file's size (the
 * ratio says how many bytes of memory a byte of stored session costs).
 * Run with --expose-gc (the npm script does). Ends with
 * RESULT {"messages":…,"diskMB":…,"baseRssMB":…,"loadedRssMB":…,"compactedRssMB":…,"baseHeapMB":…,"loadedHeapMB":…,
 * "compactedHeapMB":…,"loadedOverDisk":…,"compactedOverDisk":…,"loadedHeapOverDisk":…,"compactedHeapOverDisk":…,
 * "loadMs":…,"compactMs":…}
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { createWorkbench } from "../electron/core/api/create-workbench";
import { createNodeNetwork } from "../electron/core/network/node-fetch";
import { SessionStore } from "../electron/core/store";
import type { ModelInfo } from "../shared/models";
import { nextEntry, resetPendingCalls } from "./store-entries";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const MODEL: ModelInfo = {
  id: "bench-window",
  name: "Bench (200k window)",
  provider: "anthropic",
  api: "anthropic-messages",
  contextWindow: 200_000,
  maxOutput: 8_192,
  input: ["text"],
  reasoning: false,
  price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));

function measure(): { rss: number; heap: number } {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

/** The faux provider in its own process, with no reads to ask for: it answers summaries, and text otherwise. */
async function startFauxChild(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const args = ["--import", "tsx", join(import.meta.dirname, "compaction-faux-child.ts"), "0", String(MODEL.contextWindow), MODEL.id];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise<string>((resolve) => lines.once("line", resolve));
  // Never outlive the bench, whatever ends it.
  process.once("exit", () => child.kill());
  return {
    baseUrl: ready.replace(/^READY /, "").trim(),
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.stdin.write("report\n");
      await exited;
    },
  };
}

function seed(dbPath: string, workspace: string): void {
  const store = SessionStore.open(dbPath);
  const ws = store.addWorkspace(workspace);
  const stored = store.createSession({
    workspaceId: ws.id,
    title: "a long session",
    model: { provider: MODEL.provider, api: MODEL.api, id: MODEL.id },
  });
  resetPendingCalls();
  for (let i = 0; i < MESSAGES; i++) store.appendEntry(stored.id, nextEntry(i));
  store.close();
  writeFileSync(`${dbPath}.session`, stored.id);
}

async function main(): Promise<void> {
  if (!gc) throw new Error("run with node --expose-gc (npm run bench:session-memory)");
  const root = mkdtempSync(join(tmpdir(), "bench-session-memory-"));
  const workspace = join(root, "project");
  mkdirSync(workspace, { recursive: true });
  const dbPath = join(root, "bench.db");

  // The stored session, written in a child process (so that none of the writing's memory is the core's
  // under test), as the app writes it: one append per entry.
  await new Promise<void>((resolve, reject) => {
    const seeding = spawn(process.execPath, ["--import", "tsx", import.meta.filename, "--seed", dbPath, workspace], { stdio: "inherit" });
    seeding.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`seeding exited with ${code}`))));
  });
  const sessionId = readFileSync(`${dbPath}.session`, "utf8");
  const diskBytes = statSync(dbPath).size;

  const faux = await startFauxChild();
  const appFetch = createNodeNetwork({ env: {} }).fetch;
  const workbench = await createWorkbench({
    providerFetch: () => appFetch,
    dbPath,
    host: { mode: "web" },
    version: "bench",
    env: { ANTHROPIC_API_KEY: "bench-key-0123456789" },
    baseUrlOverrides: { anthropic: faux.baseUrl },
    extraModels: [MODEL],
  });
  const call = async (method: string, params: unknown) => {
    const res = await workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.message}`);
    return res.result;
  };
  await call("workspace.open", { path: workspace });
  const base = measure();

  const t0 = performance.now();
  await call("session.load", { sessionId });
  // The agent and its journal (what the session's next request is built from), as a turn would build them.
  await call("session.instructions", { sessionId });
  await call("session.contextMeter", { sessionId });
  const loadMs = performance.now() - t0;
  const loaded = measure();

  const t1 = performance.now();
  await call("session.compact", { sessionId });
  const compactMs = performance.now() - t1;
  const compacted = measure();

  await workbench.close();
  await faux.stop();
  rmSync(root, { recursive: true, force: true });

  const over = (m: { rss: number }) => Number(((m.rss - base.rss) / diskBytes).toFixed(2));
  const heapOver = (m: { heap: number }) => Number(((m.heap - base.heap) / diskBytes).toFixed(2));
  const result = {
    messages: MESSAGES,
    diskMB: mb(diskBytes),
    baseRssMB: mb(base.rss),
    loadedRssMB: mb(loaded.rss),
    compactedRssMB: mb(compacted.rss),
    baseHeapMB: mb(base.heap),
    loadedHeapMB: mb(loaded.heap),
    compactedHeapMB: mb(compacted.heap),
    loadedOverDisk: over(loaded),
    compactedOverDisk: over(compacted),
    loadedHeapOverDisk: heapOver(loaded),
    compactedHeapOverDisk: heapOver(compacted),
    loadMs: Math.round(loadMs),
    compactMs: Math.round(compactMs),
  };
  console.log(
    `${MESSAGES} messages, ${result.diskMB} MB on disk: core RSS ${result.baseRssMB} MB open, ${result.loadedRssMB} MB loaded ` +
      `(+${(result.loadedRssMB - result.baseRssMB).toFixed(1)} MB, ${result.loadedOverDisk}× the file), ${result.compactedRssMB} MB after compaction ` +
      `(${result.compactedOverDisk}× the file); heap ${result.baseHeapMB} → ${result.loadedHeapMB} → ${result.compactedHeapMB} MB ` +
      `(${result.loadedHeapOverDisk}× / ${result.compactedHeapOverDisk}× the file); load ${result.loadMs} ms, compaction ${result.compactMs} ms`,
  );
  console.log(`RESULT ${JSON.stringify(result)}`);
}

if (process.argv[2] === "--seed") seed(process.argv[3], process.argv[4]);
else
  void main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
