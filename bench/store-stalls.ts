/**
 * Where the slowest appends go (`tsx bench/store-stalls.ts`): a diagnostic for
 * bench:store's appendMaxMs, not a benchmark. Runs the same 10,000 appends as
 * bench:store and prints the ten slowest with what happened during each: a
 * search-index slice (and how many rows it indexed), a WAL checkpoint (the WAL
 * restarted from its first frame; whether the worker restarted it under the
 * writer lock), or a garbage collection; then the slowest index slices split
 * into indexing, merging and commit, and what the background checkpoints did.
 * Knobs: CHECKPOINTS=atCommit (SQLite's checkpoints inside commits),
 * AUTOCHECKPOINT=<pages>, CRISIS=<segments> (FTS5's crisismerge).
 */
import { mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import type { StoreContext } from "../electron/core/store/db";
import { SessionStore } from "../electron/core/store";
import { BACKSTOP_PAGES } from "../electron/core/store/checkpointer";
import type { SliceStats } from "../electron/core/store/search-index";
import { mainThreadSched } from "./sched";
import { nextEntry } from "./store-entries";

const APPENDS = 10_000;

/** Neither on a CPU nor waiting for one: waiting on the disk (fsync) or on a lock. */
const blocked = (s: Sample): number => Math.max(0, s.ms - s.cpuMs - s.queuedMs);

function sliceParts(st: SliceStats | null): string {
  return st === null
    ? ""
    : `: index ${st.indexMs.toFixed(1)} ms for ${st.texts} texts / ${st.chars} chars, merge ${st.mergeMs.toFixed(1)} ms (${st.mergeSteps} steps, longest ${st.maxMergeStepMs.toFixed(1)} ms), commit ${st.commitMs.toFixed(1)} ms`;
}

interface Sample {
  i: number;
  ms: number;
  start: number;
  indexed: number;
  /** The main thread's time on a CPU, and waiting for one (Linux schedstat): wall minus queued is what a quiet machine would show. */
  cpuMs: number;
  queuedMs: number;
  sliceMs: number;
  /** Frames a checkpoint copied during the append (-1: the WAL restarted). */
  checkpointed: number;
  frames: number;
  /** The worker restarted the WAL under the writer lock during this append (the append may have waited for it). */
  workerRestart: boolean;
  /** The index slice this append ran, if any. */
  stats: SliceStats | null;
}

async function main(dir: string): Promise<void> {
  console.log(
    `load average: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const gcs: Array<{ start: number; ms: number; kind: number }> = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      gcs.push({ start: e.startTime, ms: e.duration, kind: (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1 });
  });
  obs.observe({ entryTypes: ["gc"] });

  const entries = Array.from({ length: APPENDS }, (_, i) => nextEntry(i));
  // As the app opens it (CHECKPOINTS=atCommit: SQLite's checkpoints inside commits, as before).
  const store = SessionStore.open(join(dir, "store.db"), {
    integrityCheck: "background",
    checkpoints: process.env.CHECKPOINTS === "atCommit" ? "atCommit" : "background",
  });
  const inner = store as unknown as {
    ctx: StoreContext;
    indexer: { backlog: number; slice(): boolean; lastSlice: SliceStats | null };
    checkpointer: { restarts: number; checkpoints: number } | null;
  };
  const restarts = (): number => inner.checkpointer?.restarts ?? 0;
  const db = inner.ctx.db;
  if (process.env.CRISIS !== undefined)
    db.prepare(`INSERT INTO entries_fts (entries_fts, rank) VALUES ('crisismerge', ${Number(process.env.CRISIS)})`).run();
  if (process.env.AUTOCHECKPOINT !== undefined) db.pragma(`wal_autocheckpoint = ${Number(process.env.AUTOCHECKPOINT)}`);
  // The wal-index header in -shm: mxFrame (frames in the WAL) at byte 16, nBackfill (frames checkpointed) at 96.
  const shm = Buffer.alloc(100);
  let shmFd: number | null = null;
  const walState = (): { frames: number; backfilled: number } => {
    shmFd ??= openSync(join(dir, "store.db-shm"), "r");
    readSync(shmFd, shm, 0, 100, 0);
    return { frames: shm.readUInt32LE(16), backfilled: shm.readUInt32LE(96) };
  };
  // Time the index slices that appends run.
  let sliceMs = 0;
  const seen: { stats: SliceStats | null } = { stats: null };
  const slice = inner.indexer.slice.bind(inner.indexer);
  inner.indexer.slice = () => {
    const t = performance.now();
    try {
      return slice();
    } finally {
      sliceMs += performance.now() - t;
      seen.stats = inner.indexer.lastSlice;
    }
  };
  const ws = store.addWorkspace("/bench/workspace");
  const session = store.createSession({ workspaceId: ws.id, title: "bench" });
  const warm = store.createSession({ workspaceId: ws.id, title: "warm-up" });
  for (let i = 0; i < 300; i++) store.appendEntry(warm.id, entries[i]);
  store.deleteSession(warm.id);

  const samples: Sample[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const backlog = inner.indexer.backlog;
    const w0 = walState();
    const r0 = restarts();
    sliceMs = 0;
    seen.stats = null;
    const q0 = mainThreadSched() ?? { cpuMs: 0, queuedMs: 0 };
    const t0 = performance.now();
    store.appendEntry(session.id, entries[i]);
    const ms = performance.now() - t0;
    const q1 = mainThreadSched() ?? { cpuMs: 0, queuedMs: 0 };
    const w1 = walState();
    samples.push({
      i,
      ms,
      cpuMs: q1.cpuMs - q0.cpuMs,
      queuedMs: q1.queuedMs - q0.queuedMs,
      start: t0,
      indexed: backlog + 1 - inner.indexer.backlog,
      sliceMs,
      checkpointed: w1.backfilled > w0.backfilled ? w1.backfilled - w0.backfilled : w1.frames < w0.frames ? -1 : 0,
      frames: w0.frames,
      workerRestart: restarts() > r0,
      stats: seen.stats,
    });
  }
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  const top = [...samples].sort((a, b) => b.ms - a.ms).slice(0, 10);
  for (const s of top) {
    const gc = gcs.filter((g) => g.start >= s.start - 0.01 && g.start < s.start + s.ms);
    const what = [
      s.indexed > 1 ? `index slice ${s.sliceMs.toFixed(1)} ms (${s.indexed - 1} rows${sliceParts(s.stats)})` : "",
      s.checkpointed !== 0 ? `checkpoint (${s.checkpointed} frames)` : "",
      s.workerRestart ? "worker restarted the WAL" : "",
      gc.length > 0 ? `gc ${gc.map((g) => `kind ${g.kind} ${g.ms.toFixed(1)} ms`).join(", ")}` : "",
    ]
      .filter(Boolean)
      .join("; ");
    console.log(
      `append #${s.i}: ${s.ms.toFixed(2)} ms wall, ${s.cpuMs.toFixed(1)} ms on CPU, ${s.queuedMs.toFixed(1)} ms waiting for one, ${blocked(s).toFixed(1)} ms blocked  ${what || "(nothing observed)"}  (wal at ${s.frames} frames)`,
    );
  }
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  console.log(
    `max ${sorted[sorted.length - 1].toFixed(2)} ms, p99 ${sorted[Math.floor(0.99 * sorted.length)].toFixed(3)}, over 16 ms: ${sorted.filter((x) => x > 16).length}`,
  );
  const unqueued = samples.map((s) => s.ms - s.queuedMs).sort((a, b) => a - b);
  console.log(
    `wall minus waiting for a CPU: max ${unqueued[unqueued.length - 1].toFixed(2)} ms, over 16 ms: ${unqueued.filter((x) => x > 16).length}`,
  );
  const sliceSamples = samples.filter((s) => s.stats !== null);
  const slowSlices = [...sliceSamples].sort((a, b) => b.ms - b.queuedMs - (a.ms - a.queuedMs)).slice(0, 5);
  console.log("slowest index slices (wall minus waiting for a CPU):");
  for (const s of slowSlices)
    console.log(
      `  #${s.i}: ${(s.ms - s.queuedMs).toFixed(2)} ms (${s.cpuMs.toFixed(1)} on CPU, ${blocked(s).toFixed(1)} blocked)${sliceParts(s.stats)}`,
    );
  const commits = sliceSamples.map((s) => s.stats?.commitMs ?? 0).sort((a, b) => a - b);
  console.log(
    `slice commits: ${commits.length}, median ${commits[commits.length >> 1]?.toFixed(1)} ms, max ${commits[commits.length - 1]?.toFixed(1)} ms, over 8 ms: ${commits.filter((c) => c > 8).length}`,
  );
  const top2 = [...samples].sort((a, b) => b.ms - b.queuedMs - (a.ms - a.queuedMs)).slice(0, 5);
  for (const s of top2)
    console.log(
      `  #${s.i}: ${(s.ms - s.queuedMs).toFixed(2)} ms (${s.cpuMs.toFixed(1)} on CPU, ${blocked(s).toFixed(1)} blocked), slice ${s.sliceMs.toFixed(1)} ms, checkpoint ${s.checkpointed}${s.workerRestart ? ", worker restart" : ""} (wal at ${s.frames} frames)`,
    );
  const restartsSeen = samples.filter((s) => s.checkpointed === -1);
  const byWorker = restartsSeen.filter((s) => s.workerRestart);
  console.log(
    `WAL restarts seen by appends: ${restartsSeen.length} (${byWorker.length} made by the worker under the writer lock, slowest such append ${Math.max(0, ...byWorker.map((s) => s.ms - s.queuedMs)).toFixed(1)} ms unqueued); worker checkpoints ${inner.checkpointer?.checkpoints ?? "n/a"}, restarts ${restarts()}; largest WAL ${Math.max(...samples.map((s) => s.frames))} frames; appends starting at or past the main connection's backstop: ${samples.filter((s) => s.frames >= BACKSTOP_PAGES).length}`,
  );
  const ckpt = samples.filter((s) => s.checkpointed !== 0);
  console.log(`checkpoints during appends: ${ckpt.length}, slowest ${Math.max(0, ...ckpt.map((s) => s.ms)).toFixed(1)} ms`);
  const slices = samples.filter((s) => s.indexed > 1);
  console.log(
    `index slices: ${slices.length}, slowest ${Math.max(0, ...slices.map((s) => s.sliceMs)).toFixed(1)} ms, mean ${(slices.reduce((a, s) => a + s.sliceMs, 0) / Math.max(1, slices.length)).toFixed(2)} ms`,
  );
  console.log(
    `gc total ${gcs.reduce((a, g) => a + g.ms, 0).toFixed(0)} ms in ${gcs.length}; max ${Math.max(0, ...gcs.map((g) => g.ms)).toFixed(1)} ms`,
  );
  store.close();
}

const dir = mkdtempSync(join(tmpdir(), "store-stalls-"));
main(dir)
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
