import Database from "better-sqlite3";
import { existsSync, readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore, StoreError } from "../../electron/core/store";
import { tempDir, user, type TempDir } from "./helpers";

let dir: TempDir;
afterEach(() => dir?.remove());

const AT = Date.UTC(2025, 0, 2, 3, 4, 5, 678);
const STAMP = "2025-01-02T03-04-05-678Z";

function openError(path: string): StoreError {
  try {
    SessionStore.open(path).close();
  } catch (e) {
    if (e instanceof StoreError) return e;
    throw e;
  }
  throw new Error("open succeeded");
}

/** A real store file with enough rows to span many pages, checkpointed into the main file. */
function realDatabase(path: string): void {
  const store = SessionStore.open(path);
  const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
  for (let i = 0; i < 300; i++) store.appendEntry(s.id, user(`message ${i} ${"lorem ipsum ".repeat(40)}`));
  store.close();
}

describe("damaged database file", () => {
  it("reports garbage bytes as DAMAGED, keeps them aside with a timestamp and starts fresh", () => {
    dir = tempDir();
    const path = dir.file("sessions.db");
    const garbage = Buffer.from("this is not a database at all\n".repeat(200));
    writeFileSync(path, garbage);

    expect(openError(path).code).toBe("DAMAGED");
    expect(readFileSync(path)).toEqual(garbage); // a plain open never moves anything

    const { store, recovered } = SessionStore.openOrRecover(path, { now: () => AT });
    expect(recovered?.movedTo).toBe(`${path}.damaged-${STAMP}`);
    expect(readFileSync(`${path}.damaged-${STAMP}`)).toEqual(garbage);
    const ws = store.addWorkspace("/fresh");
    expect(store.recentWorkspaces()).toEqual([ws]);
    store.close();
  });

  it("reports a truncated database as DAMAGED, saves what precedes the cut, and keeps the truncated file and its WAL aside", () => {
    dir = tempDir();
    const path = dir.file("sessions.db");
    realDatabase(path);
    truncateSync(path, Math.floor(statSync(path).size / 2));
    writeFileSync(`${path}-wal`, Buffer.alloc(0));
    const truncated = readFileSync(path);

    expect(openError(path).code).toBe("DAMAGED");
    const { store, recovered } = SessionStore.openOrRecover(path, { now: () => AT });
    expect(recovered).not.toBeNull();
    expect(readFileSync(`${path}.damaged-${STAMP}`)).toEqual(truncated);
    expect(existsSync(`${path}.damaged-${STAMP}-wal`)).toBe(true);
    // The rows before the cut were copied into the fresh store; the kept file is unchanged.
    expect(store.recentWorkspaces().map((w) => w.path)).toEqual(["/w"]);
    const [session] = store.listSessions(store.recentWorkspaces()[0].id).sessions;
    expect(recovered?.salvage?.entries).toBeGreaterThan(0);
    expect(recovered?.salvage?.entries).toBeLessThan(300);
    // A row whose text ran onto a lost page was copied as it reads: listed as damaged, not dropped.
    const { entries, problems } = store.loadEntriesChecked(session.id);
    expect(entries.length + problems.filter((p) => p.code !== "MISSING").length).toBe(recovered!.salvage!.entries);
    expect(readFileSync(`${path}.damaged-${STAMP}`)).toEqual(truncated);
    store.close();
  });

  it("never overwrites an earlier damaged copy taken at the same moment", () => {
    dir = tempDir();
    const path = dir.file("sessions.db");
    for (let i = 0; i < 2; i++) {
      writeFileSync(path, `garbage ${i} `.repeat(100));
      SessionStore.openOrRecover(path, { now: () => AT }).store.close();
    }
    const kept = readdirSync(dir.path)
      .filter((f) => f.includes(".damaged-"))
      .sort();
    expect(kept).toEqual([`sessions.db.damaged-${STAMP}`, `sessions.db.damaged-${STAMP}-2`]);
  });

  it("opens a healthy file without moving it", () => {
    dir = tempDir();
    const path = dir.file("sessions.db");
    realDatabase(path);
    const { store, recovered } = SessionStore.openOrRecover(path);
    expect(recovered).toBeNull();
    expect(store.recentWorkspaces()).toHaveLength(1);
    store.close();
  });

  it("treats an empty file as a new database", () => {
    dir = tempDir();
    const path = dir.file("sessions.db");
    writeFileSync(path, "");
    const { store, recovered } = SessionStore.openOrRecover(path);
    expect(recovered).toBeNull();
    expect(store.addWorkspace("/w").path).toBe("/w");
    store.close();
  });

  it("reports a missing folder as IO, not DAMAGED", () => {
    dir = tempDir();
    expect(openError(dir.file("no/such/dir/s.db")).code).toBe("IO");
  });
});

describe("a damaged row", () => {
  it("is reported as a problem while every other entry still loads", () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path);
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    for (let i = 1; i <= 5; i++) store.appendEntry(s.id, user(`m${i}`));
    store.close();

    const raw = new Database(path);
    raw.prepare(`UPDATE entries SET content = '{"type":"message","message":{' WHERE seq = 2`).run();
    raw.prepare(`UPDATE entries SET content = '{"type":"message","message":{"role":"user"}}' WHERE seq = 4`).run();
    raw.close();

    const again = SessionStore.open(path);
    const { entries, problems } = again.loadEntriesChecked(s.id);
    expect(entries.map((e) => e.seq)).toEqual([1, 3, 5]);
    expect(entries[1]).toEqual({ seq: 3, entry: user("m3") });
    expect(problems).toEqual([
      expect.objectContaining({ seq: 2, kind: "user", code: "INVALID_JSON" }),
      expect.objectContaining({ seq: 4, kind: "user", code: "INVALID_ENTRY" }),
    ]);
    expect(again.loadEntries(s.id).map((e) => e.seq)).toEqual([1, 3, 5]);
    expect(again.appendEntry(s.id, user("m6"))).toBe(6);
    again.close();
  });
});
