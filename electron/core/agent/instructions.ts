/**
 * Project instructions for the system prompt, as Codex and Claude Code read
 * them: the user's own `AGENTS.md` (config folder), the workspace root's
 * `AGENTS.md` (or `CLAUDE.md` when there is none), and the ones in the folders
 * of files the agent has touched, between the root and the file (more
 * specific folders come later and take precedence). Each file is capped, with
 * a visible note when cut; the whole section is capped too.
 *
 * Every file is read through the prompt-file reader (prompt-files/reader.ts):
 * the read tool's checks, rooted at the workspace, or at the user's config
 * folder for the user's file. A file refused there (a link leading out, a
 * FIFO…) is left out and listed in `skipped` with the reason; the next name
 * (CLAUDE.md) is tried as if it were absent.
 *
 * Contract: never throws; the turn goes on without what cannot be read.
 */
import { dirname, join, relative, sep } from "node:path";
import type { InstructionFile, SkillInfo, SkippedPromptFile } from "../../../shared/api";
import type { StoredEntry } from "../../../shared/protocol";
import { PromptFileReader, promptText } from "../prompt-files/reader";

export const INSTRUCTION_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;
/** Per file. */
export const INSTRUCTION_FILE_MAX_BYTES = 32 * 1024;
/** For all of them together. */
export const INSTRUCTIONS_MAX_BYTES = 96 * 1024;

export interface LoadedInstructions {
  files: InstructionFile[];
  /** Files found but left out, with the reason. */
  skipped: SkippedPromptFile[];
  /** The system prompt's section, "" when there is none. */
  text: string;
  /** The skills listed in `text` (docs/conventions.md#skills). */
  skills?: SkillInfo[];
}

export const NO_INSTRUCTIONS: LoadedInstructions = { files: [], skipped: [], text: "" };

interface Candidate {
  reader: PromptFileReader;
  /** Folder relative to the reader's root, "" for the root itself. */
  dir: string;
  scope: InstructionFile["scope"];
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

/** Folders (root-relative, `/`-separated) between the root (exclusive) and each touched file's folder (inclusive), shallow first. */
function nestedDirs(root: string, touched: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const rel of touched) {
    const abs = join(root, rel);
    const r = relative(root, abs);
    if (r === "" || r.startsWith("..") || r.startsWith(sep)) continue;
    let dir = dirname(abs);
    const chain: string[] = [];
    while (dir !== root && dir.startsWith(root + sep)) {
      chain.unshift(relative(root, dir).split(sep).join("/"));
      dir = dirname(dir);
    }
    for (const d of chain) dirs.add(d);
  }
  return [...dirs].sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b));
}

export interface InstructionsInput {
  workspaceRoot: string;
  userDir: string | null;
  touched: readonly string[];
}

export async function loadInstructions(input: InstructionsInput): Promise<LoadedInstructions> {
  const workspace = await PromptFileReader.open(input.workspaceRoot, "workspace");
  // The workspace folder is gone: no instructions to load (tools report the missing folder themselves).
  if (!workspace) return NO_INSTRUCTIONS;
  const user = input.userDir ? await PromptFileReader.open(input.userDir, "user") : null;
  const candidates: Candidate[] = [];
  if (user) candidates.push({ reader: user, dir: "", scope: "user" });
  candidates.push({ reader: workspace, dir: "", scope: "workspace" });
  for (const dir of nestedDirs(workspace.root, input.touched)) candidates.push({ reader: workspace, dir, scope: "nested" });

  const files: InstructionFile[] = [];
  const skipped: SkippedPromptFile[] = [];
  const sections: string[] = [];
  let budget = INSTRUCTIONS_MAX_BYTES;
  for (const c of candidates) {
    if (budget <= 0) break;
    for (const name of INSTRUCTION_FILE_NAMES) {
      const read = await c.reader.read(c.dir ? `${c.dir}/${name}` : name, {
        maxBytes: Math.min(INSTRUCTION_FILE_MAX_BYTES, budget),
        over: "cut",
      });
      if (!read.ok) {
        if (!read.missing) skipped.push({ path: read.path, reason: read.reason });
        continue;
      }
      // Named as found (AGENTS.md), also when it is a link to another file inside the root.
      const { asked: path, bytes, truncated } = read.file;
      const text = promptText(read.file);
      if (text.trim() === "") break;
      const shown = Buffer.byteLength(text);
      budget -= shown;
      files.push({ path, scope: c.scope, bytes, truncated });
      const note = truncated ? `\n[Cut: only the first ${shown} of ${bytes} bytes of ${path} are included.]` : "";
      sections.push(`<instructions path="${path}" scope="${c.scope}">\n${text.trimEnd()}${note}\n</instructions>`);
      break;
    }
  }
  if (sections.length === 0) return { ...NO_INSTRUCTIONS, skipped };
  const text = [
    "Project instructions (AGENTS.md files). Follow them; when two disagree, the more specific folder's file wins, and the user's messages win over all of them:",
    "",
    ...sections,
  ].join("\n");
  return { files, skipped, text };
}
