/**
 * Session-store benchmark (`npm run bench:store`). A script, not a test: it
 * prints figures and ends with one line `RESULT {json}`.
 *
 * - append: 10,000 realistic entries (user text, assistant text + tool calls,
 *   tool results with details; 1–4 KB of JSON each), one transaction each,
 *   timed one by one. The baseline is the least any store could do with the
 *   same entry: JSON.stringify and a bare INSERT into a one-table schema, same
 *   pragmas (WAL, synchronous=NORMAL), same run, interleaved in chunks so a
 *   noisy neighbour hits both alike.
 * - load10k: loading (and validating) that 10,000-entry session.
 * - search100k: FTS queries over 100,000 messages, median over several queries.
 * - bytesPerMessage: database size after a checkpoint / messages stored.
 * - appendMaxMs / appendMeanMs: the slowest and the mean of the 10,000 appends
 *   (an append may carry one search-index slice; the main process must never
 *   stall longer than a frame). appendMaxUnqueuedMs: the slowest append's wall
 *   time minus the time the main thread waited for a core (Linux schedstat):
 *   on a shared machine the wall figure is mostly other processes' load.
 *   The store is opened as the app opens it (WAL checkpoints on a worker).
 * - openLargeMs: opening a ~1 GB store as the app does (no integrity scan at
 *   open) up to reading a session list, median of 3 opens; the store is made
 *   once and cached under the OS temp folder (large-store.ts).
 *   openLargeWithCheckMs: the same open with the scan at open, as before.
 *
 * - search1MMs: search everything (grouped, with snippets) over 1,000,000
 *   messages, median over several queries; search1MFilteredMs: the same with
 *   filters (workspace, model, date). The store is made once and cached
 *   (search-million.ts). `--search-1m` runs only this part.
 *
 * Targets: appendRatioToBaseline <= 1.5, load10kMs <= 150, search100kMs <= 20,
 * appendMaxMs <= 16, openLargeMs <= 100, search1MMs < 50.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionEntry } from "../shared/protocol";
import { SessionStore } from "../electron/core/store";
import { largeStore } from "./large-store";
import { measureSearchMillion } from "./search-million";
import { mainThreadSched } from "./sched";
import { RARE, nextEntry, pick, resetPendingCalls } from "./store-entries";

/** `--append-only` stops after the append and load figures (for quick profiling runs). */
const APPEND_ONLY = process.argv.includes("--append-only");
const SEARCH_1M_ONLY = process.argv.includes("--search-1m");
const APPENDS = 10_000;
const SEARCH_MESSAGES = 100_000;
/** Baseline and store alternate in chunks this size, so a noisy neighbour hits both alike. */
const CHUNK = 100;

// ---------------------------------------------------------------- measuring helpers

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx];
}
const sortNum = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const median = (xs: number[]): number => quantile(sortNum(xs), 0.5);
const round = (x: number, d = 4): number => Math.round(x * 10 ** d) / 10 ** d;

// ---------------------------------------------------------------- run

function main(dir: string): void {
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${cpus().length} cores`,
  );
  const entries: SessionEntry[] = Array.from({ length: APPENDS }, (_, i) => nextEntry(i));
  const sizes = entries.map((e) => JSON.stringify(e).length);
  console.log(`entries: ${APPENDS}, JSON size median ${median(sizes)} B, min ${Math.min(...sizes)}, max ${Math.max(...sizes)}`);

  // Baseline: one table, same pragmas, stringify + insert, autocommit (one transaction each).
  const base = new Database(join(dir, "baseline.db"));
  base.pragma("journal_mode = WAL");
  base.pragma("synchronous = NORMAL");
  base.exec(`CREATE TABLE entries (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, content TEXT NOT NULL)`);
  const baseInsert = base.prepare(`INSERT INTO entries (session_id, content) VALUES (?, ?)`);

  // Opened as the app opens it (api/create-workbench.ts): integrity scan and WAL checkpoints off the main thread.
  const store = SessionStore.open(join(dir, "store.db"), { integrityCheck: "background", walCheckpoints: "whenIdle" });
  const ws = store.addWorkspace("/bench/workspace");
  const session = store.createSession({ workspaceId: ws.id, title: "bench" });

  // Warm-up on throwaway rows/sessions (JIT, page cache), not measured.
  const warm = store.createSession({ workspaceId: ws.id, title: "warm-up" });
  for (let i = 0; i < 300; i++) {
    baseInsert.run("warm", JSON.stringify(entries[i]));
    store.appendEntry(warm.id, entries[i]);
  }
  store.deleteSession(warm.id);
  base.exec(`DELETE FROM entries`);

  const baseTimes: number[] = [];
  const storeTimes: number[] = [];
  // Each store append's wall time minus the time the main thread waited for a core (Linux; empty elsewhere).
  const storeUnqueued: number[] = [];
  for (let start = 0; start < APPENDS; start += CHUNK) {
    const end = Math.min(APPENDS, start + CHUNK);
    for (let i = start; i < end; i++) {
      const t0 = performance.now();
      baseInsert.run(session.id, JSON.stringify(entries[i]));
      baseTimes.push(performance.now() - t0);
    }
    for (let i = start; i < end; i++) {
      const q0 = mainThreadSched();
      const t0 = performance.now();
      store.appendEntry(session.id, entries[i]);
      const ms = performance.now() - t0;
      storeTimes.push(ms);
      const q1 = mainThreadSched();
      if (q0 !== null && q1 !== null) storeUnqueued.push(Math.max(0, ms - (q1.queuedMs - q0.queuedMs)));
    }
  }
  base.close();
  for (const kind of ["user", "assistant", "toolResult"]) {
    const idx = entries.flatMap((e, i) => (e.type === "message" && e.message.role === kind ? [i] : []));
    console.log(
      `  ${kind} (${idx.length}): store median ${round(median(idx.map((i) => storeTimes[i])))} ms, baseline ${round(median(idx.map((i) => baseTimes[i])))} ms`,
    );
  }
  const appendMedianMs = median(storeTimes);
  const appendMaxMs = Math.max(...storeTimes);
  const appendMeanMs = storeTimes.reduce((a, b) => a + b, 0) / storeTimes.length;
  const slow = storeTimes.filter((t) => t > 16).length;
  const appendMaxUnqueuedMs = storeUnqueued.length > 0 ? Math.max(...storeUnqueued) : null;
  console.log(
    `append minus waiting for a core: max ${appendMaxUnqueuedMs === null ? "n/a" : round(appendMaxUnqueuedMs, 2)} ms, ${storeUnqueued.filter((t) => t > 16).length} over 16 ms`,
  );
  console.log(
    `append: max ${round(appendMaxMs, 2)} ms, mean ${round(appendMeanMs)} ms, ${slow} of ${APPENDS} over 16 ms; baseline max ${round(Math.max(...baseTimes), 2)} ms`,
  );
  const appendP99Ms = quantile(sortNum(storeTimes), 0.99);
  const baselineMedianMs = median(baseTimes);
  console.log(
    `append: store median ${round(appendMedianMs)} ms, p99 ${round(appendP99Ms)} ms; baseline median ${round(baselineMedianMs)} ms, p99 ${round(quantile(sortNum(baseTimes), 0.99))} ms`,
  );

  // Load the 10k-entry session.
  // CPU time too: on a shared machine wall time includes waiting for a core.
  const loadTimes: number[] = [];
  const loadCpu: number[] = [];
  for (let r = 0; r < 7; r++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const loaded = store.loadEntries(session.id);
    loadTimes.push(performance.now() - t0);
    const cpu = process.cpuUsage(cpu0);
    loadCpu.push((cpu.user + cpu.system) / 1000);
    if (loaded.length !== APPENDS) throw new Error(`loaded ${loaded.length} entries, expected ${APPENDS}`);
  }
  const load10kMs = median(loadTimes);
  const load10kCpuMs = median(loadCpu);
  console.log(
    `load 10k: median ${round(load10kMs, 1)} ms wall, ${round(load10kCpuMs, 1)} ms CPU (runs: ${loadTimes.map((t) => round(t, 1)).join(", ")})`,
  );

  if (APPEND_ONLY) {
    store.close();
    console.log(
      `RESULT ${JSON.stringify({ appendMedianMs: round(appendMedianMs), appendMaxMs: round(appendMaxMs, 2), appendMaxUnqueuedMs: appendMaxUnqueuedMs === null ? null : round(appendMaxUnqueuedMs, 2), appendMeanMs: round(appendMeanMs), appendRatioToBaseline: round(appendMedianMs / baselineMedianMs, 3), load10kMs: round(load10kMs, 1), load10kCpuMs: round(load10kCpuMs, 1) })}`,
    );
    return;
  }

  // Fill up to 100,000 messages across sessions and workspaces, then search.
  let total = APPENDS;
  let sessionNo = 0;
  const fillStart = performance.now();
  while (total < SEARCH_MESSAGES) {
    const w = store.addWorkspace(`/bench/ws-${sessionNo % 5}`);
    const s = store.createSession({ workspaceId: w.id, title: `session ${sessionNo++}` });
    resetPendingCalls();
    const n = Math.min(400, SEARCH_MESSAGES - total);
    for (let i = 0; i < n; i++) store.appendEntry(s.id, nextEntry(total + i));
    total += n;
  }
  console.log(`filled ${total} messages in ${sessionNo + 1} sessions (${round((performance.now() - fillStart) / 1000, 1)} s)`);

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
  const queryMedians: number[] = [];
  for (const q of queries) {
    const times: number[] = [];
    let hits = 0;
    for (let r = 0; r < 7; r++) {
      const t0 = performance.now();
      hits = store.search(q).length;
      times.push(performance.now() - t0);
    }
    const m = median(times);
    queryMedians.push(m);
    console.log(`search ${JSON.stringify(q)}: ${hits} hits, median ${round(m, 3)} ms`);
  }
  const wsTimes: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    store.search(RARE[500], { workspaceId: ws.id });
    wsTimes.push(performance.now() - t0);
  }
  console.log(`search filtered to one workspace: median ${round(median(wsTimes), 3)} ms`);
  const search100kMs = median(queryMedians);
  store.close();

  // Size: checkpoint the WAL into the main file, then pages in use / messages.
  const sized = new Database(join(dir, "store.db"));
  sized.pragma("wal_checkpoint(TRUNCATE)");
  const bytes = (sized.pragma("page_count", { simple: true }) as number) * (sized.pragma("page_size", { simple: true }) as number);
  const messages = sized.prepare(`SELECT count(*) FROM entries`).pluck().get() as number;
  sized.close();
  const bytesPerMessage = bytes / messages;
  console.log(`size: ${round(bytes / 1e6, 1)} MB for ${messages} messages`);

  const large = measureLargeOpen(entries);
  const million = measureSearchMillion();

  const result = {
    appendMedianMs: round(appendMedianMs),
    appendP99Ms: round(appendP99Ms),
    appendMaxMs: round(appendMaxMs, 2),
    appendMaxUnqueuedMs: appendMaxUnqueuedMs === null ? null : round(appendMaxUnqueuedMs, 2),
    appendMeanMs: round(appendMeanMs),
    openLargeMs: round(large.openMs, 1),
    openLargeWithCheckMs: round(large.withCheckMs, 1),
    largeStoreMB: Math.round(large.bytes / 1e6),
    appendRatioToBaseline: round(appendMedianMs / baselineMedianMs, 3),
    load10kMs: round(load10kMs, 1),
    load10kCpuMs: round(load10kCpuMs, 1),
    search100kMs: round(search100kMs, 3),
    bytesPerMessage: Math.round(bytesPerMessage),
    ...million,
  };
  console.log(
    `load average at end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log(`RESULT ${JSON.stringify(result)}`);
}

/** Opens the cached large store the way the app does, up to a session list. */
function measureLargeOpen(seed: SessionEntry[]): { openMs: number; withCheckMs: number; bytes: number } {
  const { path, bytes, generatedMs } = largeStore(seed);
  console.log(
    `large store: ${round(bytes / 1e6, 0)} MB at ${path}${generatedMs === null ? " (cached)" : ` (made in ${round(generatedMs / 1000, 1)} s)`}`,
  );
  const openOnce = (integrityCheck: "atOpen" | "background"): number => {
    const t0 = performance.now();
    const store = SessionStore.open(path, { integrityCheck, indexer: { idleMs: null } });
    const ws = store.recentWorkspaces(1)[0];
    const page = store.listSessions(ws.id, { limit: 50 });
    const ms = performance.now() - t0;
    if (page.sessions.length === 0) throw new Error("the large store lists no sessions");
    store.close();
    return ms;
  };
  const opens = [openOnce("background"), openOnce("background"), openOnce("background")];
  console.log(`open large (no scan at open): ${opens.map((t) => round(t, 1)).join(", ")} ms`);
  const withCheckMs = openOnce("atOpen");
  console.log(`open large with the integrity scan at open (as before): ${round(withCheckMs, 1)} ms`);
  return { openMs: median(opens), withCheckMs, bytes };
}

const dir = mkdtempSync(join(tmpdir(), "store-bench-"));
try {
  if (SEARCH_1M_ONLY) console.log(`RESULT ${JSON.stringify(measureSearchMillion())}`);
  else main(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
