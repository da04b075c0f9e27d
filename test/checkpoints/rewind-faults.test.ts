/**
 * Fault injection: a core killed (SIGKILL) in the middle of a rewind, and a
 * core restarted while the dead core's git still runs. Each run kills a real
 * child core at a different point, restarts the app (createWorkbench on the
 * same files) and checks the workspace byte for byte and the checkpoint rows.
 * See docs/checkpoints.md#an-interrupted-rewind.
 */
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, watch, writeSync, closeSync, writeFileSync } from "node:fs";
import type { FSWatcher } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EventName, RequestMethod, RequestParams, RequestResult } from "../../shared/api";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import type { Workbench } from "../../electron/core/api/workbench";
import { CheckpointService } from "../../electron/core/checkpoints/service";
import { repoDirFor } from "../../electron/core/checkpoints/shadow-repo";
import { SessionStore } from "../../electron/core/store";
import { filesOnly, picture, type Picture } from "./fs-snapshot";
import { bundleFixture, killAllBut, killCore, killTree, repoProcesses, startChild } from "./process-tree";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const RUNS = 20;
/** Runs that may end before the kill landed mid-restore, on top of RUNS. */
const SPARE_RUNS = 20;
const DIRS = ["a", "b", "c"];
const PER_DIR = 100;

let fixture: ReturnType<typeof bundleFixture>;
const cleanup: string[] = [];
beforeAll(() => {
  fixture = bundleFixture(join(__dirname, "fixtures", "core-child.ts"));
});
afterAll(() => {
  fixture.cleanup();
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(d);
  return d;
}

interface Setup {
  workspace: string;
  dbPath: string;
  root: string;
  gitDir: string;
  workspaceId: string;
  sessionId: string;
  /** Checkpoint ids and the workspace pictures of the two states. */
  a: { id: number; picture: Picture };
  b: { id: number; picture: Picture };
}

/** A workspace of 300 files in two checkpointed states: A, then B (every file changed, some deleted, a folder added). */
async function setUp(extra: (workspace: string) => void = () => undefined): Promise<Setup> {
  const workspace = tempDir("wb-rf-ws-");
  const root = join(tempDir("wb-rf-data-"), "checkpoints");
  const dbPath = join(root, "..", "wb.db");
  for (const d of DIRS) {
    mkdirSync(join(workspace, d));
    for (let i = 0; i < PER_DIR; i++) writeFileSync(join(workspace, d, `f${i}.txt`), `A ${d}${i}\n`.repeat(200));
  }
  extra(workspace);
  const store = SessionStore.open(dbPath);
  const ws = store.addWorkspace(workspace);
  const session = store.createSession({ workspaceId: ws.id });
  const service = new CheckpointService({ store, root, settings: () => ({ enabled: true, capBytes: 1e12 }), maintainDelayMs: 1e9 });
  const a = await service.record(session.id, { kind: "afterTool", seq: 1, toolCallId: "a" });
  const aPicture = filesOnly(picture(workspace));
  for (const d of DIRS) for (let i = 0; i < PER_DIR; i++) writeFileSync(join(workspace, d, `f${i}.txt`), `B ${d}${i}\n`.repeat(150));
  for (let i = 0; i < 10; i++) rmSync(join(workspace, "a", `f${i}.txt`));
  mkdirSync(join(workspace, "d"));
  for (let i = 0; i < 20; i++) writeFileSync(join(workspace, "d", `new${i}.txt`), `B only ${i}\n`);
  const b = await service.record(session.id, { kind: "afterTool", seq: 2, toolCallId: "b" });
  const bPicture = filesOnly(picture(workspace));
  await service.close();
  store.close();
  return {
    workspace,
    dbPath,
    root,
    gitDir: repoDirFor(root, workspace),
    workspaceId: ws.id,
    sessionId: session.id,
    a: { id: a!.id, picture: aPicture },
    b: { id: b!.id, picture: bPicture },
  };
}

interface App {
  workbench: Workbench;
  events: Array<{ event: EventName; payload: unknown }>;
  call<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>>;
}

/** The next start of the app on the same database and checkpoint folder. */
async function restart(s: Setup): Promise<App> {
  const workbench = await createWorkbench({ dbPath: s.dbPath, checkpointDir: s.root, host: { mode: "web" }, version: "test", env: {} });
  const events: App["events"] = [];
  workbench.onEvent((event, payload) => events.push({ event, payload }));
  const call = async <M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> => {
    const res = await workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.code} ${res.error.message}`);
    return res.result as RequestResult<M>;
  };
  return { workbench, events, call };
}

function lockFiles(gitDir: string): string[] {
  const top = readdirSync(gitDir).filter((n) => n.endsWith(".lock"));
  const refs = existsSync(join(gitDir, "refs", "checkpoints")) ? readdirSync(join(gitDir, "refs", "checkpoints")) : [];
  return [...top, ...refs.filter((n) => n.endsWith(".lock"))];
}

const journal = (s: Setup) => join(s.gitDir, "workbench-rewind.json");

/** Watches the workspace's folders; resolves once `count` changes were seen after `arm`. */
function changeCounter(s: Setup) {
  const watchers: FSWatcher[] = [];
  let seen = 0;
  let target = Number.POSITIVE_INFINITY;
  let hit: (() => void) | null = null;
  const onChange = () => {
    seen++;
    if (seen >= target && hit) {
      const h = hit;
      hit = null;
      h();
    }
  };
  for (const d of [".", ...DIRS, "d"]) {
    if (!existsSync(join(s.workspace, d))) continue;
    const w = watch(join(s.workspace, d), onChange);
    // A folder the restore removes ends its watcher.
    w.on("error", () => undefined);
    watchers.push(w);
  }
  return {
    after: (count: number, then: () => void) => {
      target = count;
      hit = then;
      if (seen >= target) onChange();
    },
    close: () => {
      for (const w of watchers) w.close();
    },
  };
}

/** The app was restarted after a kill mid-rewind: the workspace is at A exactly, the rows say so, nothing is left over. */
async function expectRecovered(s: Setup, app: App, rowsBefore: number, interrupted: boolean): Promise<void> {
  // Queued behind the recovery (it runs before anything else on the repository).
  await app.call("checkpoint.status", { workspaceId: s.workspaceId });
  expect(filesOnly(picture(s.workspace))).toEqual(s.a.picture);
  const rows = await app.call("checkpoint.list", { sessionId: s.sessionId });
  expect(rows.length).toBe(rowsBefore + 2);
  expect(rows.slice(-2).map((r) => r.kind)).toEqual(["beforeRestore", "restored"]);
  // The restored row is the workspace's state now; the beforeRestore one is B.
  expect(await app.call("checkpoint.diff", { from: rows[rows.length - 1].id, to: "workspace" })).toEqual([]);
  const undo = await app.call("checkpoint.diff", { from: rows[rows.length - 2].id, to: s.b.id });
  expect(undo).toEqual([]);
  expect(existsSync(journal(s))).toBe(false);
  expect(lockFiles(s.gitDir)).toEqual([]);
  if (interrupted) {
    const { notices } = await app.call("app.info", {});
    expect(notices.some((m) => /rewind .*was interrupted.*finished now/i.test(m))).toBe(true);
  }
}

async function killDuringRewind(how: "tree" | "core"): Promise<{ interrupted: number; mixed: number; runs: number }> {
  const s = await setUp();
  let interrupted = 0;
  let mixed = 0;
  let runs = 0;
  let rows = 2;
  while (interrupted < RUNS && runs < RUNS + SPARE_RUNS) {
    runs++;
    const counter = changeCounter(s);
    const child = startChild(fixture.file, ["rewind", s.dbPath, s.root, s.sessionId, String(s.a.id), "2"]);
    await child.line(/^start$/);
    // A different point of the restore each run: after 1 to ~300 file changes.
    const killed = new Promise<void>((done) =>
      counter.after(1 + Math.floor(Math.random() * 300), () => {
        if (how === "tree") killTree(child.pid);
        else killCore(child.pid);
        done();
      }),
    );
    const end = await Promise.race([child.exited, killed.then(() => child.exited)]);
    counter.close();
    // No git of the dead core goes on changing files after it.
    await vi.waitFor(() => expect(repoProcesses(s.gitDir)).toEqual([]), { timeout: 30_000, interval: 20 });
    // Killed after the first file changed and before the rewind completed: its journal is there (a kill that landed
    // after the last step, or no kill, leaves none, and the run does not count).
    const wasInterrupted = end.signal === "SIGKILL" && existsSync(journal(s));
    if (wasInterrupted) {
      interrupted++;
      const now = filesOnly(picture(s.workspace));
      if (JSON.stringify(now) !== JSON.stringify(s.a.picture) && JSON.stringify(now) !== JSON.stringify(s.b.picture)) mixed++;
    }
    const app = await restart(s);
    try {
      await expectRecovered(s, app, rows, wasInterrupted);
      rows += 2;
      // The next rewind works: back to B for the next run.
      await app.call("rewind.apply", { sessionId: s.sessionId, target: { checkpointId: s.b.id }, mode: "files", confirmConflicts: true });
      expect(filesOnly(picture(s.workspace))).toEqual(s.b.picture);
      rows += 2;
    } finally {
      await app.workbench.close();
    }
  }
  return { interrupted, mixed, runs };
}

describe("SIGKILL during a rewind", () => {
  it(
    `the whole process tree killed mid-restore (${RUNS} runs): the next start finishes the rewind, says so, and the next rewind works`,
    async () => {
      const { interrupted, mixed, runs } = await killDuringRewind("tree");
      console.info(`tree kill: ${interrupted} of ${runs} runs killed mid-restore, ${mixed} left the files mixed`);
      expect(interrupted).toBe(RUNS);
    },
    PROCESS_TEST_TIMEOUT_MS * 2,
  );

  it(
    `the core alone killed mid-restore (${RUNS} runs): its git dies with it, the next start finishes the rewind`,
    async () => {
      const { interrupted, mixed, runs } = await killDuringRewind("core");
      console.info(`core kill: ${interrupted} of ${runs} runs killed mid-restore, ${mixed} left the files mixed`);
      expect(interrupted).toBe(RUNS);
    },
    PROCESS_TEST_TIMEOUT_MS * 2,
  );
});

const BIG = 12 * 1024 * 1024;

describe("restart while the dead core's git still runs", () => {
  it(
    `a rewind right after the restart waits for that git instead of deleting its index.lock (${RUNS} runs)`,
    async () => {
      const s = await setUp((ws) => writeFileSync(join(ws, "big.bin"), randomBytes(BIG)));
      let orphans = 0;
      let rows = 2;
      for (let run = 0; run < RUNS; run++) {
        // A changed big file: the checkpoint's `git add` hashes it for a second or so, holding index.lock.
        const fd = openSync(join(s.workspace, "big.bin"), "r+");
        writeSync(fd, randomBytes(16), 0, 16, 0);
        closeSync(fd);
        const child = startChild(fixture.file, ["checkpoint", s.dbPath, s.root, s.sessionId]);
        await child.line(/^start$/);
        await vi.waitFor(() => expect(existsSync(join(s.gitDir, "index.lock"))).toBe(true), { timeout: 60_000, interval: 5 });
        // Everything of the core dies but its git.
        const spared = killAllBut(child.pid, (pid) => repoProcesses(s.gitDir).includes(pid));
        await child.exited;
        if (spared.length > 0) orphans++;
        const app = await restart(s);
        try {
          const result = await app.call("rewind.apply", {
            sessionId: s.sessionId,
            target: { checkpointId: s.a.id },
            mode: "files",
            confirmConflicts: true,
          });
          expect(result.restoredFiles.length).toBeGreaterThan(0);
          expect(filesOnly(picture(s.workspace))).toEqual(s.a.picture);
          const list = await app.call("checkpoint.list", { sessionId: s.sessionId });
          expect(list.slice(-2).map((r) => r.kind)).toEqual(["beforeRestore", "restored"]);
          expect(list.length).toBe(rows + 2);
          rows += 2;
          expect(await app.call("checkpoint.diff", { from: list[list.length - 1].id, to: "workspace" })).toEqual([]);
        } finally {
          await app.workbench.close();
        }
        await vi.waitFor(() => expect(repoProcesses(s.gitDir)).toEqual([]), { timeout: 60_000, interval: 20 });
        expect(lockFiles(s.gitDir)).toEqual([]);
      }
      console.info(`restart while git runs: the dead core's git was still running in ${orphans} of ${RUNS} runs`);
      expect(orphans).toBeGreaterThan(0);
    },
    PROCESS_TEST_TIMEOUT_MS * 2,
  );
});
