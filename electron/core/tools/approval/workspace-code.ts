/**
 * What a command trusts, in words for the approval card: `npm test` runs a
 * script from package.json, `make` the Makefile's recipes, `git commit` the
 * repository's hooks. Approving such a command (or a rule for it) approves
 * that code too, whatever it has become since it was last read.
 */
import { allCommands } from "../shell-parse";
import { parseWords } from "./command-words";
import { programSpec } from "./programs";

export function workspaceCodeNotes(command: string): string[] {
  const notes = new Set<string>();
  for (const words of allCommands(command)) {
    const spec = programSpec(words[0] ?? "");
    if (!spec) continue;
    const parsed = parseWords(words.slice(1), spec);
    const runs = parsed.ok ? (parsed.value.spec.runsWorkspaceCode ?? spec.runsWorkspaceCode) : spec.runsWorkspaceCode;
    if (!runs) continue;
    const name = parsed.ok ? [words[0], ...parsed.value.path].join(" ") : words[0];
    notes.add(`${name} ${runs}`);
  }
  return [...notes];
}
