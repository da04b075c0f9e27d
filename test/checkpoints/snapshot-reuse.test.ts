/**
 * A checkpoint after a command that changed nothing reuses the last tree
 * (git's index came out byte-identical, so `write-tree` is skipped). These
 * tests pin that the reused state is always the workspace's actual state,
 * including after a restore rewrote the index, and that every checkpoint
 * around such reuse restores byte-exact.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { git } from "../../electron/core/checkpoints/git";
import { restoreFiles } from "../../electron/core/checkpoints/rewind";
import { CheckpointService } from "../../electron/core/checkpoints/service";
import { repoDirFor } from "../../electron/core/checkpoints/shadow-repo";
import { SessionStore } from "../../electron/core/store";
import { filesOnly, picture } from "./fs-snapshot";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const cleanup: string[] = [];
afterEach(() => {
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(d);
  return d;
}

describe("checkpoints when nothing changed", () => {
  it("record the workspace as it is (also right after a restore) and every checkpoint restores byte-exact", async () => {
    const workspace = tempDir("wb-cp-ws-");
    const root = tempDir("wb-cp-root-");
    writeFileSync(join(workspace, "a.txt"), "one\n");
    writeFileSync(join(workspace, "b.txt"), "bee\n");
    const store = SessionStore.open(":memory:");
    const session = store.createSession({ workspaceId: store.addWorkspace(workspace).id });
    const service = new CheckpointService({ store, root, settings: () => ({ enabled: true, capBytes: 1e12 }), maintainDelayMs: 1e9 });
    let seq = 0;
    const record = async () => {
      const r = await service.record(session.id, { kind: "afterTool", seq: ++seq, toolCallId: `c${seq}` });
      expect(r).not.toBeNull();
      return r!;
    };
    const text = async (id: number, path: string) => (await service.fileAt(id, path))?.content.toString() ?? null;

    const first = await record();
    const firstPicture = filesOnly(picture(workspace));
    // A command that changed nothing: same state.
    const unchanged = await record();
    expect(unchanged.tree).toBe(first.tree);

    writeFileSync(join(workspace, "a.txt"), "two\n");
    rmSync(join(workspace, "b.txt"));
    writeFileSync(join(workspace, "c.txt"), "sea\n");
    const second = await record();
    const secondPicture = filesOnly(picture(workspace));
    expect(second.tree).not.toBe(first.tree);
    expect(await text(second.id, "a.txt")).toBe("two\n");

    // A restore rewrites git's index: the next checkpoint with no change since must be the restored state, not the last one recorded.
    await restoreFiles(service, session.id, first, { confirmConflicts: true, atSeq: seq });
    expect(filesOnly(picture(workspace))).toEqual(firstPicture);
    const afterRestore = await record();
    expect(afterRestore.tree).toBe(first.tree);
    expect(await text(afterRestore.id, "a.txt")).toBe("one\n");
    expect(await text(afterRestore.id, "c.txt")).toBeNull();

    // Back to the second state by hand: a new checkpoint sees it.
    writeFileSync(join(workspace, "a.txt"), "two\n");
    rmSync(join(workspace, "b.txt"));
    writeFileSync(join(workspace, "c.txt"), "sea\n");
    const byHand = await record();
    expect(byHand.tree).toBe(second.tree);

    for (const [target, expected] of [
      [unchanged, firstPicture],
      [second, secondPicture],
      [afterRestore, firstPicture],
      [byHand, secondPicture],
    ] as const) {
      await restoreFiles(service, session.id, target, { confirmConflicts: true, atSeq: seq });
      expect(filesOnly(picture(workspace))).toEqual(expected);
      // And the state right after the restore is recorded as such.
      expect((await record()).tree).toBe(target.tree);
    }
    await service.close();
    store.close();
    // A dozen git snapshots take a while on a loaded machine.
  }, 120_000);
});

describe("warming up when a turn starts", () => {
  it(
    "builds the private index without recording a checkpoint, and the next checkpoint still sees what changed since",
    async () => {
      const workspace = tempDir("wb-cp-ws-");
      const root = tempDir("wb-cp-root-");
      writeFileSync(join(workspace, "a.txt"), "one\n");
      const store = SessionStore.open(":memory:");
      const ws = store.addWorkspace(workspace);
      const session = store.createSession({ workspaceId: ws.id });
      const service = new CheckpointService({ store, root, settings: () => ({ enabled: true, capBytes: 1e12 }), maintainDelayMs: 1e9 });

      service.warm(ws.id);
      service.warm(ws.id); // once per workspace: the second call is a no-op
      await service.exclusive(ws.id, async () => undefined); // after everything queued before
      expect(existsSync(join(repoDirFor(root, workspace), "index"))).toBe(true);
      expect(service.list(session.id)).toEqual([]);

      // A change between the warm-up and the first side effect's checkpoint is in that checkpoint.
      writeFileSync(join(workspace, "a.txt"), "two\n");
      writeFileSync(join(workspace, "new.txt"), "fresh\n");
      const first = await service.record(session.id, { kind: "turnStart", seq: 1, toolCallId: "c1" });
      expect(first).not.toBeNull();
      expect((await service.fileAt(first!.id, "a.txt"))?.content.toString()).toBe("two\n");
      expect((await service.fileAt(first!.id, "new.txt"))?.content.toString()).toBe("fresh\n");
      expect(service.list(session.id)).toHaveLength(1);
      await service.close();
      store.close();
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe("the private index's format", () => {
  it(
    "a repository whose index an earlier version wrote whole (not split) goes on recording and restoring exactly",
    async () => {
      const workspace = tempDir("wb-cp-ws-");
      const root = tempDir("wb-cp-root-");
      mkdirSync(join(workspace, "dir"));
      writeFileSync(join(workspace, "a.txt"), "one\n");
      writeFileSync(join(workspace, "dir", "b.txt"), "bee\n");
      writeFileSync(join(workspace, "run.sh"), "#!/bin/sh\necho hi\n");
      chmodSync(join(workspace, "run.sh"), 0o755);
      const store = SessionStore.open(":memory:");
      const session = store.createSession({ workspaceId: store.addWorkspace(workspace).id });
      const gitDir = repoDirFor(root, workspace);
      const sharedIndexes = () => readdirSync(gitDir).filter((n) => n.startsWith("sharedindex."));
      const open = () => new CheckpointService({ store, root, settings: () => ({ enabled: true, capBytes: 1e12 }), maintainDelayMs: 1e9 });
      let service = open();
      let seq = 0;
      const record = async () => {
        const r = await service.record(session.id, { kind: "afterTool", seq: ++seq, toolCallId: `c${seq}` });
        expect(r).not.toBeNull();
        return r!;
      };
      const first = await record();
      const firstPicture = filesOnly(picture(workspace));
      // Checkpoints keep a split index: index writes then carry only the entries changed since the shared part.
      expect(sharedIndexes().length).toBeGreaterThan(0);
      await service.close();

      // As an earlier version left it: one whole index, no shared part; a new process opens it.
      await git({ gitDir, workTree: workspace }, ["-c", "core.splitIndex=false", "update-index", "--no-split-index"]);
      for (const name of sharedIndexes()) rmSync(join(gitDir, name));
      service = open();
      writeFileSync(join(workspace, "a.txt"), "two\n");
      rmSync(join(workspace, "dir", "b.txt"));
      writeFileSync(join(workspace, "c.txt"), "sea\n");
      chmodSync(join(workspace, "run.sh"), 0o644);
      const second = await record();
      const secondPicture = filesOnly(picture(workspace));
      expect(second.tree).not.toBe(first.tree);
      expect(sharedIndexes().length).toBeGreaterThan(0);
      expect((await service.fileAt(second.id, "a.txt"))?.content.toString()).toBe("two\n");
      expect(await service.fileAt(second.id, "dir/b.txt")).toBeNull();
      expect((await service.fileAt(second.id, "run.sh"))?.mode).toBe("100644");

      await restoreFiles(service, session.id, first, { confirmConflicts: true, atSeq: seq });
      expect(filesOnly(picture(workspace))).toEqual(firstPicture);
      expect((await record()).tree).toBe(first.tree);
      await restoreFiles(service, session.id, second, { confirmConflicts: true, atSeq: seq });
      expect(filesOnly(picture(workspace))).toEqual(secondPicture);
      await service.close();
      store.close();
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
