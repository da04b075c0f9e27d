/**
 * Prompt commands for the composer's `/` menu: the built-ins, then the user's
 * templates from `.agents/commands/*.md` in the workspace and in the user's
 * config folder (a workspace template wins over a user one of the same name),
 * as Claude Code's and opencode's commands work. A template's description is
 * its frontmatter `description:` or else its first line; `$ARGUMENTS` in it is
 * replaced by what follows the command (shared/mentions.ts expandTemplate).
 *
 * Contract: never throws; unreadable files are skipped.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { PromptCommand } from "../../../shared/api";

export const COMMANDS_DIR = join(".agents", "commands");
const TEMPLATE_MAX_BYTES = 64 * 1024;

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

async function templatesIn(dir: string, source: "workspace" | "user"): Promise<PromptCommand[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".md")).sort();
  } catch {
    // No such folder (the usual case) or unreadable: it contributes no commands.
    return [];
  }
  const out: PromptCommand[] = [];
  for (const name of names) {
    const command = name.slice(0, -3);
    if (!/^[\w.:-]{1,64}$/.test(command)) continue;
    try {
      const text = await readFile(join(dir, name), "utf8");
      if (Buffer.byteLength(text) > TEMPLATE_MAX_BYTES) continue;
      const { description, body } = parseTemplate(text);
      out.push({ name: command, description: description || command, source, template: body, file: join(dir, name) });
    } catch {
      // Unreadable: skipped.
    }
  }
  return out;
}

export async function listPromptCommands(workspaceRoot: string, userDir: string): Promise<PromptCommand[]> {
  const [user, workspace] = await Promise.all([
    templatesIn(join(userDir, "commands"), "user"),
    templatesIn(join(workspaceRoot, COMMANDS_DIR), "workspace"),
  ]);
  const byName = new Map<string, PromptCommand>();
  for (const c of [...user, ...workspace]) byName.set(c.name, c);
  // Built-ins keep their names: a template cannot shadow /ask.
  for (const b of BUILTIN_COMMANDS) byName.delete(b.name);
  return [...BUILTIN_COMMANDS, ...[...byName.values()].sort((a, b) => a.name.localeCompare(b.name))];
}
