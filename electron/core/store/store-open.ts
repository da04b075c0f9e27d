/**
 * Opening a store: the connection, the context and the parts that run beside
 * it (search indexer, checkpoint worker, tail marks), the checks and repair
 * at open. `SessionStore.open` wraps the result.
 */
import { existsSync, rmSync } from "node:fs";
import { Checkpointer, DEFAULT_CHECKPOINTER_OPTIONS, type CheckpointerOptions } from "./checkpointer";
import { createContext, openDatabase, type StoreContext } from "./db";
import { toStoreError } from "./errors";
import { repairAll, type RepairReport } from "./repair";
import type { SalvageReport } from "./salvage";
import { DEFAULT_INDEXER_OPTIONS, SearchIndexer, useSlicedMerges, type IndexerOptions } from "./search-index";
import { StagedImports, listLeftoverImports, type LeftoverImport } from "./staged-imports";
import { TailMarks, checkMarks, walCutShort, type EntryLoss } from "./tail-marks";

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
   * "atCommit" (default): SQLite checkpoints the WAL inside the commit that crosses its threshold.
   * "background": a worker thread checkpoints instead (checkpointer.ts), so no append pays for it (the app).
   */
  checkpoints?: "atCommit" | "background";
  /** Tuning of the background checkpoints (tests); defaults in checkpointer.ts. */
  checkpointer?: Partial<CheckpointerOptions>;
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
  checkpointer: Checkpointer | null;
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
  const checkpointer =
    options.checkpoints === "background" && onFile
      ? new Checkpointer(db, path, options.nativeBinding, { ...DEFAULT_CHECKPOINTER_OPTIONS, ...options.checkpointer })
      : null;
  if (checkpointer) ctx.gate = checkpointer.gate;
  const indexer = new SearchIndexer(ctx, { ...DEFAULT_INDEXER_OPTIONS, ...options.indexer }, (n) => checkpointer?.noteWrite(n));
  events.appended = (sessionId) => {
    indexer.noteAppend(sessionId);
    checkpointer?.noteWrite();
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
    return { ctx, indexer, report, checkpointer, marks, imports };
  } catch (e) {
    marks?.cancel();
    indexer.cancel();
    void checkpointer?.stop();
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
