/**
 * CheckpointService: records workspace states for sessions and answers
 * questions about them (list, diff, file content, size), one private
 * repository per workspace. Rewind lives in rewind.ts on top of it.
 *
 * Contract:
 * - `record` never throws: a failed checkpoint is remembered (status
 *   `lastError`) and the turn goes on.
 * - Git work on one workspace runs one operation at a time (`exclusive`).
 * - After recording, maintenance runs in the background: packs loose objects
 *   and, past the size cap, prunes the oldest checkpoints first.
 * - A repository is opened once per process; opening it first finishes a
 *   rewind the app was stopped in (rewind-recovery.ts) and reports it.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Checkpoint, CheckpointFileDiff, CheckpointSettings, CheckpointStatus } from "../../../shared/checkpoints";
import type { CheckpointKind, CheckpointRecord, SessionStore } from "../store";
import { DEFAULT_EXCLUDES } from "./excludes";
import { gitVersion } from "./git";
import { readJournal } from "./rewind-journal";
import { finishInterruptedRewind, type RecoveryNotice } from "./rewind-recovery";
import { repoDirFor, ShadowRepo, type TreeChange } from "./shadow-repo";

/** Texts past this are listed without content in previews. */
export const PREVIEW_TEXT_LIMIT = 1024 * 1024;
const LOOSE_OBJECTS_BEFORE_PACK = 2000;
const MAINTAIN_DELAY_MS = 3000;

export interface CheckpointServiceOptions {
  store: SessionStore;
  /** Folder holding the repositories (next to the database); null: checkpoints off. */
  root: string | null;
  settings(): CheckpointSettings;
  /** Delay before background maintenance (tests pass 0 and call `maintain`). */
  maintainDelayMs?: number;
  /** Told what happened to a rewind the app was stopped in (finished, or could not be). */
  onNotice?: (notice: RecoveryNotice) => void;
}

export class CheckpointUnavailable extends Error {
  override name = "CheckpointUnavailable";
}

export interface RecordPoint {
  kind: CheckpointKind;
  seq: number;
  toolCallId?: string | null;
}

export class CheckpointService {
  private readonly repos = new Map<string, Promise<ShadowRepo>>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly maintainTimers = new Map<string, NodeJS.Timeout>();
  private readonly warmed = new Set<string>();
  private lastError: string | null = null;

  constructor(private readonly options: CheckpointServiceOptions) {}

  get storeRef(): SessionStore {
    return this.options.store;
  }

  /** Null when checkpoints can be recorded; else why not. */
  async unavailableReason(): Promise<string | null> {
    if (!this.options.root) return "no folder for checkpoints (in-memory database)";
    if (!this.options.settings().enabled) return "checkpoints are turned off in Settings";
    if (!(await gitVersion())) return "git was not found on PATH; checkpoints need git";
    return null;
  }

  /** Runs `fn` after every earlier operation on the workspace's repository. */
  exclusive<T>(workspaceId: string, fn: (repo: ShadowRepo) => Promise<T>): Promise<T> {
    const prev = this.queues.get(workspaceId) ?? Promise.resolve();
    const run = prev.then(
      () => this.repo(workspaceId).then(fn),
      () => this.repo(workspaceId).then(fn),
    );
    // The caller awaits `run` and gets its error; the queue only needs to know it settled.
    const tail = run.catch(() => undefined);
    this.queues.set(workspaceId, tail);
    void tail.then(() => {
      if (this.queues.get(workspaceId) === tail) this.queues.delete(workspaceId);
    });
    return run;
  }

  private repo(workspaceId: string): Promise<ShadowRepo> {
    let repo = this.repos.get(workspaceId);
    if (!repo) {
      const ws = this.options.store.getWorkspace(workspaceId);
      if (!ws) return Promise.reject(new CheckpointUnavailable(`no workspace ${workspaceId}`));
      if (!this.options.root) return Promise.reject(new CheckpointUnavailable("checkpoints have no storage folder"));
      if (!existsSync(ws.path)) return Promise.reject(new CheckpointUnavailable(`the workspace folder is gone: ${ws.path}`));
      // An interrupted rewind is finished before anything else uses the repository.
      repo = ShadowRepo.open(repoDirFor(this.options.root, ws.path), ws.path).then(async (opened) => {
        await this.finishRewind(opened);
        return opened;
      });
      // Callers await `repo` and get its error; a failed open is not cached.
      repo.catch(() => this.repos.delete(workspaceId));
      this.repos.set(workspaceId, repo);
    }
    return repo;
  }

  private async finishRewind(repo: ShadowRepo): Promise<void> {
    const notify = this.options.onNotice ?? (() => undefined);
    try {
      const notice = await finishInterruptedRewind(this.options.store, repo);
      if (notice) notify(notice);
    } catch (err) {
      // The journal stays: the next start tries again. The repository still opens, so the user can rewind by hand.
      notify({
        level: "error",
        message: `A rewind was interrupted and could not be finished (${errorText(err)}): the workspace may hold files of two states. It is tried again at the next start.`,
      });
    }
  }

  /**
   * At start: finishes every rewind the app was stopped in, in the
   * background (each queued before any other operation on its repository).
   * A workspace whose folder is missing now is finished when it is next used.
   */
  recoverInterrupted(): Promise<void> {
    const root = this.options.root;
    if (!root || !existsSync(root)) return Promise.resolve();
    const pending: Promise<unknown>[] = [];
    for (const name of readdirSync(root)) {
      if (!name.endsWith(".git")) continue;
      const journal = readJournal(join(root, name));
      if (journal === null) continue;
      const workspaceId = "damaged" in journal ? this.workspaceOf(join(root, name)) : journal.workspaceId;
      // Opening the repository finishes the rewind; a missing folder waits for the workspace's next use.
      if (workspaceId) pending.push(this.exclusive(workspaceId, () => Promise.resolve()).catch(() => undefined));
    }
    return Promise.all(pending).then(() => undefined);
  }

  /** The workspace whose repository `gitDir` is (among the 1,000 most recent). */
  private workspaceOf(gitDir: string): string | null {
    const root = this.options.root;
    if (!root) return null;
    return this.options.store.recentWorkspaces(1000).find((ws) => repoDirFor(root, ws.path) === gitDir)?.id ?? null;
  }

  /**
   * Brings the workspace's private index up to date in the background, once per
   * workspace and process, without recording a checkpoint: called when a turn
   * starts, so the cold first scan (all files hashed) overlaps the model's first
   * answer instead of delaying the turn's first side effect, whose checkpoint
   * then only looks at what changed. Queued like every other operation on the
   * repository, so a checkpoint never sees a half-built index. Never throws.
   */
  warm(workspaceId: string): void {
    if (this.warmed.has(workspaceId) || !this.options.root || !this.options.settings().enabled) return;
    this.warmed.add(workspaceId);
    // Queued now (not after an await), so it runs before any checkpoint the turn asks for later.
    this.exclusive(workspaceId, async (repo) => {
      if (!(await gitVersion())) return;
      await repo.snapshot();
    }).catch(() => {
      // Not recorded anywhere: the next checkpoint does the same work and reports its own failure.
      this.warmed.delete(workspaceId);
    });
  }

  /** Records the workspace state for a session step. Never throws; null when nothing was recorded. */
  async record(sessionId: string, point: RecordPoint): Promise<CheckpointRecord | null> {
    try {
      if (await this.unavailableReason()) return null;
      const session = this.options.store.getSession(sessionId);
      if (!session) return null;
      const record = await this.exclusive(session.workspaceId, async (repo) => {
        const tree = await repo.snapshot();
        // The row keeps the tree: maintenance writes refs for live rows before packing or pruning.
        return this.options.store.addCheckpoint({ workspaceId: session.workspaceId, sessionId, tree, ...point });
      });
      this.scheduleMaintain(session.workspaceId);
      return record;
    } catch (err) {
      this.lastError = `checkpoint failed: ${errorText(err)}`;
      return null;
    }
  }

  /**
   * A session's checkpoints in the order recorded; a fork starts with its
   * parent's (recursively) up to the step it was forked at.
   */
  list(sessionId: string): CheckpointRecord[] {
    const chain: Array<{ id: string; upTo: number }> = [];
    let upTo = Number.POSITIVE_INFINITY;
    let current = this.options.store.getSession(sessionId);
    const seen = new Set<string>();
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      chain.push({ id: current.id, upTo });
      if (!current.parentSessionId || current.parentSeq === null) break;
      upTo = Math.min(upTo, current.parentSeq);
      current = this.options.store.getSession(current.parentSessionId);
    }
    const rows: CheckpointRecord[] = [];
    for (const link of chain) {
      for (const r of this.options.store.listSessionCheckpoints(link.id)) if (r.seq <= link.upTo) rows.push(r);
    }
    return rows.sort((a, b) => a.id - b.id);
  }

  static toApi(r: CheckpointRecord): Checkpoint {
    return {
      id: r.id,
      sessionId: r.sessionId,
      seq: r.seq,
      kind: r.kind,
      toolCallId: r.toolCallId,
      createdAt: r.createdAt,
      prunedAt: r.prunedAt,
    };
  }

  /** The files that differ between a checkpoint and another one or the workspace as it is now. */
  async diff(fromId: number, to: number | "workspace"): Promise<CheckpointFileDiff[]> {
    const from = this.requireLive(fromId);
    const toRecord = to === "workspace" ? null : this.requireLive(to);
    return this.exclusive(from.workspaceId, async (repo) => {
      const toTree = toRecord ? toRecord.tree : await repo.snapshot();
      return withContents(repo, await repo.diff(from.tree, toTree));
    });
  }

  /** A file's content at a checkpoint; null when the checkpoint has no such file. */
  async fileAt(checkpointId: number, path: string): Promise<{ mode: string; content: Buffer } | null> {
    const r = this.requireLive(checkpointId);
    return this.exclusive(r.workspaceId, async (repo) => {
      const entry = await repo.entry(r.tree, path);
      if (!entry) return null;
      const blob = (await repo.blobs([entry.id])).get(entry.id);
      return blob ? { mode: entry.mode, content: blob } : null;
    });
  }

  /** Unified diff (git format, binary patches included) of the workspace from one checkpoint to another. */
  async patch(fromId: number, toId: number): Promise<string> {
    const from = this.requireLive(fromId);
    const to = this.requireLive(toId);
    return this.exclusive(from.workspaceId, (repo) => repo.patch(from.tree, to.tree));
  }

  requireLive(id: number): CheckpointRecord {
    const r = this.options.store.getCheckpoint(id);
    if (!r) throw new CheckpointUnavailable(`no checkpoint ${id}`);
    if (r.prunedAt !== null) throw new CheckpointUnavailable(`checkpoint ${id} was pruned to keep the store under its size cap`);
    return r;
  }

  async status(workspaceId: string): Promise<CheckpointStatus> {
    const reason = await this.unavailableReason();
    const settings = this.options.settings();
    const ws = this.options.store.getWorkspace(workspaceId);
    const live = this.options.store.listWorkspaceCheckpoints(workspaceId);
    const location = ws && this.options.root ? repoDirFor(this.options.root, ws.path) : null;
    let usedBytes = 0;
    if (location && existsSync(location)) {
      // A status figure only: a repository that cannot be measured shows 0 bytes (its failures surface on use).
      usedBytes = await this.exclusive(workspaceId, (repo) => repo.diskUsage()).catch(() => 0);
    }
    return {
      available: reason === null,
      reason,
      gitVersion: await gitVersion(),
      enabled: settings.enabled,
      capBytes: settings.capBytes,
      usedBytes,
      checkpoints: live.length,
      pruned: this.options.store.countPrunedCheckpoints(workspaceId),
      location,
      excludes: [...DEFAULT_EXCLUDES],
      lastError: this.lastError,
    };
  }

  private scheduleMaintain(workspaceId: string): void {
    if (this.maintainTimers.has(workspaceId)) return;
    const timer = setTimeout(() => {
      this.maintainTimers.delete(workspaceId);
      this.maintain(workspaceId).catch((err) => (this.lastError = `checkpoint maintenance failed: ${errorText(err)}`));
    }, this.options.maintainDelayMs ?? MAINTAIN_DELAY_MS);
    timer.unref();
    this.maintainTimers.set(workspaceId, timer);
  }

  /**
   * Packs loose objects when they pile up; past the size cap, prunes the
   * oldest checkpoints (a tenth at a time, never the newest) and deletes the
   * objects only they reached. Returns the ids pruned.
   */
  async maintain(workspaceId: string): Promise<number[]> {
    const cap = this.options.settings().capBytes;
    return this.exclusive(workspaceId, async (repo) => {
      // Checkpoints are recorded without refs; every live one gets its ref before git may drop unreferenced objects.
      const keepLive = () => repo.keep(this.options.store.listWorkspaceCheckpoints(workspaceId).map((r) => r.tree));
      let kept = false;
      if ((await repo.looseObjectCount()) > LOOSE_OBJECTS_BEFORE_PACK) {
        await keepLive();
        kept = true;
        await repo.pack();
      }
      const pruned: number[] = [];
      let used = await repo.diskUsage();
      if (used > cap && !kept) await keepLive();
      while (used > cap) {
        const live = this.options.store.listWorkspaceCheckpoints(workspaceId);
        if (live.length <= 1) break;
        const batch = live.slice(0, Math.min(live.length - 1, Math.max(1, Math.ceil(live.length / 10))));
        this.options.store.markCheckpointsPruned(batch.map((r) => r.id));
        pruned.push(...batch.map((r) => r.id));
        const stillUsed = new Set(live.slice(batch.length).map((r) => r.tree));
        await repo.drop([...new Set(batch.map((r) => r.tree))].filter((t) => !stillUsed.has(t)));
        await repo.collect();
        used = await repo.diskUsage();
      }
      return pruned;
    });
  }

  /** Stops background maintenance (app shutdown); waits for running git work. */
  async close(): Promise<void> {
    for (const t of this.maintainTimers.values()) clearTimeout(t);
    this.maintainTimers.clear();
    await Promise.all([...this.queues.values()]);
  }
}

/** Adds the before/after texts (small text files) to tree changes. */
export async function withContents(repo: ShadowRepo, changes: readonly TreeChange[]): Promise<CheckpointFileDiff[]> {
  const ids = changes.flatMap((c) => [c.oldId, c.newId].filter((x): x is string => x !== null));
  const blobs = await repo.blobs(ids);
  return changes.map((c) => {
    const before = c.oldId ? (blobs.get(c.oldId) ?? null) : null;
    const after = c.newId ? (blobs.get(c.newId) ?? null) : null;
    const binary = isBinary(before) || isBinary(after);
    const textShown = !binary && (before?.length ?? 0) <= PREVIEW_TEXT_LIMIT && (after?.length ?? 0) <= PREVIEW_TEXT_LIMIT;
    return {
      path: c.path,
      status: c.status,
      oldMode: c.oldMode,
      newMode: c.newMode,
      binary,
      textShown,
      before: textShown && before ? before.toString("utf8") : null,
      after: textShown && after ? after.toString("utf8") : null,
      oldSize: before ? before.length : null,
      newSize: after ? after.length : null,
    };
  });
}

function isBinary(buf: Buffer | null): boolean {
  if (!buf) return false;
  return buf.subarray(0, 8000).includes(0);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
