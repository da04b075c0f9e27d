/**
 * Search over 1,000,000 stored messages, for `bench:store` (search1MMs).
 *
 * The store is made once and cached under the OS temp folder (remade when the
 * schema version changes): the schema from SessionStore, then 1,000 sessions
 * of 1,000 messages each (alternating user and assistant text of 12–60 words
 * from the benchmarks' Zipf-like vocabulary, 10 workspaces, two models)
 * inserted with prepared statements in one transaction, then indexed by the
 * store's own indexer (the first search catches it up) and its segments
 * merged as the idle indexer would. Every query is timed as the app runs it:
 * `SessionStore.searchEverything` (grouped, snippets) and `search`.
 */
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionStore } from "../electron/core/store";
import { LATEST_VERSION } from "../electron/core/store/migrations";
import { RARE } from "./store-entries";
import { seededRandom } from "./seeded-random";

export const MILLION = 1_000_000;
const SESSIONS = 1_000;
const PER_SESSION = MILLION / SESSIONS;
const MODELS = [
  { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" },
  { provider: "openai", api: "openai-responses", id: "gpt-5" },
] as const;
const COMMON = "the a to of and in is it that for on with as this be are not you can file function return const error test value".split(
  " ",
);

export interface MillionStore {
  path: string;
  /** Null when the cached store was used. */
  generatedMs: number | null;
  insertMs: number | null;
  indexMs: number | null;
}

export function millionStore(): MillionStore {
  const dir = join(tmpdir(), "agent-workbench-bench");
  const path = join(dir, `search-1m-v${LATEST_VERSION}.db`);
  if (existsSync(path) && !existsSync(`${path}-wal`)) return { path, generatedMs: null, insertMs: null, indexMs: null };
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const building = `${path}.building`;
  for (const f of [building, `${building}-wal`, `${building}-shm`]) rmSync(f, { force: true });
  SessionStore.open(building).close();

  const { rand, pick } = seededRandom(0x51f15e);
  const words = (n: number): string => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(rand() < 0.5 ? pick(COMMON) : RARE[Math.floor(RARE.length * rand() ** 3)]);
    return out.join(" ");
  };
  const db = new Database(building);
  db.pragma("journal_mode = DELETE");
  db.pragma("synchronous = OFF");
  const addWs = db.prepare(`INSERT INTO workspaces (id, path, name, created_at, last_opened_at) VALUES (?, ?, ?, ?, ?)`);
  const addSession = db.prepare(
    `INSERT INTO sessions (num, id, workspace_id, title, created_at, updated_at, model_provider, model_api, model_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const addEntry = db.prepare(
    `INSERT INTO entries (id, session_id, kind, timestamp, provider, api, model_id, stop_reason, input_tokens, output_tokens,
       total_tokens, cost_total, running_tokens, running_cost, content) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const base = 1_700_000_000_000;
  const tInsert = performance.now();
  db.transaction(() => {
    const wsIds = Array.from({ length: 10 }, (_, i) => {
      const id = randomUUID();
      addWs.run(id, `/bench/million-${i}`, `million-${i}`, base, base + i);
      return id;
    });
    for (let n = 1; n <= SESSIONS; n++) {
      const id = randomUUID();
      const model = MODELS[n % 2];
      const start = base + n * PER_SESSION * 1000;
      addSession.run(n, id, wsIds[n % 10], `million ${n}`, start, start + PER_SESSION * 1000, model.provider, model.api, model.id);
      let tokens = 0;
      for (let seq = 1; seq <= PER_SESSION; seq++) {
        const timestamp = start + seq * 1000;
        const text = words(12 + Math.floor(rand() * 48));
        if (seq % 2 === 1) {
          const content = JSON.stringify({ type: "message", message: { role: "user", content: [{ type: "text", text }], timestamp } });
          addEntry.run(n * 4294967296 + seq, id, "user", timestamp, null, null, null, null, null, null, null, null, tokens, 0, content);
        } else {
          tokens += 120;
          const usage = {
            input: 100,
            output: 20,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 120,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          };
          const message = { role: "assistant", content: [{ type: "text", text }], stopReason: "stop", model, usage, timestamp };
          const content = JSON.stringify({ type: "message", message });
          addEntry.run(
            n * 4294967296 + seq,
            id,
            "assistant",
            timestamp,
            model.provider,
            model.api,
            model.id,
            "stop",
            100,
            20,
            120,
            0,
            tokens,
            0,
            content,
          );
        }
      }
    }
  })();
  const insertMs = performance.now() - tInsert;
  db.close();

  // The store's own indexer, then its segment merges run to the end (what idle slices do over time).
  const tIndex = performance.now();
  const store = SessionStore.open(building, { integrityCheck: "background", indexer: { idleMs: null } });
  store.search("warm");
  store.close();
  const raw = new Database(building);
  const merge = raw.prepare(`INSERT INTO entries_fts (entries_fts, rank) VALUES ('merge', 256)`);
  const changes = raw.prepare(`SELECT total_changes()`).pluck();
  for (;;) {
    const before = changes.get() as number;
    merge.run();
    if ((changes.get() as number) - before < 2) break;
  }
  raw.pragma("journal_mode = WAL");
  raw.close();
  const indexMs = performance.now() - tIndex;
  renameSync(building, path);
  return { path, generatedMs: performance.now() - t0, insertMs, indexMs };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

export interface MillionResult {
  search1MMs: number;
  search1MFilteredMs: number;
  search1MInsertMs: number | null;
  search1MIndexMs: number | null;
}

/** Median over queries of each query's median of 7 runs, grouped search as the app calls it. */
export function measureSearchMillion(log: (line: string) => void = console.log): MillionResult {
  const made = millionStore();
  log(
    made.generatedMs === null
      ? `search 1M: cached store at ${made.path}`
      : `search 1M: made ${MILLION} messages in ${(made.insertMs! / 1000).toFixed(1)} s, indexed and merged in ${(made.indexMs! / 1000).toFixed(1)} s`,
  );
  const store = SessionStore.open(made.path, { integrityCheck: "background", indexer: { idleMs: null } });
  const ws = store.recentWorkspaces(1)[0];
  const timeQuery = (run: () => number): { ms: number; hits: number } => {
    let hits = 0;
    const times: number[] = [];
    for (let r = 0; r < 7; r++) {
      const t0 = performance.now();
      hits = run();
      times.push(performance.now() - t0);
    }
    return { ms: median(times), hits };
  };
  const queries = [
    RARE[10],
    RARE[700],
    RARE[9000],
    `${RARE[3]} ${RARE[40]}`,
    "function return",
    `${RARE[12].slice(0, 3)}*`,
    "error",
    'hostile "quote -minus (paren',
  ];
  const plain: number[] = [];
  for (const q of queries) {
    const { ms, hits } = timeQuery(() => store.searchEverything(q).groups.reduce((n, g) => n + g.hitCount, 0));
    plain.push(ms);
    log(`search 1M ${JSON.stringify(q)}: ${hits} hits, median ${ms.toFixed(2)} ms`);
  }
  const filters = [
    { workspaceId: ws.id },
    { model: "gpt-5" },
    { from: 1_700_000_000_000 + 500 * PER_SESSION * 1000 },
    { model: "gpt-5", workspaceId: ws.id },
  ];
  const filtered: number[] = [];
  for (const f of filters) {
    const { ms, hits } = timeQuery(() => store.searchEverything(RARE[700], f).groups.reduce((n, g) => n + g.hitCount, 0));
    filtered.push(ms);
    log(`search 1M ${JSON.stringify(RARE[700])} with ${JSON.stringify(f)}: ${hits} hits, median ${ms.toFixed(2)} ms`);
  }
  store.close();
  return {
    search1MMs: Math.round(median(plain) * 1000) / 1000,
    search1MFilteredMs: Math.round(median(filtered) * 1000) / 1000,
    search1MInsertMs: made.insertMs === null ? null : Math.round(made.insertMs),
    search1MIndexMs: made.indexMs === null ? null : Math.round(made.indexMs),
  };
}
