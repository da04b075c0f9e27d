/**
 * The WAL stays short: an idle PASSIVE checkpoint after a burst of writes
 * (wal-checkpoint.ts), SQLite's own checkpoint for a writer that never pauses.
 */
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionStore } from "../../electron/core/store";
import { WalCheckpoint } from "../../electron/core/store/wal-checkpoint";
import { tempDir, user, type TempDir } from "./helpers";

let dir: TempDir | null = null;
afterEach(() => {
  dir?.remove();
  dir = null;
});

const PAGE = 4096;
/** Frames the WAL file has ever held (it is reused from its start, never shrunk): its high-water mark. */
const walFrames = (path: string): number => Math.floor((statSync(`${path}-wal`).size - 32) / (PAGE + 24));

function walDb(path: string): Database.Database {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(`CREATE TABLE t (x TEXT)`);
  return db;
}

describe("a bounded WAL with idle checkpoints", () => {
  it("once writes pause, one PASSIVE checkpoint copies the WAL into the database file", async () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path, { walCheckpoints: "whenIdle", walIdleMs: 20, indexer: { idleMs: null } });
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    const before = statSync(path).size;
    for (let i = 0; i < 200; i++) store.appendEntry(s.id, user(`entry ${i} ${"x".repeat(3000)}`));
    // Under SQLite's threshold: without the idle checkpoint these pages would stay in the WAL.
    expect(walFrames(path)).toBeLessThan(1000);
    expect(statSync(path).size).toBe(before);
    await vi.waitFor(() => expect(store.walCheckpointStats?.checkpoints).toBeGreaterThan(0), { timeout: 20_000, interval: 10 });
    expect(statSync(path).size).toBeGreaterThan(before + 200 * 3000);
    expect(store.walCheckpointStats?.lastError).toBeNull();
    store.close();
    const again = SessionStore.open(path);
    expect(again.loadEntries(s.id)).toHaveLength(200);
    again.close();
  });

  it("a writer that never pauses: SQLite's own checkpoint still bounds the WAL", () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path, { walCheckpoints: "whenIdle", indexer: { idleMs: null } });
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    for (let i = 0; i < 3000; i++) store.appendEntry(s.id, user(`entry ${i} ${"x".repeat(3000)}`));
    // ~1 page an entry plus its index rows: far past 1,000 pages, restarted after each ~1,000.
    expect(store.walCheckpointStats?.checkpoints).toBe(0);
    expect(walFrames(path)).toBeLessThan(1500);
    store.close();
  });

  it("a long reader holding old frames: the idle checkpoint neither fails nor disturbs its snapshot", async () => {
    dir = tempDir();
    const path = dir.file("w.db");
    const db = walDb(path);
    const insert = db.prepare(`INSERT INTO t VALUES (?)`);
    for (let i = 0; i < 50; i++) insert.run("x".repeat(3000));
    const reader = new Database(path, { readonly: true });
    const rows = reader.prepare(`SELECT x FROM t`).iterate();
    rows.next(); // an open read transaction, as the integrity check holds one
    const cp = new WalCheckpoint(db, 5);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 40; i++) insert.run("y".repeat(3000));
      cp.noteWrite();
      const seen = cp.checkpoints;
      await vi.waitFor(() => expect(cp.checkpoints).toBe(seen + 1), { timeout: 20_000, interval: 10 });
    }
    expect(cp.lastError).toBeNull();
    let seen = 1;
    for (const _ of rows) seen++;
    expect(seen).toBe(50);
    reader.close();
    cp.stop();
    db.close();
  });

  it("a checkpoint that comes due after the store closed does nothing", async () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path, { walCheckpoints: "whenIdle", walIdleMs: 5 });
    store.appendEntry(store.createSession({ workspaceId: store.addWorkspace("/w").id }).id, user("one"));
    store.close();
    await store.whenStopped();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(store.walCheckpointStats).toEqual({ checkpoints: 0, lastError: null });
    // SQLite removes -wal and -shm when the last connection to the file closes.
    expect([existsSync(`${path}-wal`), existsSync(`${path}-shm`)]).toEqual([false, false]);
  });

  it("a store transaction that reads before writing waits for another connection's write lock instead of failing", async () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path);
    const ws = store.addWorkspace("/w");
    // Another connection (here a thread) holds the writer lock for a moment, as another process on the file may.
    // It keeps it 300 ms from when the main thread is about to write (the flag), not from when it took it:
    // on a loaded machine its "locked" message can arrive after a fixed hold has already ended.
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const holder = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads");
       const db = new (require(workerData.modulePath))(workerData.path);
       const flag = new Int32Array(workerData.flag);
       db.exec("BEGIN IMMEDIATE");
       parentPort.postMessage("locked");
       Atomics.wait(flag, 0, 0);
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
       db.exec("COMMIT");
       db.close();`,
      { eval: true, workerData: { path, flag: flag.buffer, modulePath: createRequire(import.meta.url).resolve("better-sqlite3") } },
    );
    await new Promise((resolve) => holder.once("message", resolve));
    // createSession reads (the workspace) before it writes: a deferred transaction would fail with BUSY here.
    const t0 = performance.now();
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    const s = store.createSession({ workspaceId: ws.id });
    expect(performance.now() - t0).toBeGreaterThan(50);
    expect(store.getSession(s.id)?.id).toBe(s.id);
    await new Promise((resolve) => holder.once("exit", resolve));
    store.close();
  });
});
