/**
 * A truncated -wal file loses acknowledged commits without a word from
 * SQLite: the database left is consistent and passes the integrity check.
 * The store's tail marks notice, and the next start says which session kept
 * how many of its entries; a -wal that ends inside a frame is reported too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";
import { startHarness, type Harness } from "../agent/harness";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";
import { tempDir, user, type TempDir } from "./helpers";

let dir: TempDir | null = null;
let h: Harness | null = null;
const children = new Set<ChildProcess>();
afterEach(async () => {
  for (const c of children) c.kill("SIGKILL");
  children.clear();
  await h?.close();
  h = null;
  dir?.remove();
  dir = null;
});

/** Runs the child until its entries are committed and marked, then kills it (the WAL stays as it is). */
function writeAndKill(path: string, count: number): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", join(__dirname, "fixtures", "wal-child.ts"), path, String(count)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (!m) return;
      child.once("exit", () => resolve(m[1]));
      child.kill("SIGKILL");
    });
    child.once("exit", (code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`child exited (${code}): ${stderr}`));
    });
  });
}

describe("lost commits", () => {
  it(
    "a -wal file cut to half its size: the next start reports the session that lost entries, with how many it kept",
    async () => {
      dir = tempDir();
      const path = dir.file("workbench.db");
      const sessionId = await writeAndKill(path, 800);
      const wal = `${path}-wal`;
      truncateSync(wal, Math.floor(statSync(wal).size / 2));

      // SQLite itself sees nothing wrong.
      const plain = SessionStore.open(path, { integrityCheck: "atOpen" });
      const kept = plain.getSession(sessionId)?.entryCount ?? 0;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(800);
      expect(plain.openReport.walCutShort).toBe(true);
      expect(plain.openReport.lostEntries).toEqual([{ sessionId, title: "acknowledged work", kept, acknowledged: 800 }]);
      plain.close();
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a -wal file cut at a frame boundary (nothing in the file shows the cut): the marks still tell",
    async () => {
      dir = tempDir();
      const path = dir.file("workbench.db");
      const sessionId = await writeAndKill(path, 600);
      const wal = `${path}-wal`;
      // A frame is a 24-byte header and one page; the page size is in the WAL's own header.
      const frame = readFileSync(wal).readUInt32BE(8) + 24;
      const frames = Math.floor((statSync(wal).size - 32) / frame);
      truncateSync(wal, 32 + Math.floor(frames / 3) * frame);

      const store = SessionStore.open(path);
      expect(store.openReport.walCutShort).toBe(false);
      const kept = store.getSession(sessionId)?.entryCount ?? 0;
      expect(kept).toBeLessThan(600);
      expect(store.openReport.lostEntries).toEqual([{ sessionId, title: "acknowledged work", kept, acknowledged: 600 }]);
      store.close();
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "the app's notice names the session and what it kept, once",
    async () => {
      dir = tempDir();
      const path = dir.file("workbench.db");
      const sessionId = await writeAndKill(path, 800);
      const wal = `${path}-wal`;
      truncateSync(wal, Math.floor(statSync(wal).size / 2));

      h = await startHarness({ dbPath: path });
      const { entries } = await h.call("session.load", { sessionId });
      const kept = entries.length;
      const notice = (await h.call("app.info", {})).notices.find((n) => n.includes("missing from the session database"));
      expect(notice).toBe(
        `${(800 - kept).toLocaleString("en")} entries saved earlier are missing from the session database (its -wal file was cut short): “acknowledged work” keeps ${kept.toLocaleString("en")} entries of 800. What is still there is intact and kept.`,
      );
      await h.close();
      h = await startHarness({ dbPath: path });
      expect((await h.call("app.info", {})).notices.some((n) => n.includes("missing from the session database"))).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it("a session that was deleted is not reported as lost, and an intact restart reports nothing", () => {
    dir = tempDir();
    const path = dir.file("workbench.db");
    const store = SessionStore.open(path);
    const ws = store.addWorkspace("/w");
    const gone = store.createSession({ workspaceId: ws.id });
    const kept = store.createSession({ workspaceId: ws.id });
    for (let i = 0; i < 20; i++) {
      store.appendEntry(gone.id, user(`a${i}`));
      store.appendEntry(kept.id, user(`b${i}`));
    }
    store.close();
    const again = SessionStore.open(path);
    again.deleteSession(gone.id);
    // Reusing the deleted session's number must not make the new one look short.
    const next = again.createSession({ workspaceId: ws.id });
    again.appendEntry(next.id, user("fresh"));
    again.close();
    const third = SessionStore.open(path);
    expect(third.openReport.lostEntries).toEqual([]);
    expect(third.openReport.walCutShort).toBe(false);
    third.close();
  });
});
