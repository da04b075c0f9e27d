/**
 * Storage failures at the store's own boundary: a read-only folder says so
 * (not "unable to open database file"), a full disk is DISK_FULL with the way
 * out, and closing on a full disk never throws a raw SQLite error.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore, StoreError } from "../../electron/core/store";
import { user } from "./helpers";
import { canMountSmallDisk, mountSmallDisk, type SmallDisk } from "./small-disk";

let disk: SmallDisk | null = null;
afterEach(() => {
  disk?.remove();
  disk = null;
});

function openError(path: string): StoreError {
  try {
    SessionStore.open(path).close();
  } catch (e) {
    if (e instanceof StoreError) return e;
    throw e;
  }
  throw new Error("open succeeded");
}

describe.skipIf(!canMountSmallDisk)("storage failures (on a real tmpfs)", () => {
  it("a new database in a read-only folder: READ_ONLY, naming the folder", () => {
    disk = mountSmallDisk(1, true);
    const path = join(disk!.path, "workbench.db");
    const err = openError(path);
    expect(err.code).toBe("READ_ONLY");
    expect(err.message).toContain(`the folder ${disk!.path} is read-only`);
    expect(err.message).not.toMatch(/^unable to open database file/);
  });

  it("an existing database whose folder became read-only: READ_ONLY, naming the folder", () => {
    disk = mountSmallDisk(2);
    const path = join(disk!.path, "workbench.db");
    const store = SessionStore.open(path);
    store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.close();
    execFileSync("mount", ["-o", "remount,ro", disk!.path]);
    const err = openError(path);
    expect(err.code).toBe("READ_ONLY");
    expect(err.message).toContain("is read-only");
  });

  it("a full disk: appends fail DISK_FULL in plain words, search answers from what is indexed, close does not throw, and the index catches up at the next open", () => {
    disk = mountSmallDisk(4);
    const path = join(disk!.path, "workbench.db");
    // The index catches up only at close: its rows are what close has to write.
    const store = SessionStore.open(path, { indexer: { idleMs: null, maxBacklog: 1_000_000 } });
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    for (let i = 0; i < 50; i++) store.appendEntry(s.id, user(`searchable message ${i} ${"words ".repeat(200)}`));
    expect(store.search("searchable", { limit: 100 })).toHaveLength(50);
    for (let i = 0; i < 50; i++) store.appendEntry(s.id, user(`pending message ${i} ${"words ".repeat(200)}`));
    disk!.fill();
    // The pending rows cannot be indexed now: search answers from what is indexed instead of failing.
    expect(store.search("searchable", { limit: 100 })).toHaveLength(50);
    let refused: unknown = null;
    try {
      for (let i = 0; i < 200; i++) store.appendEntry(s.id, user(`more ${i} ${"filler ".repeat(2000)}`));
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(StoreError);
    expect((refused as StoreError).code).toBe("DISK_FULL");
    expect((refused as StoreError).message).toMatch(
      /^The disk holding your sessions is full \(appendEntry: .*\): free space and try again\.$/,
    );
    // Its index rows cannot be written either: they are caught up at the next open, close does not fail for them.
    expect(() => store.close()).not.toThrow();

    disk!.free();
    const again = SessionStore.open(path);
    expect(again.loadEntries(s.id).length).toBeGreaterThanOrEqual(100);
    expect(again.search("pending", { limit: 100 })).toHaveLength(50);
    again.close();
  });
});
