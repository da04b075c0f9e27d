/**
 * The checkpoint store's limits: the size cap prunes the oldest checkpoints
 * first, and a process killed mid-checkpoint leaves earlier checkpoints usable.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { previewRestore, restoreFiles } from "../../electron/core/checkpoints/rewind";
import { CheckpointService } from "../../electron/core/checkpoints/service";
import { SessionStore } from "../../electron/core/store";

const cleanup: string[] = [];
afterEach(() => {
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(d);
  return d;
}

describe("checkpoint store limits", () => {
  it("prunes the oldest checkpoints first when the store passes its cap, keeping every other one restorable", async () => {
    const workspace = tempDir("wb-cp-ws-");
    const root = tempDir("wb-cp-root-");
    const store = SessionStore.open(":memory:");
    const ws = store.addWorkspace(workspace);
    const session = store.createSession({ workspaceId: ws.id });
    let cap = 1e12;
    const service = new CheckpointService({ store, root, settings: () => ({ enabled: true, capBytes: cap }), maintainDelayMs: 1e9 });
    const ids: number[] = [];
    for (let i = 1; i <= 8; i++) {
      // Incompressible, so each checkpoint costs ~256 KB.
      writeFileSync(join(workspace, `big${i}.bin`), randomBytes(256 * 1024));
      writeFileSync(join(workspace, "counter.txt"), String(i));
      const r = await service.record(session.id, { kind: "afterTool", seq: i, toolCallId: `c${i}` });
      ids.push(r!.id);
      // Each step deletes the previous big file, so only the checkpoints reach it.
      rmSync(join(workspace, `big${i}.bin`));
    }
    const full = (await service.status(ws.id)).usedBytes;
    expect(full).toBeGreaterThan(8 * 256 * 1024);
    cap = Math.floor(full / 2);
    const pruned = await service.maintain(ws.id);
    expect(pruned.length).toBeGreaterThan(0);
    // Oldest first: the pruned ids are a prefix of the recorded ones.
    expect(pruned).toEqual(ids.slice(0, pruned.length));
    const status = await service.status(ws.id);
    expect(status.usedBytes).toBeLessThanOrEqual(cap);
    expect(status.pruned).toBe(pruned.length);
    expect(status.checkpoints).toBe(8 - pruned.length);

    await expect(service.diff(ids[0], "workspace")).rejects.toThrow(/pruned/);
    // Every checkpoint that was not pruned still restores (checkpoints are recorded without refs: maintenance must
    // have kept them all, not only the newest one, which git's index also reaches), oldest survivor last.
    for (let i = 7; i >= pruned.length; i--) {
      await restoreFiles(service, session.id, store.getCheckpoint(ids[i])!, { confirmConflicts: true, atSeq: 8 });
      expect(readFileSync(join(workspace, "counter.txt"), "utf8")).toBe(String(i + 1));
      expect(readFileSync(join(workspace, `big${i + 1}.bin`)).length).toBe(256 * 1024);
    }
    store.close();
    // Eight checkpoints and a gc take a while on a loaded machine.
  }, 120_000);

  it("a SIGKILL during a checkpoint leaves the previous checkpoints usable and the next checkpoint works", async () => {
    const workspace = tempDir("wb-cp-ws-");
    const root = tempDir("wb-cp-root-");
    const dbDir = tempDir("wb-cp-db-");
    mkdirSync(join(workspace, "d"));
    for (let f = 0; f < 1000; f++) writeFileSync(join(workspace, "d", `f${f}.txt`), `start ${f}\n`);
    const dbPath = join(dbDir, "wb.db");
    const setup = SessionStore.open(dbPath);
    const ws = setup.addWorkspace(workspace);
    const sessionId = setup.createSession({ workspaceId: ws.id }).id;
    setup.close();

    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(__dirname, "fixtures", "checkpoint-child.ts"), dbPath, root, sessionId, workspace],
      {
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      },
    );
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const recorded: Array<{ id: number; iteration: number }> = [];
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      let buf = "";
      child.stdout.on("data", (c: Buffer) => {
        buf += c.toString();
        for (const m of buf.matchAll(/recorded (\d+) (\d+)\n/g)) recorded.push({ id: Number(m[1]), iteration: Number(m[2]) });
        const begun = recorded.length >= 2 && /begin \d+\n$/.test(buf);
        buf = buf.slice(buf.lastIndexOf("\n") + 1);
        // Killed (with its git child: the whole process group) once the next checkpoint has begun.
        if (begun) {
          process.kill(-child.pid!, "SIGKILL");
          resolve();
        }
      });
      child.on("exit", () => reject(new Error(`child exited early: ${stderr}`)));
    });
    expect(await exited).toBe("SIGKILL");

    const store = SessionStore.open(dbPath);
    const service = new CheckpointService({ store, root, settings: () => ({ enabled: true, capBytes: 1e12 }), maintainDelayMs: 1e9 });
    for (const { id, iteration } of recorded) {
      const target = store.getCheckpoint(id)!;
      const plan = await previewRestore(service, sessionId, target);
      expect(plan.target.id).toBe(id);
      await restoreFiles(service, sessionId, target, { confirmConflicts: true, atSeq: 0 });
      expect(readFileSync(join(workspace, "counter.txt"), "utf8")).toBe(String(iteration));
    }
    writeFileSync(join(workspace, "after.txt"), "after the crash\n");
    const next = await service.record(sessionId, { kind: "afterTool", seq: 99, toolCallId: "after" });
    expect(next).not.toBeNull();
    expect((await service.fileAt(next!.id, "after.txt"))?.content.toString()).toBe("after the crash\n");
    await service.close();
    store.close();
    // Spawning tsx and the first checkpoint of 1,000 files take a while on a loaded machine.
  }, 120_000);
});
