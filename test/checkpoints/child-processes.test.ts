/**
 * Child processes do not outlive the core, and a lock file is stale only
 * once its owner is gone. See docs/checkpoints.md#child-processes-die-with-the-core.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CheckpointService } from "../../electron/core/checkpoints/service";
import { repoDirFor, ShadowRepo } from "../../electron/core/checkpoints/shadow-repo";
import { SessionStore } from "../../electron/core/store";
import { hostPids, uniqueSleep } from "../tools/host-processes";
import { bundleFixture, killCore, repoProcesses, startChild } from "./process-tree";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let fixture: ReturnType<typeof bundleFixture>;
const cleanup: Array<() => void> = [];
beforeAll(() => {
  fixture = bundleFixture(join(__dirname, "fixtures", "core-child.ts"));
});
afterAll(() => fixture.cleanup());
afterEach(() => {
  for (const c of cleanup.splice(0).reverse()) c();
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

function killAll(pids: readonly number[]): void {
  for (const p of pids) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

describe("child processes die with the core", () => {
  it(
    "a git and a bash command still running when the core alone is SIGKILLed are killed with it",
    async () => {
      const workspace = tempDir("wb-cp-ws-");
      const gitDir = join(tempDir("wb-cp-repo-"), "repo.git");
      const fifo = join(workspace, "never-written");
      execFileSync("mkfifo", [fifo]);
      const outputDir = join(tempDir("wb-cp-out-"), "session");
      const seconds = uniqueSleep();
      const child = startChild(fixture.file, ["hang", workspace, gitDir, fifo, outputDir, seconds]);
      // Whatever happens, nothing of this test outlives it.
      cleanup.push(() => killAll([...repoProcesses(gitDir), ...hostPids(["sleep", seconds])]));
      await child.line(/^start$/);
      await vi.waitFor(
        () => {
          expect(repoProcesses(gitDir).length).toBeGreaterThan(0);
          expect(hostPids(["sleep", seconds]).length).toBe(1);
        },
        { timeout: 60_000, interval: 20 },
      );
      killCore(child.pid);
      expect((await child.exited).signal).toBe("SIGKILL");
      // The git blocks on the FIFO and the sleep lasts minutes: only being killed ends them.
      await vi.waitFor(
        () => {
          expect(repoProcesses(gitDir)).toEqual([]);
          expect(hostPids(["sleep", seconds])).toEqual([]);
        },
        { timeout: 30_000, interval: 20 },
      );
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe("lock files", () => {
  it("a lock held by a live git (another core's) is kept; once its owner is gone it is cleared and checkpoints go on", async () => {
    const workspace = tempDir("wb-cp-ws-");
    const root = join(tempDir("wb-cp-data-"), "checkpoints");
    writeFileSync(join(workspace, "a.txt"), "one\n");
    const store = SessionStore.open(":memory:");
    const ws = store.addWorkspace(workspace);
    const session = store.createSession({ workspaceId: ws.id });
    const service = new CheckpointService({ store, root, settings: () => ({ enabled: true, capBytes: 1e12 }), maintainDelayMs: 1e9 });
    cleanup.push(() => store.close());
    expect(await service.record(session.id, { kind: "afterTool", seq: 1, toolCallId: "c1" })).not.toBeNull();
    const gitDir = repoDirFor(root, workspace);

    // Another core's git: `update-index --stdin` holds index.lock until its input ends.
    const other = spawn("git", [`--git-dir=${gitDir}`, `--work-tree=${workspace}`, "update-index", "--add", "--stdin"], {
      cwd: workspace,
      env: { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: workspace },
      stdio: ["pipe", "ignore", "pipe"],
    });
    cleanup.push(() => other.kill("SIGKILL"));
    let otherErr = "";
    other.stderr.on("data", (c: Buffer) => (otherErr += c.toString()));
    const otherExit = new Promise<number | null>((done) => other.on("exit", (code) => done(code)));
    await vi.waitFor(() => expect(existsSync(join(gitDir, "index.lock"))).toBe(true), { timeout: 60_000, interval: 5 });

    // A second open of the repository (a restart, another process) does not take the lock from its owner: it waits.
    const opening = ShadowRepo.open(gitDir, workspace);
    expect(existsSync(join(gitDir, "index.lock"))).toBe(true);

    writeFileSync(join(workspace, "b.txt"), "two\n");
    other.stdin.end("b.txt\n");
    // Its own index write went through: nobody deleted its lock.
    expect(await otherExit).toBe(0);
    expect(otherErr).toBe("");
    await opening;
    expect(readdirSync(gitDir).filter((n) => n.endsWith(".lock"))).toEqual([]);
    writeFileSync(join(workspace, "c.txt"), "three\n");
    const next = await service.record(session.id, { kind: "afterTool", seq: 2, toolCallId: "c2" });
    expect((await service.fileAt(next!.id, "c.txt"))?.content.toString()).toBe("three\n");
  });
});
