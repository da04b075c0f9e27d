/**
 * Where the words of a command line point, resolved before the policy
 * decides: each word (and each option value) taken as a path from each
 * folder the command may run in, its real path checked against the
 * workspace's (symbolic links followed; a path that does not exist yet is
 * judged by its deepest existing folder, and a dangling link is outside). The policy itself stays pure: it
 * gets the answers (rule-match.ts, `Place.inside`).
 */
import { lstat, realpath } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { plainCommands } from "../shell-parse";
import { commandFolders } from "./rule-match";

/** A line with more words than this has the rest judged outside. */
const MAX_PATHS = 512;

/** Every absolute path the policy may ask about for this line. */
export function candidatePaths(command: string, cwd: string): string[] {
  const plain = plainCommands(command);
  if (!plain.ok) return [];
  const folders = commandFolders(plain.commands, cwd);
  const out = new Set<string>();
  plain.commands.forEach((words, i) => {
    for (const word of words.slice(1)) {
      const parts = [word];
      const eq = word.indexOf("=");
      if (eq !== -1) parts.push(word.slice(eq + 1));
      if (/^-[^-]/.test(word) && word.length > 2) parts.push(word.slice(2));
      for (const part of parts) {
        if (part === "" || out.size >= MAX_PATHS) continue;
        if (isAbsolute(part)) out.add(resolve(part));
        else for (const folder of folders[i]) out.add(resolve(folder, part));
      }
    }
  });
  return [...out];
}

/** The paths that are inside the workspace once links are followed. */
export async function pathsInside(root: string, paths: readonly string[]): Promise<Set<string>> {
  const realRoot = await realpath(root).catch(() => resolve(root));
  const within = (p: string) => {
    const rel = relative(realRoot, p);
    return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
  };
  const inside = new Set<string>();
  await Promise.all(
    paths.map(async (p) => {
      if (!within(p)) return;
      const real = await realOf(p);
      if (real !== null && within(real)) inside.add(p);
    }),
  );
  return inside;
}

/** The real path, or that of its deepest existing folder with the rest appended. */
async function realOf(path: string): Promise<string | null> {
  let head = path;
  let tail = "";
  for (let guard = 0; guard < 256; guard++) {
    try {
      const real = await realpath(head);
      return tail === "" ? real : `${real}${sep}${tail}`;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT" && (e as NodeJS.ErrnoException).code !== "ENOTDIR") return null;
      // A dangling link: writing through it creates its target, wherever that is.
      if (
        await lstat(head).then(
          () => true,
          () => false,
        )
      )
        return null;
      const parent = dirname(head);
      if (parent === head) return null;
      tail =
        tail === "" ? head.slice(parent.length).replace(/^[/\\]/, "") : `${head.slice(parent.length).replace(/^[/\\]/, "")}${sep}${tail}`;
      head = parent;
    }
  }
  return null;
}
