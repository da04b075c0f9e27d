/**
 * The rewind journal: one small file in the workspace's checkpoint
 * repository saying which rewind is under way, written (and flushed to disk)
 * before the first file changes and removed once the rewind is complete, so
 * a rewind killed half-way is found and finished at the next start. See
 * docs/checkpoints.md#an-interrupted-rewind.
 *
 * Contract: `writeJournal` replaces the file atomically (temp file, fsync,
 * rename, fsync of the folder); `readJournal` answers null when there is
 * none and `{ damaged }` when it cannot be parsed; of the file helpers only
 * `writeJournal` throws (a rewind that cannot record its intent does not
 * start). The store helpers below (the rows and forks a journal counts on)
 * throw the store's StoreError.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { SessionSummary } from "../../../shared/api";
import type { SessionStore } from "../store";

const FILE = "workbench-rewind.json";

export const RewindJournalSchema = z
  .object({
    version: z.literal(1),
    workspaceId: z.string(),
    sessionId: z.string(),
    /** The checkpoint restored, and its tree. */
    targetCheckpointId: z.number().int(),
    targetTree: z.string().regex(/^[0-9a-f]{40,64}$/),
    /** The workspace's state before the rewind (its `beforeRestore` checkpoint). */
    beforeTree: z.string().regex(/^[0-9a-f]{40,64}$/),
    /** The step the `beforeRestore` / `restored` rows are recorded at. */
    atSeq: z.number().int(),
    /** How many files the rewind changes. */
    files: z.number().int(),
    /** The session's newest checkpoint id before the rewind: the rewind's own rows are the ones above it. */
    afterCheckpointId: z.number().int(),
    /**
     * The conversation part of a `both` rewind: a fork ending at this step;
     * `existing` lists the forks at that step made before, so a recovery can
     * tell whether the rewind's own was made.
     */
    fork: z
      .object({ seq: z.number().int(), title: z.string(), existing: z.array(z.string()) })
      .strict()
      .nullable(),
    startedAt: z.number(),
  })
  .strict();
export type RewindJournal = z.infer<typeof RewindJournalSchema>;

export function journalPath(gitDir: string): string {
  return join(gitDir, FILE);
}

function fsyncPath(path: string, flags: "r" | "r+"): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Records the rewind's intent durably; throws when it cannot. */
export function writeJournal(gitDir: string, journal: RewindJournal): void {
  const path = journalPath(gitDir);
  const temp = `${path}.tmp`;
  writeFileSync(temp, JSON.stringify(journal) + "\n", { mode: 0o600 });
  fsyncPath(temp, "r+");
  renameSync(temp, path);
  try {
    fsyncPath(gitDir, "r");
  } catch {
    // Folders cannot be opened for fsync on some systems (Windows): the rename itself is what they guarantee.
  }
}

export function readJournal(gitDir: string): RewindJournal | { damaged: string } | null {
  let text: string;
  try {
    text = readFileSync(journalPath(gitDir), "utf8");
  } catch {
    // No journal: no rewind was under way.
    return null;
  }
  try {
    const parsed = RewindJournalSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { damaged: parsed.error.issues[0]?.message ?? "invalid journal" };
  } catch (err) {
    return { damaged: err instanceof Error ? err.message : String(err) };
  }
}

/** The rewind is complete. A journal left behind by a failed delete is found complete at the next start. */
export function clearJournal(gitDir: string): void {
  try {
    rmSync(journalPath(gitDir), { force: true });
  } catch {
    // The next start reads the rows, finds the rewind complete and removes the journal then.
  }
}

/** The conversation part of a rewind: a fork ending at `seq`, repaired like any session opened mid-turn. */
export function forkConversation(store: SessionStore, sessionId: string, seq: number, title: string): SessionSummary {
  const forked = store.forkSession(sessionId, seq, { title });
  store.repairSession(forked.id);
  return store.getSession(forked.id) ?? forked;
}

/** The session's newest checkpoint id (0 for none): rows above it in the session belong to the rewind journaled now. */
export function lastCheckpointId(store: SessionStore, sessionId: string): number {
  return store.listSessionCheckpoints(sessionId).reduce((max, r) => Math.max(max, r.id), 0);
}

/** The ids of the session's forks made at `seq`, so a recovery can tell whether the rewind's own fork was made. */
export function forksAt(store: SessionStore, sessionId: string, seq: number): string[] {
  const session = store.getSession(sessionId);
  if (!session) return [];
  const ids: string[] = [];
  let before: number | undefined;
  for (;;) {
    const page = store.listSessions(session.workspaceId, { limit: 500, ...(before === undefined ? {} : { before }) });
    for (const s of page.sessions) if (s.parentSessionId === sessionId && s.parentSeq === seq) ids.push(s.id);
    const last = page.sessions.at(-1);
    if (!page.hasMore || !last) return ids;
    before = last.updatedAt;
  }
}
