/**
 * Project instructions for the system prompt, as Codex and Claude Code read
 * them: the user's own `AGENTS.md` (config folder), the workspace root's
 * `AGENTS.md` (or `CLAUDE.md` when there is none), and the ones in the folders
 * of files the agent has touched, between the root and the file (more
 * specific folders come later and take precedence). Each file is capped, with
 * a visible note when cut; the whole section is capped too.
 *
 * Contract: never throws; unreadable files are skipped. Reads are synchronous
 * (a few capped files), so "what the model saw" can rebuild the prompt inline. Nested files are only
 * read inside the workspace (real paths checked), so a symlinked folder cannot
 * pull text in from elsewhere.
 */
import { closeSync, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { InstructionFile } from "../../../shared/api";
import type { StoredEntry } from "../../../shared/protocol";

export const INSTRUCTION_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;
/** Per file. */
export const INSTRUCTION_FILE_MAX_BYTES = 32 * 1024;
/** For all of them together. */
export const INSTRUCTIONS_MAX_BYTES = 96 * 1024;

export interface LoadedInstructions {
  files: InstructionFile[];
  /** The system prompt's section, "" when there is none. */
  text: string;
}

export const NO_INSTRUCTIONS: LoadedInstructions = { files: [], text: "" };

interface Candidate {
  dir: string;
  scope: InstructionFile["scope"];
  /** Shown path: workspace-relative, or absolute for the user's file. */
  label: (name: string) => string;
}

function readCapped(path: string, max: number): { text: string; bytes: number; truncated: boolean } | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, "r");
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    const size = stat.size;
    const buf = Buffer.alloc(Math.min(size, max));
    const bytesRead = readSync(fd, buf, 0, buf.length, 0);
    let text = buf.subarray(0, bytesRead).toString("utf8");
    // Do not end on half a character.
    if (size > max) text = text.replace(/\uFFFD+$/, "");
    return { text, bytes: size, truncated: size > max };
  } catch {
    // Unreadable instruction file: treated as absent (the turn goes on without it).
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function firstExisting(dir: string, max: number): { name: string; text: string; bytes: number; truncated: boolean } | null {
  for (const name of INSTRUCTION_FILE_NAMES) {
    const read = readCapped(join(dir, name), max);
    if (read) return { name, ...read };
  }
  return null;
}

/** Workspace-relative paths of the files the session's tools touched (read, write, edit). */
export function touchedPaths(entries: readonly StoredEntry[]): string[] {
  const out = new Set<string>();
  for (const { entry } of entries) {
    if (entry.type !== "message" || entry.message.role !== "assistant") continue;
    for (const block of entry.message.content) {
      if (block.type !== "toolCall" || !["read", "write", "edit"].includes(block.name)) continue;
      const path = block.arguments.path;
      if (typeof path === "string" && path !== "" && !path.includes("\0")) out.add(path);
    }
  }
  return [...out];
}

/** Folders between the root (exclusive) and each touched file's folder (inclusive), shallow first. */
function nestedDirs(root: string, touched: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const rel of touched) {
    const abs = join(root, rel);
    const r = relative(root, abs);
    if (r === "" || r.startsWith("..") || r.startsWith(sep)) continue;
    let dir = dirname(abs);
    const chain: string[] = [];
    while (dir !== root && dir.startsWith(root + sep)) {
      chain.unshift(dir);
      dir = dirname(dir);
    }
    for (const d of chain) dirs.add(d);
  }
  return [...dirs].sort((a, b) => a.split(sep).length - b.split(sep).length || a.localeCompare(b));
}

export interface InstructionsInput {
  workspaceRoot: string;
  userDir: string | null;
  touched: readonly string[];
}

export function loadInstructions(input: InstructionsInput): Promise<LoadedInstructions> {
  return Promise.resolve(loadInstructionsSync(input));
}

export function loadInstructionsSync(input: InstructionsInput): LoadedInstructions {
  let root: string;
  try {
    root = realpathSync(input.workspaceRoot);
  } catch {
    // The workspace folder is gone: no instructions to load (tools report the missing folder themselves).
    return NO_INSTRUCTIONS;
  }
  const candidates: Candidate[] = [];
  if (input.userDir) candidates.push({ dir: input.userDir, scope: "user", label: (name) => join(input.userDir ?? "", name) });
  candidates.push({ dir: root, scope: "workspace", label: (name) => name });
  for (const dir of nestedDirs(root, input.touched)) {
    candidates.push({ dir, scope: "nested", label: (name) => relative(root, join(dir, name)).split(sep).join("/") });
  }

  const files: InstructionFile[] = [];
  const sections: string[] = [];
  let budget = INSTRUCTIONS_MAX_BYTES;
  for (const c of candidates) {
    if (budget <= 0) break;
    if (c.scope === "nested") {
      let real: string | null;
      try {
        real = realpathSync(c.dir);
      } catch {
        // Vanished folder: skipped below like one outside the workspace.
        real = null;
      }
      if (!real || !(real === root || real.startsWith(root + sep))) continue;
    }
    const found = firstExisting(c.dir, Math.min(INSTRUCTION_FILE_MAX_BYTES, budget));
    if (!found || found.text.trim() === "") continue;
    const path = c.label(found.name);
    const shown = Buffer.byteLength(found.text);
    budget -= shown;
    files.push({ path, scope: c.scope, bytes: found.bytes, truncated: found.truncated });
    const note = found.truncated ? `\n[Cut: only the first ${shown} of ${found.bytes} bytes of ${path} are included.]` : "";
    sections.push(`<instructions path="${path}" scope="${c.scope}">\n${found.text.trimEnd()}${note}\n</instructions>`);
  }
  if (sections.length === 0) return NO_INSTRUCTIONS;
  const text = [
    "Project instructions (AGENTS.md files). Follow them; when two disagree, the more specific folder's file wins, and the user's messages win over all of them:",
    "",
    ...sections,
  ].join("\n");
  return { files, text };
}
