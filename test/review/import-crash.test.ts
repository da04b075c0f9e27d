/**
 * Fault injection: the core is SIGKILLed during a 6,000-entry import at
 * moments spread over the import's duration. Whatever the moment, the next
 * start must show either no imported session or the whole of it, never part
 * of one listed like any other, and must leave no staged rows behind.
 */
import Database from "better-sqlite3";
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { serializeEnvelope } from "../../electron/core/review/export-json";
import { SessionStore } from "../../electron/core/store";
import { tempDir, type TempDir } from "../store/helpers";
import { bigExport } from "./import-fixtures";

const CHILD = fileURLToPath(new URL("./fixtures/import-child.ts", import.meta.url));
const ENTRIES = 6000;
/** bigExport writes an audit row and a note every 100 entries. */
const EXTRAS = ENTRIES / 100;
const KILLS = 20;
const CHUNKED_KILLS = 6;

let dir: TempDir | undefined;
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
  dir?.remove();
  dir = undefined;
  checked.clear();
});

type Mode = "oneshot" | "chunked";

/**
 * Runs the importing child; `kill` is told each line it prints (and the ms since "begin") and returns
 * the ms after which to SIGKILL it, 0 for at once, or null to wait. A child that printed "done" is
 * killed at once. Resolves with its lines once it died by the kill.
 */
function importUntilKilled(
  args: { db: string; workspaceId: string; file: string; mode: Mode },
  kill: (line: string) => number | null,
): Promise<{ lines: string[]; importMs: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, args.db, args.workspaceId, args.file, args.mode], {
      cwd: process.cwd(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.add(child);
    const lines: string[] = [];
    let partial = "";
    let stderr = "";
    let began = 0;
    let importMs: number | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const killNow = () => {
      clearTimeout(timer);
      child.kill("SIGKILL");
    };
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      const parts = (partial + d.toString()).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (line === "begin") began = performance.now();
        if (line.startsWith("done ")) {
          importMs = performance.now() - began;
          killNow();
          continue;
        }
        const after = kill(line);
        if (after === 0) killNow();
        else if (after !== null) timer = setTimeout(killNow, after);
      }
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      running.delete(child);
      clearTimeout(timer);
      if (signal === "SIGKILL") resolve({ lines, importMs });
      else reject(new Error(`the child ended on its own (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}

/** What the kill left, then what the next start shows. */
const checked = new Set<string>();
async function inspect(db: string, workspaceId: string) {
  const stagedIn = (conn: Database.Database): number =>
    conn.prepare(`SELECT count(*) FROM sessions WHERE staged_at IS NOT NULL`).pluck().get() as number;
  const raw = new Database(db, { readonly: true });
  const stagedBefore = stagedIn(raw);
  raw.close();
  const store = SessionStore.open(db);
  const leftovers = store.openReport.leftoverImports.length;
  const visible = store.listSessions(workspaceId).sessions.map((s) => {
    // Each session's rows are read once, after the run that imported it.
    const loaded = checked.has(s.id) ? null : store.loadEntriesChecked(s.id);
    checked.add(s.id);
    return { entryCount: s.entryCount, loaded, notes: store.listNotes(s.id).length, toolCalls: store.listToolCalls(s.id).length };
  });
  // Not even found by search while staged or being discarded.
  const found = new Set(store.search(`question ${ENTRIES - 2}`).map((h) => h.sessionId)).size;
  await store.imports.idle();
  store.close();
  const after = new Database(db, { readonly: true });
  const staged = stagedIn(after);
  const orphans = after
    .prepare(
      `SELECT count(*) FROM entries e WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE e.id BETWEEN s.num * 4294967296 AND s.num * 4294967296 + 4294967295)`,
    )
    .pluck()
    .get() as number;
  after.close();
  return { stagedBefore, leftovers, visible, found, staged, orphans };
}

function setUp() {
  dir = tempDir("import-crash-");
  const db = dir.file("wb.db");
  const file = dir.file("export.json");
  writeFileSync(file, serializeEnvelope(bigExport(ENTRIES)));
  const store = SessionStore.open(db);
  const workspaceId = store.addWorkspace(dir.path).id;
  store.close();
  return { db, file, workspaceId };
}

function expectWholeOrNothing(state: Awaited<ReturnType<typeof inspect>>, before: number, context: string): boolean {
  expect(state.visible.length, context).toBeGreaterThanOrEqual(before);
  expect(state.visible.length, context).toBeLessThanOrEqual(before + 1);
  for (const s of state.visible) {
    expect(s.entryCount, context).toBe(ENTRIES);
    if (s.loaded) {
      expect(s.loaded.problems, context).toEqual([]);
      expect(
        s.loaded.entries.map((e) => e.seq),
        context,
      ).toEqual(Array.from({ length: ENTRIES }, (_, i) => i + 1));
    }
    expect([s.notes, s.toolCalls], context).toEqual([EXTRAS, EXTRAS]);
  }
  expect(state.found, context).toBe(state.visible.length);
  expect(state.staged, context).toBe(0);
  expect(state.orphans, context).toBe(0);
  return state.visible.length === before;
}

describe("an import killed at any moment", () => {
  it(`leaves the whole session or none: ${KILLS} SIGKILLs spread over a ${ENTRIES}-entry import, and ${CHUNKED_KILLS} between chunks`, async () => {
    const { db, file, workspaceId } = setUp();
    // One import left to finish: how long an import takes here, and that it imports everything.
    const calibration = await importUntilKilled({ db, workspaceId, file, mode: "oneshot" }, () => null);
    const importMs = calibration.importMs;
    if (importMs === null) throw new Error("the calibration import did not finish");
    let sessions = 0;
    expectWholeOrNothing(await inspect(db, workspaceId), sessions, "calibration");
    sessions = 1;

    let cutShort = 0;
    for (let i = 0; i < KILLS; i++) {
      // Stratified: run i dies somewhere in the i-th twentieth of 1.2 × the import's duration.
      const delay = ((i + Math.random()) / KILLS) * importMs * 1.2;
      const run = await importUntilKilled({ db, workspaceId, file, mode: "oneshot" }, (line) => (line === "begin" ? delay : null));
      const state = await inspect(db, workspaceId);
      const context = `one-shot run ${i}, killed ${Math.round(delay)} ms after begin (import takes ~${Math.round(importMs)} ms): ${run.lines.join(" | ")}`;
      // A kill after the publish but before "done" was printed may leave the whole session: also right.
      if (expectWholeOrNothing(state, sessions, context)) cutShort++;
      else sessions++;
    }

    // Chunked, as the renderer sends a file: killed right after chunk k was read.
    const chunks = Math.ceil(serializeEnvelope(bigExport(ENTRIES)).length / (64 * 1024));
    for (let i = 0; i < CHUNKED_KILLS; i++) {
      const k = Math.min(chunks - 1, Math.floor(((i + Math.random()) / CHUNKED_KILLS) * chunks));
      const run = await importUntilKilled({ db, workspaceId, file, mode: "chunked" }, (line) => (line === `chunk ${k}` ? 0 : null));
      const state = await inspect(db, workspaceId);
      const context = `chunked run ${i}, killed after chunk ${k} of ${chunks}`;
      expect(run.importMs, context).toBeNull();
      expect(expectWholeOrNothing(state, sessions, context), context).toBe(true);
      expect(state.stagedBefore, context).toBe(1);
      expect(state.leftovers, context).toBe(1);
      cutShort++;
    }
    // Most kills landed mid-import (else the test proved nothing).
    expect(cutShort).toBeGreaterThan(CHUNKED_KILLS);
  }, 300_000);
});
