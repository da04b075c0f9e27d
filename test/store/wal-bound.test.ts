/**
 * The WAL stays bounded without the main thread checkpointing: a writer that
 * never pauses gets its WAL restarted by the checkpoint worker (under the
 * writer lock, once the gap is small), and when the worker dies SQLite's own
 * checkpoints at commit take over again.
 */
import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BACKSTOP_PAGES, Checkpointer, DEFAULT_CHECKPOINTER_OPTIONS } from "../../electron/core/store/checkpointer";
import { SessionStore } from "../../electron/core/store";
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

describe("a bounded WAL with background checkpoints", () => {
  it("a writer that never pauses: the worker restarts the WAL, which never reaches the main connection's backstop", async () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const restartFrames = 256;
    const store = SessionStore.open(path, {
      checkpoints: "background",
      checkpointer: { pollMs: 2, writes: 8, behindMs: 1, restartFrames, restartGap: 64 },
      indexer: { idleMs: null },
    });
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    // Until its thread has started (a few hundred ms), only the backstop bounds the WAL.
    await vi.waitFor(() => expect(store.checkpointerStats?.ready).toBe(true), { timeout: 20_000, interval: 10 });
    // Appends in a loop that never yields to the event loop (the worker reads the write counter from
    // shared memory). A PASSIVE checkpoint alone never restarts this WAL: frames come in meanwhile.
    const until = Date.now() + 60_000;
    let n = 0;
    while ((store.checkpointerStats?.restarts ?? 0) < 3 && Date.now() < until)
      store.appendEntry(s.id, user(`entry ${n++} ${"x".repeat(3000)}`));
    expect(store.checkpointerStats?.restarts).toBeGreaterThanOrEqual(3);
    expect(store.checkpointerError).toBeNull();
    // The WAL file (reused from its start after each restart) never reached the backstop, where the
    // main connection would checkpoint inside a commit.
    expect(walFrames(path)).toBeLessThan(BACKSTOP_PAGES);
    store.close();
    await store.whenStopped();
    const again = SessionStore.open(path);
    expect(again.loadEntries(s.id)).toHaveLength(n);
    again.close();
  });

  it("when the worker dies, SQLite's own checkpoints return and bound the WAL at its default", async () => {
    dir = tempDir();
    const path = dir.file("w.db");
    const db = walDb(path);
    const cp = new Checkpointer(db, path, undefined);
    // The thread ends as a crash would end it (not through stop()).
    await (cp as unknown as { worker: Worker }).worker.terminate();
    await vi.waitFor(() => expect(cp.lastError).toBe("background checkpoints stopped"), { timeout: 20_000, interval: 10 });
    expect(cp.threadAlive).toBe(false);
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    const insert = db.prepare(`INSERT INTO t VALUES (?)`);
    for (let i = 0; i < 5000; i++) insert.run("x".repeat(3000));
    // 5,000 pages written, the WAL restarted after each ~1,000.
    expect(walFrames(path)).toBeLessThan(1100);
    expect(db.prepare(`SELECT count(*) FROM t`).pluck().get()).toBe(5000);
    db.close();
  });

  it("a long reader holding old frames: the worker does not restart the WAL under it, and does not fail", async () => {
    dir = tempDir();
    const path = dir.file("w.db");
    const db = walDb(path);
    const insert = db.prepare(`INSERT INTO t VALUES (?)`);
    for (let i = 0; i < 50; i++) insert.run("x".repeat(3000));
    const reader = new Database(path, { readonly: true });
    const rows = reader.prepare(`SELECT x FROM t`).iterate();
    rows.next(); // an open read transaction, as the integrity check holds one
    const cp = new Checkpointer(db, path, undefined, {
      ...DEFAULT_CHECKPOINTER_OPTIONS,
      pollMs: 2,
      writes: 8,
      behindMs: 1,
      restartFrames: 64,
      restartGap: 4096,
    });
    // Writes keep coming while the worker looks (it checkpoints after every 8), far past restartFrames.
    let written = 0;
    await vi.waitFor(
      () => {
        for (let i = 0; i < 40; i++) insert.run("y".repeat(3000));
        cp.noteWrite(40);
        written += 40;
        expect(cp.checkpoints).toBeGreaterThan(5);
      },
      { timeout: 20_000, interval: 10 },
    );
    expect(written).toBeGreaterThan(64);
    expect(cp.restarts).toBe(0);
    expect(cp.lastError).toBeNull();
    // The reader still reads its snapshot to the end.
    let seen = 1;
    for (const _ of rows) seen++;
    expect(seen).toBe(50);
    reader.close();
    db.close();
    await cp.stop();
  });

  it("a store transaction that reads before writing waits for another connection's write lock instead of failing", async () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path);
    const ws = store.addWorkspace("/w");
    // Another thread holds the writer lock for a moment, as the checkpoint worker does to restart the WAL.
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
