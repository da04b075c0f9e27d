/**
 * Prompt commands for the composer's `/` menu: the built-ins, then the user's
 * templates from `.agents/commands/*.md` in the workspace and in the user's
 * config folder (a workspace template wins over a user one of the same name),
 * as Claude Code's and opencode's commands work. A template's description is
 * its frontmatter `description:` or else its first line; `$ARGUMENTS` in it is
 * replaced by what follows the command (shared/mentions.ts expandTemplate).
 *
 * Templates are read through the prompt-file reader (prompt-files/reader.ts),
 * rooted at the workspace or the user's config folder: one that is a link
 * leading out, a FIFO or over the size limit is not offered, and sending one
 * (`readPromptTemplate`, chat.send's `command`) reads it again the same way.
 *
 * Contract: never throws; unusable files are skipped.
 */
import type { PromptCommand } from "../../../shared/api";
import { PromptFileReader, promptText, type PromptFileRead } from "../prompt-files/reader";

export const COMMANDS_DIR = ".agents/commands";
/** The user's templates: `commands/` in the config folder. */
const USER_COMMANDS_DIR = "commands";
const TEMPLATE_MAX_BYTES = 64 * 1024;
const COMMAND_NAME = /^[\w.:-]{1,64}$/;

export const BUILTIN_COMMANDS: readonly PromptCommand[] = [
  { name: "new", description: "Start a new session in this workspace", source: "builtin" },
  { name: "model", description: "Switch the model (opens the model menu)", source: "builtin" },
  { name: "compact", description: "Summarise the conversation so far to free context", source: "builtin" },
  { name: "ask", description: "Ask mode: the agent may only read (no write, edit, bash or side-effect tools)", source: "builtin" },
  { name: "agent", description: "Leave Ask mode: the agent may change files again (with approval)", source: "builtin" },
];

/** Splits `---` frontmatter (simple `key: value` lines) from the body. */
export function parseTemplate(text: string): { description: string; body: string } {
  let body = text.replace(/^\uFEFF/, "");
  let description = "";
  const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(body);
  if (fm) {
    body = body.slice(fm[0].length);
    for (const line of fm[1].split(/\r?\n/)) {
      const m = /^description:\s*(.*)$/.exec(line);
      if (m) description = m[1].trim().replace(/^["']|["']$/g, "");
    }
  }
  if (!description) {
    const first = body.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
    description = first.replace(/^#+\s*/, "").trim();
  }
  return { description: description.slice(0, 200), body: body.trim() };
}

async function templatesIn(reader: PromptFileReader | null, dir: string, source: "workspace" | "user"): Promise<PromptCommand[]> {
  if (!reader) return [];
  // Links are resolved by the reader (followed only while they stay inside its root); FIFOs and other files are never opened.
  const names = (await reader.list(dir))
    .filter((e) => (e.kind === "file" || e.kind === "symlink") && e.name.endsWith(".md"))
    .map((e) => e.name)
    .sort();
  const out: PromptCommand[] = [];
  for (const name of names) {
    const command = name.slice(0, -3);
    if (!COMMAND_NAME.test(command)) continue;
    const read = await reader.read(`${dir}/${name}`, { maxBytes: TEMPLATE_MAX_BYTES, over: "refuse" });
    if (!read.ok) continue;
    const { description, body } = parseTemplate(promptText(read.file));
    out.push({ name: command, description: description || command, source, template: body, file: read.file.path });
  }
  return out;
}

function openReaders(workspaceRoot: string, userDir: string): Promise<[PromptFileReader | null, PromptFileReader | null]> {
  return Promise.all([PromptFileReader.open(workspaceRoot, "workspace"), PromptFileReader.open(userDir, "user")]);
}

export async function listPromptCommands(workspaceRoot: string, userDir: string): Promise<PromptCommand[]> {
  const [workspaceReader, userReader] = await openReaders(workspaceRoot, userDir);
  const [user, workspace] = await Promise.all([
    templatesIn(userReader, USER_COMMANDS_DIR, "user"),
    templatesIn(workspaceReader, COMMANDS_DIR, "workspace"),
  ]);
  const byName = new Map<string, PromptCommand>();
  for (const c of [...user, ...workspace]) byName.set(c.name, c);
  // Built-ins keep their names: a template cannot shadow /ask.
  for (const b of BUILTIN_COMMANDS) byName.delete(b.name);
  return [...BUILTIN_COMMANDS, ...[...byName.values()].sort((a, b) => a.name.localeCompare(b.name))];
}

export type TemplateRead = { ok: true; template: string; path: string; bytes: number } | { ok: false; message: string };

/**
 * One template by command name, read now through the same checks: the
 * workspace's, else the user's. A workspace template that exists but is
 * refused is not replaced by the user's: the refusal is reported.
 */
export async function readPromptTemplate(workspaceRoot: string, userDir: string, name: string): Promise<TemplateRead> {
  if (!COMMAND_NAME.test(name) || BUILTIN_COMMANDS.some((b) => b.name === name))
    return { ok: false, message: `/${name} is not a prompt template` };
  const [workspaceReader, userReader] = await openReaders(workspaceRoot, userDir);
  const limit = { maxBytes: TEMPLATE_MAX_BYTES, over: "refuse" } as const;
  let read: PromptFileRead | null = null;
  for (const [reader, dir] of [
    [workspaceReader, COMMANDS_DIR],
    [userReader, USER_COMMANDS_DIR],
  ] as const) {
    if (!reader) continue;
    read = await reader.read(`${dir}/${name}.md`, limit);
    if (read.ok || !read.missing) break;
  }
  if (!read || (!read.ok && read.missing)) return { ok: false, message: `no prompt template /${name}` };
  if (!read.ok) return { ok: false, message: `/${name} (${read.path}) was not used: ${read.reason}` };
  const { body } = parseTemplate(promptText(read.file));
  if (body === "") return { ok: false, message: `/${name} (${read.file.path}) is empty` };
  return { ok: true, template: body, path: read.file.path, bytes: read.file.bytes };
}
