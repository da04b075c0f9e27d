/**
 * Skills as other agents read them: a folder with a `SKILL.md` (YAML front
 * matter with `name` and `description`, then the instructions) and any files
 * beside it. Found in the workspace's `.agents/skills/` and `.claude/skills/`
 * and in the user's config folder (`skills/`), first of a name wins in that
 * order. The model sees each skill's name and description in the system
 * prompt and loads the body, or one of its files, with the `skill` tool.
 *
 * Every file goes through the prompt-file reader (prompt-files/reader.ts):
 * the read tool's checks, rooted at the workspace or the config folder, so a
 * SKILL.md that is a link out of the workspace is refused and listed as left
 * out; files are capped. A skill's file must stay inside its skill's folder.
 * See docs/conventions.md#skills.
 *
 * Contract: nothing here throws.
 */
import { posix } from "node:path";
import { parse as parseYaml } from "yaml";
import type { SkippedPromptFile } from "../../../shared/api";
import { PromptFileReader, promptText } from "../prompt-files/reader";

export const SKILL_FILE = "SKILL.md";
export const SKILL_MAX_BYTES = 64 * 1024;
export const SKILL_FILE_MAX_BYTES = 256 * 1024;
/** Skills listed in the prompt at most (the rest are named as left out). */
export const MAX_SKILLS = 64;
const MAX_LISTED_FILES = 50;
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

export const SKILL_FOLDERS = [
  { scope: "workspace", dir: ".agents/skills" },
  { scope: "workspace", dir: ".claude/skills" },
  { scope: "user", dir: "skills" },
] as const;

export interface Skill {
  name: string;
  description: string;
  scope: "workspace" | "user";
  /** Folder of the skill, relative to its reader's root. */
  dir: string;
  /** SKILL.md as shown (workspace-relative, or absolute under the config folder). */
  path: string;
}

export interface FoundSkills {
  skills: Skill[];
  skipped: SkippedPromptFile[];
}

export interface SkillRoots {
  workspaceRoot: string;
  userDir: string | null;
}

interface Readers {
  workspace: PromptFileReader | null;
  user: PromptFileReader | null;
}

async function readers(roots: SkillRoots): Promise<Readers> {
  return {
    workspace: await PromptFileReader.open(roots.workspaceRoot, "workspace"),
    user: roots.userDir ? await PromptFileReader.open(roots.userDir, "user") : null,
  };
}

/** The front matter and the body; a file without front matter has none. */
export function splitFrontMatter(text: string): { meta: Record<string, unknown>; body: string } | { error: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { error: "it has no front matter (--- name: … description: … ---)" };
  let meta: unknown;
  try {
    meta = parseYaml(m[1], { maxAliasCount: 10 });
  } catch (err) {
    return { error: `its front matter is not valid YAML (${err instanceof Error ? err.message.split("\n")[0] : "?"})` };
  }
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return { error: "its front matter is not a mapping" };
  return { meta: meta as Record<string, unknown>, body: text.slice(m[0].length) };
}

export async function discoverSkills(roots: SkillRoots): Promise<FoundSkills> {
  return discoverWith(await readers(roots));
}

async function discoverWith(r: Readers): Promise<FoundSkills> {
  const skills: Skill[] = [];
  const skipped: SkippedPromptFile[] = [];
  for (const folder of SKILL_FOLDERS) {
    const reader = folder.scope === "workspace" ? r.workspace : r.user;
    if (!reader) continue;
    const entries = (await reader.list(folder.dir)).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      // A skill folder that is itself a link is followed only inside the root (the reader checks the SKILL.md path).
      if (entry.kind !== "directory" && entry.kind !== "symlink") continue;
      const dir = `${folder.dir}/${entry.name}`;
      const read = await reader.read(`${dir}/${SKILL_FILE}`, { maxBytes: SKILL_MAX_BYTES, over: "refuse" });
      if (!read.ok) {
        if (!read.missing) skipped.push({ path: read.path, reason: read.reason });
        continue;
      }
      const split = splitFrontMatter(promptText(read.file));
      const path = read.file.asked;
      if ("error" in split) {
        skipped.push({ path, reason: split.error });
        continue;
      }
      const name = typeof split.meta.name === "string" ? split.meta.name.trim() : entry.name;
      const description = typeof split.meta.description === "string" ? split.meta.description.trim().replace(/\s+/g, " ") : "";
      if (!NAME.test(name)) {
        skipped.push({ path, reason: `its name \`${name.slice(0, 80)}\` is not letters, digits, - and _ (at most 64)` });
        continue;
      }
      if (description === "") {
        skipped.push({ path, reason: "it has no description" });
        continue;
      }
      if (skills.some((s) => s.name === name)) continue;
      if (skills.length >= MAX_SKILLS) {
        skipped.push({ path, reason: `more than ${MAX_SKILLS} skills` });
        continue;
      }
      skills.push({ name, description: description.slice(0, 1024), scope: folder.scope, dir, path });
    }
  }
  return { skills, skipped };
}

/** The system prompt's skills section, "" without skills. */
export function skillsSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  return [
    "Skills: instructions for particular tasks, loaded on demand. When a task matches a skill's description, call the `skill` tool with its name before you start, and follow what it says.",
    ...skills.map((s) => `- ${s.name}: ${s.description}`),
  ].join("\n");
}

export type SkillLoad = { ok: true; text: string; path: string; bytes: number } | { ok: false; reason: string; missing?: boolean };

/** A skill's body with the list of its files, or one of its files (`file`, relative to the skill's folder). */
export async function loadSkill(roots: SkillRoots, name: string, file?: string): Promise<SkillLoad> {
  const r = await readers(roots);
  const { skills, skipped } = await discoverWith(r);
  const skill = skills.find((s) => s.name === name);
  if (!skill) {
    const left = skipped.find((s) => s.path.split("/").slice(-2, -1)[0] === name);
    if (left) return { ok: false, reason: `the skill ${name} is left out: ${left.reason}` };
    return {
      ok: false,
      missing: true,
      reason: `there is no skill named ${name}; skills: ${skills.map((s) => s.name).join(", ") || "none"}`,
    };
  }
  const reader = skill.scope === "workspace" ? r.workspace : r.user;
  if (!reader) return { ok: false, reason: "the skill's folder is gone" };
  if (file !== undefined) {
    const rel = posix.normalize(file.replace(/\\/g, "/"));
    if (rel.startsWith("../") || rel === ".." || posix.isAbsolute(rel) || rel.includes("\0"))
      return { ok: false, reason: `${file} is outside the skill's folder` };
    const read = await reader.read(`${skill.dir}/${rel}`, { maxBytes: SKILL_FILE_MAX_BYTES, over: "refuse" });
    if (!read.ok) return { ok: false, missing: read.missing, reason: `${read.path}: ${read.reason}` };
    if (read.file.data.includes(0)) return { ok: false, reason: `${read.file.path} is a binary file` };
    return { ok: true, text: promptText(read.file), path: read.file.path, bytes: read.file.bytes };
  }
  const read = await reader.read(`${skill.dir}/${SKILL_FILE}`, { maxBytes: SKILL_MAX_BYTES, over: "refuse" });
  if (!read.ok) return { ok: false, reason: `${read.path}: ${read.reason}` };
  const split = splitFrontMatter(promptText(read.file));
  const body = "error" in split ? "" : split.body.trim();
  const files = (await listFiles(reader, skill.dir)).filter((f) => f !== SKILL_FILE);
  const listing =
    files.length === 0
      ? ""
      : `\n\nFiles of this skill (load one with the skill tool and \`file\`):\n${files.map((f) => `- ${f}`).join("\n")}`;
  return {
    ok: true,
    text: `<skill name="${skill.name}" path="${read.file.path}">\n${body}\n</skill>${listing}`,
    path: read.file.path,
    bytes: read.file.bytes,
  };
}

/** Files under a skill's folder, relative to it, links not followed, at most MAX_LISTED_FILES. */
async function listFiles(reader: PromptFileReader, dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string, depth: number) => {
    for (const e of (await reader.list(rel ? `${dir}/${rel}` : dir)).sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_LISTED_FILES) return;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.kind === "file") out.push(child);
      else if (e.kind === "directory" && depth < 3) await walk(child, depth + 1);
    }
  };
  await walk("", 0);
  return out;
}
