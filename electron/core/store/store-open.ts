/**
 * Opening a store: the connection, the context and the parts that run beside
 * it (search indexer, idle WAL checkpoint, tail marks), the checks and repair
 * at open. `SessionStore.open` wraps the result.
 */
import { existsSync, rmSync } from "node:fs";
import { createContext, openDatabase, type StoreContext } from "./db";
import { toStoreError } from "./errors";
import { repairAll, type RepairReport } from "./repair";
import type { SalvageReport } from "./salvage";
import { DEFAULT_INDEXER_OPTIONS, SearchIndexer, useSlicedMerges, type IndexerOptions } from "./search-index";
import { StagedImports, listLeftoverImports, type LeftoverImport } from "./staged-imports";
import { TailMarks, checkMarks, walCutShort, type EntryLoss } from "./tail-marks";
import { WalCheckpoint } from "./wal-checkpoint";

export interface StoreOptions {
  /** Clock in Unix ms (tests inject one). */
  now?: () => number;
  /** better_sqlite3.node built for Electron's ABI (see docs/electron.md); absent under Node. */
  nativeBinding?: string;
  /** When the search index catches up with appends (see search-index.ts). */
  indexer?: Partial<IndexerOptions>;
  /**
   * "atOpen" (default): quick_check before opening, a damaged file fails the open.
   * "background": open at the same cost at any size; the caller runs `integrity()` after start.
   */
  integrityCheck?: "atOpen" | "background";
  /**
   * "atCommit" (default): only SQLite's own WAL checkpoint, inside the commit that crosses its threshold.
   * "whenIdle": also one PASSIVE checkpoint once the store has been quiet for `walIdleMs` (wal-checkpoint.ts; the app).
   */
  walCheckpoints?: "atCommit" | "whenIdle";
  /** Quiet time before the idle WAL checkpoint (tests); default in wal-checkpoint.ts. */
  walIdleMs?: number;
}

export interface OpenReport {
  /** Sessions that had tool calls without results and got synthesized "aborted" results. */
  repaired: RepairReport[];
  /** Sessions whose repair failed (left as they were). */
  repairFailures: Array<{ sessionId: string; message: string }>;
  /** Sessions holding fewer entries than were acknowledged before (tail-marks.ts): commits were lost. */
  lostEntries: EntryLoss[];
  /** The -wal file ended inside a frame: it was cut, and SQLite dropped what came after the cut. */
  walCutShort: boolean;
  /** Imports the previous process did not finish: never visible, discarded in the background after the open. */
  leftoverImports: LeftoverImport[];
}

export interface Recovered {
  /** Where the damaged file now lives (its -wal/-shm moved alongside). */
  movedTo: string;
  /** Why it was judged damaged. */
  reason: string;
  /** What was read from it into the fresh store (salvage.ts); null when the salvage itself failed (`salvageError`). */
  salvage: SalvageReport | null;
  salvageError?: string;
}

export interface StoreParts {
  ctx: StoreContext;
  indexer: SearchIndexer;
  report: OpenReport;
  walCheckpoint: WalCheckpoint | null;
  marks: TailMarks | null;
  imports: StagedImports;
}

/** Opens, checks, migrates and repairs (see `SessionStore.open`). Throws StoreError; closes what it opened when it does. */
export function openParts(path: string, options: StoreOptions): StoreParts {
  const now = options.now ?? Date.now;
  // A background check that found damage last time asks for the full check at this open (and so the move aside).
  const atOpen = options.integrityCheck !== "background" || existsSync(recheckMarker(path));
  const onFile = path !== ":memory:" && path !== "" && !path.startsWith("file:");
  // Before SQLite opens it: opening recovers the WAL, and what was after a cut is then gone without a trace.
  const cut = onFile && walCutShort(path);
  const db = openDatabase(path, undefined, options.nativeBinding, atOpen);
  if (atOpen) rmSync(recheckMarker(path), { force: true });
  const events = { appended: (_sessionId: string) => {} };
  const ctx = createContext(db, now, events);
  const marks = onFile ? new TailMarks(ctx, path) : null;
  const walCheckpoint = options.walCheckpoints === "whenIdle" && onFile ? new WalCheckpoint(db, options.walIdleMs) : null;
  const indexer = new SearchIndexer(ctx, { ...DEFAULT_INDEXER_OPTIONS, ...options.indexer }, () => walCheckpoint?.noteWrite());
  events.appended = (sessionId) => {
    indexer.noteAppend(sessionId);
    walCheckpoint?.noteWrite();
    marks?.touch(sessionId);
  };
  const imports = new StagedImports(ctx, (sessionId) => indexer.noteAppend(sessionId));
  try {
    useSlicedMerges(ctx);
    // Before repair appends anything: the marks say what the last process had committed.
    const lostEntries = onFile ? checkMarks(ctx, path) : [];
    const leftoverImports = listLeftoverImports(ctx);
    const report = { ...repairAtOpen(ctx), lostEntries, walCutShort: cut, leftoverImports };
    // Catch up on rows a previous process left unindexed, once the app is idle.
    indexer.schedule();
    // A discard that fails leaves the session staged (invisible); the next open tries again.
    for (const l of leftoverImports) imports.discard(l.sessionId).catch(() => undefined);
    return { ctx, indexer, report, walCheckpoint, marks, imports };
  } catch (e) {
    marks?.cancel();
    indexer.cancel();
    walCheckpoint?.stop();
    db.close();
    throw toStoreError(e, `cannot open ${path}`);
  }
}

export function recheckMarker(path: string): string {
  return `${path}.needs-integrity-check`;
}

function repairAtOpen(ctx: StoreContext): Pick<OpenReport, "repaired" | "repairFailures"> {
  const { repaired, failures } = repairAll(ctx);
  return { repaired, repairFailures: failures };
}
