/**
 * Depth-first walk of a workspace folder through the sandbox, sorted by name,
 * skipping .git and node_modules and honouring .gitignore files (nested ones
 * too, the deepest deciding, as git does). Ignored folders are pruned, not
 * crawled. Symbolic links are reported, never followed.
 *
 * Every folder is opened once, verified, listed through its descriptor, and
 * its sub-folders are opened through it (DirHandle): a folder swapped for a
 * link to outside the workspace mid-walk is skipped, and no name from outside
 * is ever reported.
 */
import { lstatSync, readlinkSync } from "node:fs";
import ignore, { type Ignore } from "ignore";
import type { DirHandle } from "./dir-handle";
import type { ResolvedPath, Sandbox } from "./sandbox";
import { joinRel } from "./sandbox";
import { decodeText } from "./text-file";

export interface WalkEntry {
  /** Workspace-relative path. */
  rel: string;
  name: string;
  kind: "file" | "directory" | "symlink" | "other";
  /** 1 for the start folder's children. */
  depth: number;
  resolved: ResolvedPath;
  /** A link's target text, read through the folder's descriptor. */
  linkTarget?: string;
  /** With `mtimes`: the entry's modification time (0 when it vanished). */
  mtimeMs?: number;
}

export interface WalkOptions {
  includeIgnored?: boolean;
  /** Deepest level to enter; entries at this level are still reported. */
  maxDepth?: number;
  signal?: AbortSignal;
  /** Read each file's mtime through the folder's descriptor. */
  mtimes?: boolean;
}

export const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

interface Rules {
  /** Workspace-relative folder the .gitignore lives in. */
  base: string;
  ig: Ignore;
}

async function loadRules(sandbox: Sandbox, dir: ResolvedPath): Promise<Rules | null> {
  const gi = await sandbox.resolve(joinRel(dir.rel, ".gitignore"));
  if (!gi.ok || gi.value.kind !== "file") return null;
  const buf = await sandbox.readFile(gi.value);
  if (!buf.ok) return null;
  return { base: dir.rel, ig: ignore().add(decodeText(buf.value).text) };
}

function isIgnored(stack: readonly Rules[], rel: string, isDir: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const { base, ig } = stack[i];
    if (base !== "." && !rel.startsWith(`${base}/`)) continue;
    const sub = base === "." ? rel : rel.slice(base.length + 1);
    const result = ig.test(isDir ? `${sub}/` : sub);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/** Rules from the .gitignore files between the workspace root and `dir` (excluded). */
async function ancestorRules(sandbox: Sandbox, dir: ResolvedPath): Promise<Rules[]> {
  if (dir.rel === ".") return [];
  const parts = dir.rel.split("/");
  const out: Rules[] = [];
  for (let i = 0; i < parts.length; i++) {
    const rel = i === 0 ? "." : parts.slice(0, i).join("/");
    const resolved = await sandbox.resolve(rel);
    if (!resolved.ok || resolved.value.kind !== "directory") continue;
    const rules = await loadRules(sandbox, resolved.value);
    if (rules) out.push(rules);
  }
  return out;
}

export async function* walk(sandbox: Sandbox, start: ResolvedPath, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const includeIgnored = options.includeIgnored ?? false;
  const baseStack = includeIgnored ? [] : await ancestorRules(sandbox, start);

  // An explicit stack instead of nested generators: one resumption per entry, whatever the depth.
  interface Frame {
    dir: DirHandle;
    entries: WalkEntry[];
    next: number;
    rules: Rules[];
  }
  const open = async (dir: DirHandle, resolved: ResolvedPath, depth: number, stack: Rules[]): Promise<Frame | null> => {
    let listed;
    try {
      listed = dir.list();
    } catch {
      // An unreadable or vanished folder is skipped, as ripgrep and find do.
      dir.close();
      return null;
    }
    let rules = stack;
    if (!includeIgnored && listed.some((e) => e.name === ".gitignore")) {
      const own = await loadRules(sandbox, resolved);
      if (own) rules = [...stack, own];
    }
    const sorted = listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const entries: WalkEntry[] = [];
    for (const entry of sorted) {
      const rel = joinRel(resolved.rel, entry.name);
      if (!includeIgnored && (ALWAYS_SKIPPED.has(entry.name) || isIgnored(rules, rel, entry.kind === "directory"))) continue;
      const kind = entry.kind === "directory" ? "directory" : "file";
      const e: WalkEntry = { rel, name: entry.name, kind: entry.kind, depth, resolved: sandbox.child(resolved, entry.name, kind) };
      if (entry.kind === "symlink") e.linkTarget = quietly(() => readlinkSync(dir.at(entry.name)), "?");
      if (options.mtimes && entry.kind === "file") e.mtimeMs = quietly(() => lstatSync(dir.at(entry.name)).mtimeMs, 0);
      entries.push(e);
    }
    return { dir, entries, next: 0, rules };
  };

  const startDir = sandbox.openDir(start);
  if (!startDir.ok) return;
  const first = await open(startDir.value, start, 1, baseStack);
  const frames: Frame[] = first ? [first] : [];
  try {
    let sliceStart = performance.now();
    while (frames.length > 0) {
      if (options.signal?.aborted) return;
      // Folders are listed synchronously: give the event loop a turn every few milliseconds.
      if (performance.now() - sliceStart > 8) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      const top = frames[frames.length - 1];
      if (top.next >= top.entries.length) {
        top.dir.close();
        frames.pop();
        continue;
      }
      const entry = top.entries[top.next++];
      yield entry;
      if (entry.kind === "directory" && entry.depth < maxDepth) {
        const sub = sandbox.openChildDir(top.dir, entry.resolved, entry.name);
        const child = sub.ok ? await open(sub.value, entry.resolved, entry.depth + 1, top.rules) : null;
        if (child) frames.push(child);
      }
    }
  } finally {
    for (const f of frames) f.dir.close();
  }
}

function quietly<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    // Only for optional reads (ignore files): missing or unreadable means none.
    return fallback;
  }
}
