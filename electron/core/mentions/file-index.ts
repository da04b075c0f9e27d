/**
 * The workspace's file list for @-mentions: built once per workspace through
 * the sandbox walk (gitignore-aware, .git and node_modules skipped), refreshed
 * when the folder changes (a recursive watch marks it stale; the next search
 * answers from the current list and rebuilds in the background), searched
 * with fzf's fuzzy matcher (the algorithm of the fzf command line tool).
 *
 * Contract: `search` never throws; a workspace that cannot be read answers
 * no files.
 */
import { watch, type FSWatcher } from "node:fs";
import { byLengthAsc, Fzf } from "fzf";
import { Sandbox } from "../tools/sandbox";
import { walk } from "../tools/walk";

/** Files indexed at most (a bigger tree is cut; the search says how many it saw). */
export const FILE_INDEX_MAX = 200_000;
export const MENTION_RESULTS_DEFAULT = 50;

export interface FileMatch {
  path: string;
  positions: number[];
}

export class FileIndex {
  private files: string[] = [];
  private finder: Fzf<readonly string[]> | null = null;
  private building: Promise<void> | null = null;
  private stale = true;
  private watcher: FSWatcher | null = null;
  private builtAt = 0;

  constructor(readonly root: string) {}

  /** Resolves when the first build is done (later rebuilds run in the background). */
  async ready(): Promise<void> {
    if (!this.watcher && Date.now() - this.builtAt > 60_000) this.stale = true;
    if (this.stale && !this.building) this.rebuild();
    if (this.finder === null && this.building) await this.building;
  }

  async search(query: string, limit = MENTION_RESULTS_DEFAULT): Promise<{ files: FileMatch[]; total: number }> {
    await this.ready();
    return this.searchNow(query, limit);
  }

  /** Searches the list as it stands (the bench calls this per keystroke). */
  searchNow(query: string, limit = MENTION_RESULTS_DEFAULT): { files: FileMatch[]; total: number } {
    const q = query.trim();
    if (q === "") return { files: this.files.slice(0, limit).map((path) => ({ path, positions: [] })), total: this.files.length };
    const finder = (this.finder ??= new Fzf(this.files, { limit, casing: "smart-case", fuzzy: "v2", tiebreakers: [byLengthAsc] }));
    const found = finder.find(q);
    return {
      files: found.slice(0, limit).map((r) => ({ path: r.item, positions: [...r.positions].sort((a, b) => a - b) })),
      total: found.length,
    };
  }

  /** Every indexed path (for tests and the bench). */
  list(): readonly string[] {
    return this.files;
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  private rebuild(): void {
    this.stale = false;
    this.startWatching();
    const run = this.build().finally(() => {
      if (this.building === run) this.building = null;
    });
    this.building = run;
  }

  private async build(): Promise<void> {
    const sandbox = await Sandbox.open(this.root);
    if (!sandbox.ok) {
      this.setFiles([]);
      return;
    }
    const start = await sandbox.value.resolve(".");
    if (!start.ok) {
      this.setFiles([]);
      return;
    }
    const files: string[] = [];
    try {
      for await (const entry of walk(sandbox.value, start.value)) {
        if (entry.kind === "file") files.push(entry.rel);
        if (files.length >= FILE_INDEX_MAX) break;
      }
    } catch {
      // A folder vanished mid-walk: keep what was found; the watcher marks it stale again.
    }
    this.setFiles(files);
  }

  private setFiles(files: string[]): void {
    this.files = files;
    this.builtAt = Date.now();
    // fzf v2 with a limit keeps per-query work proportional to the list; the index is rebuilt lazily on first search.
    this.finder = null;
  }

  private startWatching(): void {
    if (this.watcher) return;
    try {
      this.watcher = watch(this.root, { recursive: true, persistent: false }, (_event, name) => {
        const path = typeof name === "string" ? name : "";
        if (path.startsWith(".git/") || path === ".git" || path.includes("node_modules")) return;
        this.markStale();
      });
      this.watcher.on("error", () => {
        this.watcher?.close();
        this.watcher = null;
        this.markStale();
      });
    } catch {
      // No recursive watch here: every search after a minute rebuilds instead.
      this.watcher = null;
    }
  }

  private markStale(): void {
    if (this.stale) return;
    this.stale = true;
    // Rebuild soon, off the keystroke path.
    setTimeout(() => {
      if (this.stale && !this.building) this.rebuild();
    }, 300).unref();
  }
}
