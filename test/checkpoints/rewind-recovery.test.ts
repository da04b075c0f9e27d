/**
 * Finishing an interrupted rewind at each point it can be stopped at, without
 * doing any step twice. The kills themselves are in rewind-faults.test.ts;
 * here the journal and the half-done state are laid out as a kill leaves them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { forksAt, journalPath, lastCheckpointId, writeJournal, type RewindJournal } from "../../electron/core/checkpoints/rewind-journal";
import { CheckpointService } from "../../electron/core/checkpoints/service";
import { repoDirFor } from "../../electron/core/checkpoints/shadow-repo";
import { SessionStore } from "../../electron/core/store";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

async function seed() {
  const workspace = tempDir("wb-rr-ws-");
  const data = tempDir("wb-rr-data-");
  const root = join(data, "checkpoints");
  const dbPath = join(data, "wb.db");
  writeFileSync(join(workspace, "kept.txt"), "A\n");
  writeFileSync(join(workspace, "gone.txt"), "only in A\n");
  const store = SessionStore.open(dbPath);
  const ws = store.addWorkspace(workspace);
  const session = store.createSession({ workspaceId: ws.id, title: "Work" });
  const service = new CheckpointService({ store, root, settings: () => ({ enabled: true, capBytes: 1e12 }), maintainDelayMs: 1e9 });
  const a = (await service.record(session.id, { kind: "afterTool", seq: 0, toolCallId: "a" }))!;
  writeFileSync(join(workspace, "kept.txt"), "B\n");
  rmSync(join(workspace, "gone.txt"));
  writeFileSync(join(workspace, "new.txt"), "only in B\n");
  const b = (await service.record(session.id, { kind: "afterTool", seq: 0, toolCallId: "b" }))!;
  await service.close();
  const gitDir = repoDirFor(root, workspace);
  const journal: RewindJournal = {
    version: 1,
    workspaceId: ws.id,
    sessionId: session.id,
    targetCheckpointId: a.id,
    targetTree: a.tree,
    beforeTree: b.tree,
    atSeq: 0,
    files: 3,
    afterCheckpointId: lastCheckpointId(store, session.id),
    fork: { seq: 0, title: "Work (rewound)", existing: forksAt(store, session.id, 0) },
    startedAt: Date.now(),
  };
  return { workspace, root, dbPath, store, ws, session, a, b, gitDir, journal };
}

async function start(dbPath: string, root: string) {
  const workbench = await createWorkbench({ dbPath, checkpointDir: root, host: { mode: "web" }, version: "test", env: {} });
  const call = async (method: string, params: unknown) => {
    const res = await workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.message}`);
    return res.result;
  };
  /** The start-up notices about rewinds (the app's list, which the window shows whenever it opens). */
  const notices = async () => ((await call("app.info", {})) as { notices: string[] }).notices.filter((n) => /rewind/i.test(n));
  return { workbench, notices, call };
}

describe("an interrupted rewind is finished at the next start", () => {
  it("killed after its beforeRestore row, mid-restore (a 0-byte file, a file not yet deleted): files, rows and fork are completed once", async () => {
    const s = await seed();
    writeJournal(s.gitDir, s.journal);
    s.store.addCheckpoint({ workspaceId: s.ws.id, sessionId: s.session.id, seq: 0, kind: "beforeRestore", tree: s.b.tree });
    // What git had done when it was killed: one file truncated, the rest untouched.
    writeFileSync(join(s.workspace, "kept.txt"), "");
    s.store.close();

    const app = await start(s.dbPath, s.root);
    try {
      await app.call("checkpoint.status", { workspaceId: s.ws.id });
      expect(readFileSync(join(s.workspace, "kept.txt"), "utf8")).toBe("A\n");
      expect(existsSync(join(s.workspace, "new.txt"))).toBe(false);
      expect(readFileSync(join(s.workspace, "gone.txt"), "utf8")).toBe("only in A\n");
      const rows = (await app.call("checkpoint.list", { sessionId: s.session.id })) as Array<{ kind: string }>;
      expect(rows.map((r) => r.kind)).toEqual(["afterTool", "afterTool", "beforeRestore", "restored"]);
      const sessions = (await app.call("session.list", { workspaceId: s.ws.id })) as { sessions: Array<{ title: string }> };
      expect(sessions.sessions.filter((x) => x.title === "Work (rewound)")).toHaveLength(1);
      const notices = await app.notices();
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(/rewind in session "Work" was interrupted \(the app stopped while restoring 3 files\)/);
      expect(notices[0]).toMatch(/The conversation was rewound into "Work \(rewound\)"/);
      expect(existsSync(journalPath(s.gitDir))).toBe(false);
    } finally {
      await app.workbench.close();
    }
  });

  it("killed after every step but removing its journal: nothing is done twice and nothing is announced", async () => {
    const s = await seed();
    writeJournal(s.gitDir, s.journal);
    s.store.addCheckpoint({ workspaceId: s.ws.id, sessionId: s.session.id, seq: 0, kind: "beforeRestore", tree: s.b.tree });
    writeFileSync(join(s.workspace, "kept.txt"), "A\n");
    writeFileSync(join(s.workspace, "gone.txt"), "only in A\n");
    rmSync(join(s.workspace, "new.txt"));
    s.store.addCheckpoint({ workspaceId: s.ws.id, sessionId: s.session.id, seq: 0, kind: "restored", tree: s.a.tree });
    s.store.forkSession(s.session.id, 0, { title: "Work (rewound)" });
    // A later edit the recovery must not undo.
    writeFileSync(join(s.workspace, "kept.txt"), "edited after\n");
    s.store.close();

    const app = await start(s.dbPath, s.root);
    try {
      await app.call("checkpoint.status", { workspaceId: s.ws.id });
      const rows = (await app.call("checkpoint.list", { sessionId: s.session.id })) as Array<{ kind: string }>;
      expect(rows.map((r) => r.kind)).toEqual(["afterTool", "afterTool", "beforeRestore", "restored"]);
      const sessions = (await app.call("session.list", { workspaceId: s.ws.id })) as { sessions: Array<{ title: string }> };
      expect(sessions.sessions.filter((x) => x.title === "Work (rewound)")).toHaveLength(1);
      expect(readFileSync(join(s.workspace, "kept.txt"), "utf8")).toBe("edited after\n");
      expect(await app.notices()).toEqual([]);
      expect(existsSync(journalPath(s.gitDir))).toBe(false);
    } finally {
      await app.workbench.close();
    }
  });

  it("a journal that cannot be read is reported and kept aside, not acted on", async () => {
    const s = await seed();
    writeFileSync(journalPath(s.gitDir), "{ not json");
    s.store.close();
    const app = await start(s.dbPath, s.root);
    try {
      await app.call("checkpoint.status", { workspaceId: s.ws.id });
      const notices = await app.notices();
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(/A rewind was interrupted, but its record .* could not be read/);
      expect(existsSync(`${journalPath(s.gitDir)}.damaged`)).toBe(true);
      expect(existsSync(join(s.workspace, "new.txt"))).toBe(true);
    } finally {
      await app.workbench.close();
    }
  });
});
