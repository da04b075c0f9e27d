/**
 * A ~1 GB session store for `bench:store`'s openLargeMs, made once and cached
 * under the OS temp folder (remade when the schema version changes).
 *
 * Made efficiently: one seed session of real appends through SessionStore,
 * then copied with INSERT … SELECT into new sessions (the same rows under new
 * session ids), many copies per transaction, with a rollback journal instead
 * of the WAL while bulk loading. Copies are marked as indexed for search
 * without FTS rows of their own: the file's size is its entries.
 */
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionEntry } from "../shared/protocol";
import { SessionStore } from "../electron/core/store";
import { LATEST_VERSION } from "../electron/core/store/migrations";

const TARGET_BYTES = 1_000_000_000;
const COPIES_PER_TX = 25;

export function largeStore(seed: SessionEntry[]): { path: string; bytes: number; generatedMs: number | null } {
  const dir = join(tmpdir(), "agent-workbench-bench");
  const path = join(dir, `large-store-v${LATEST_VERSION}.db`);
  if (existsSync(path) && !existsSync(`${path}-wal`) && statSync(path).size >= TARGET_BYTES * 0.95) {
    return { path, bytes: statSync(path).size, generatedMs: null };
  }
  mkdirSync(dir, { recursive: true });
  // Stores of older schema versions are never opened again: 1.4 GB each.
  for (const name of readdirSync(dir)) {
    if (/^large-store-v\d+\.db/.test(name) && !name.startsWith(`large-store-v${LATEST_VERSION}.db`))
      rmSync(join(dir, name), { force: true });
  }
  const t0 = performance.now();
  const building = `${path}.building`;
  rmSync(building, { force: true });
  rmSync(`${building}-wal`, { force: true });
  rmSync(`${building}-shm`, { force: true });

  const store = SessionStore.open(building);
  const ws = store.addWorkspace("/bench/large-history");
  const seedSession = store.createSession({ workspaceId: ws.id, title: "seed" });
  for (const entry of seed) store.appendEntry(seedSession.id, entry);
  store.search("warm"); // index the seed, as a real store would have it
  store.close();

  const db = new Database(building);
  db.pragma("journal_mode = DELETE");
  db.pragma("synchronous = OFF");
  const entryCols = (db.prepare(`SELECT name, hidden FROM pragma_table_xinfo('entries')`).all() as Array<{ name: string; hidden: number }>)
    .filter((c) => c.hidden === 0 && c.name !== "id" && c.name !== "session_id")
    .map((c) => c.name);
  const sessionCols = (db.prepare(`SELECT name FROM pragma_table_info('sessions')`).all() as Array<{ name: string }>)
    .map((c) => c.name)
    .filter((c) => !["num", "id", "title", "created_at", "updated_at"].includes(c));
  const seedRow = db.prepare(`SELECT num, created_at FROM sessions WHERE id = ?`).get(seedSession.id) as {
    num: number;
    created_at: number;
  };
  const lo = seedRow.num * 4294967296;
  const copySession = db.prepare(
    `INSERT INTO sessions (num, id, title, created_at, updated_at, ${sessionCols.join(", ")})
     SELECT ?, ?, ?, ?, ?, ${sessionCols.join(", ")} FROM sessions WHERE id = ?`,
  );
  const copyEntries = db.prepare(
    `INSERT INTO entries (id, session_id, ${entryCols.join(", ")})
     SELECT ? * 4294967296 + (id - ${lo}), ?, ${entryCols.join(", ")} FROM entries WHERE id BETWEEN ${lo} AND ${lo + 4294967295}`,
  );
  const size = () => (db.pragma("page_count", { simple: true }) as number) * (db.pragma("page_size", { simple: true }) as number);
  let num = (db.prepare(`SELECT max(num) FROM sessions`).pluck().get() as number) + 1;
  const batch = db.transaction((n: number) => {
    for (let i = 0; i < n; i++, num++) {
      const id = randomUUID();
      const at = seedRow.created_at + num * 60_000;
      copySession.run(num, id, `history ${num}`, at, at, seedSession.id);
      copyEntries.run(num, id);
    }
  });
  while (size() < TARGET_BYTES) batch(COPIES_PER_TX);
  db.pragma("journal_mode = WAL");
  db.close();
  renameSync(building, path);
  return { path, bytes: statSync(path).size, generatedMs: performance.now() - t0 };
}
