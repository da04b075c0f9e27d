/**
 * What one approval rule covers. See docs/approvals.md#what-a-rule-covers.
 *
 * Bash allow rules:
 * - without a `*` a rule covers exactly its words (`npm test`);
 * - with a `*` the command is read with its program's table
 *   (programs/*.ts) and the rule covers it only when the sub-commands are
 *   the rule's, every option is one the rule spells (or one the table marks
 *   harmless), and every word a `*` stands for is an operand of a kind a
 *   wildcard may cover: a path that resolves inside the workspace, text, a
 *   name — never code (a sed script is checked), a command, a `file:` URL;
 * - a program without a table gets exact rules only, and programs that run
 *   other commands (launchers.ts) get none.
 *
 * Bash deny rules match more widely, on every command the line may run
 * (`allCommands`), with the program's own options before its sub-command
 * skipped (`git -C . push` is `git push`).
 *
 * Path rules (write, edit) are workspace-relative globs (`src/**`, `*.md`).
 */
import { isAbsolute, resolve } from "node:path";
import { globMatcher } from "../glob-match";
import { parseWords, type ParsedOption } from "./command-words";
import { LAUNCHERS } from "./launchers";
import type { OptionSpec, ProgramSpec, WordKind } from "./program-spec";
import { programSpec } from "./programs";

/** Where a command runs, for the words a wildcard stands for. */
export interface Place {
  /** The folders the command may run in (more than one after a `cd` in a pipeline or list). */
  cwds: readonly string[];
  /** Whether an absolute path is inside the workspace once links are followed; a path nobody resolved is outside. */
  inside(path: string): boolean;
}

export function ruleWords(pattern: string): string[] {
  return pattern.trim().split(/\s+/).filter(Boolean);
}

/** Why a bash allow rule is not usable, or null. */
export function invalidBashAllow(pattern: string): string | null {
  const words = ruleWords(pattern);
  if (words.length === 0) return "the rule is empty";
  if (words[0].includes("*")) return "a rule must name its program (no * in the first word)";
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(pattern)) return "the rule has control characters";
  if (LAUNCHERS.has(words[0])) return `${words[0]} runs other commands: no rule can allow it, each call is asked`;
  if (!words.some((w) => w.includes("*"))) return null;
  const spec = programSpec(words[0]);
  if (!spec)
    return `a rule with * needs a program whose options the app knows, and ${words[0]} is not one of them; save the exact command instead`;
  const parsed = parseWords(words.slice(1), spec);
  if (!parsed.ok) {
    if (spec.subcommands && parsed.reason.startsWith("unknown sub-command *"))
      return `name the ${words[0]} sub-command (\`${words[0]} status *\`): * cannot stand for sub-commands, some of which run programs`;
    return `the rule does not read as ${words[0]} reads its words: ${parsed.reason}`;
  }
  return null;
}

/** True when the allow rule covers this one command (its literal words), run from `at`. */
export function bashAllowCovers(pattern: string, command: readonly string[], at?: Place): boolean {
  const rule = ruleWords(pattern);
  if (command.length === 0 || rule[0] !== command[0] || invalidBashAllow(pattern)) return false;
  if (!rule.some((w) => w.includes("*"))) return rule.length === command.length && rule.every((w, i) => w === command[i]);
  const spec = programSpec(rule[0]);
  if (!spec || !at) return false;
  const r = parseWords(rule.slice(1), spec);
  const c = parseWords(command.slice(1), spec);
  if (!r.ok || !c.ok || r.value.path.join(" ") !== c.value.path.join(" ")) return false;
  const allows = (kind: WordKind, word: string) => kindAllows(kind, word, c.value.spec, at);

  const used = new Set<ParsedOption>();
  for (const option of c.value.options) {
    const spelled = r.value.options.find(
      (o) => o.level === option.level && o.canonical === option.canonical && valuesMatch(o, option, allows),
    );
    if (spelled) {
      used.add(spelled);
      continue;
    }
    // Not spelled by the rule: covered only when the table marks it harmless, and its values are.
    if (!option.spec.free || !option.values.every((v, i) => allows(valueKind(option.spec, i), v))) return false;
  }
  // An option the rule spells must be there: `rsync -n *` (a dry run) never covers `rsync a b`.
  if (r.value.options.some((o) => !used.has(o))) return false;

  const want = r.value.operands.map((o) => o.word);
  const open = want[want.length - 1] === "*";
  const fixed = open ? want.slice(0, -1) : want;
  const got = c.value.operands;
  if (open ? got.length < fixed.length : got.length !== fixed.length) return false;
  for (let i = 0; i < got.length; i++) {
    const w = fixed[i];
    if (w !== undefined && !w.includes("*")) {
      if (w !== got[i].word) return false;
      continue;
    }
    if (w !== undefined && !wordPattern(w).test(got[i].word)) return false;
    if (!allows(got[i].kind, got[i].word)) return false;
  }
  return true;
}

function valueKind(spec: OptionSpec, index: number): WordKind {
  return spec.arg === "two" && index === 0 ? (spec.firstValue ?? "text") : (spec.value ?? "text");
}

function valuesMatch(rule: ParsedOption, command: ParsedOption, allows: (kind: WordKind, word: string) => boolean): boolean {
  if (rule.values.length !== command.values.length) return false;
  return rule.values.every((w, i) => {
    const v = command.values[i];
    if (!w.includes("*")) return w === v;
    return wordPattern(w).test(v) && allows(valueKind(command.spec, i), v);
  });
}

/** Whether a word a wildcard stands for may be this word (program-spec.ts, WordKind). */
function kindAllows(kind: WordKind, word: string, spec: ProgramSpec, at: Place): boolean {
  switch (kind) {
    case "text":
      return true;
    case "number":
      return /^[+-]?[0-9][0-9.]*[A-Za-z%]*$/.test(word);
    case "path":
      // `host:file` is a remote file to tar and scp; `-` is stdin.
      return word === "-" || (!word.includes(":") && insideEverywhere(word, at));
    case "name":
      return !/[=\s]/.test(word) && !word.startsWith("-") && insideEverywhere(word, at);
    case "url":
      if (/^https?:\/\/\S+$/i.test(word)) return true;
      if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(word) || word.includes("::")) return false;
      return !/[=\s]/.test(word) && !word.startsWith("-") && insideEverywhere(word, at);
    case "code":
      return spec.codeCheck?.(word) ?? false;
    case "command":
      return false;
  }
}

function insideEverywhere(word: string, at: Place): boolean {
  if (isAbsolute(word)) return at.inside(resolve(word));
  return at.cwds.length > 0 && at.cwds.every((cwd) => at.inside(resolve(cwd, word)));
}

function wordPattern(word: string): RegExp {
  const source = word
    .split("*")
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "s");
}

/**
 * The folders each command of a line may run in: a `cd` moves the ones after
 * it, but in a pipeline or a list it may not have run, so both the folder
 * before and after count (a path must be inside from every one of them).
 * A `cd` without a folder, `pushd` and `popd` leave the folder unknown.
 */
export function commandFolders(commands: readonly (readonly string[])[], cwd: string, home: string | null = null): string[][] {
  let cwds = [cwd];
  const out: string[][] = [];
  for (const words of commands) {
    out.push(cwds);
    if (words[0] === "pushd" || words[0] === "popd") cwds = [];
    if (words[0] !== "cd") continue;
    const target = words.slice(1).find((w) => !w.startsWith("-"));
    const next = target === undefined ? (home ? [home] : []) : cwds.map((c) => resolve(c, target));
    cwds = [...new Set([...cwds, ...next])].slice(0, 8);
    if (target === undefined && !home) cwds = [];
  }
  return out;
}

/** A deny rule matches a command when its words start the command's words (`*` is a wildcard). */
export function bashDenyCovers(pattern: string, command: readonly string[]): boolean {
  const p = ruleWords(pattern).join(" ");
  if (p === "") return false;
  const source = p
    .split("*")
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const re = new RegExp(`^${source}(?: .*)?$`, "s");
  const bare = withoutProgramOptions(command);
  return re.test(command.join(" ")) || (bare !== null && re.test(bare.join(" ")));
}

/**
 * The command without its program's options before the sub-command
 * (`git -C . --no-pager push` → `git push`, `npm --registry x publish` →
 * `npm publish`), for deny rules. Best effort by design: an option the table
 * does not know is taken to have no value.
 */
export function withoutProgramOptions(command: readonly string[]): string[] | null {
  const spec = programSpec(command[0] ?? "");
  if (!spec?.subcommands) return null;
  let i = 1;
  while (i < command.length && command[i].startsWith("-") && command[i] !== "--") {
    const w = command[i];
    let takes: OptionSpec | undefined;
    if (w.startsWith("--")) {
      const o = spec.options.find((x) => x.names.includes(w.split("=")[0]));
      if (o?.arg && o.arg !== "optional" && !w.includes("=")) takes = o;
    } else {
      // -C. takes its value in the same word; -C takes the next one.
      for (let j = 1; j < w.length; j++) {
        const o = spec.options.find((x) => x.names.includes(`-${w[j]}`));
        if (!o?.arg) continue;
        if (o.arg !== "optional" && j === w.length - 1) takes = o;
        break;
      }
    }
    i += takes ? (takes.arg === "two" ? 3 : 2) : 1;
  }
  if (command[i] === "--") i++;
  return i > 1 && i < command.length ? [command[0], ...command.slice(i)] : null;
}

/**
 * Allow globs match the whole workspace-relative path (`a.ts` is the file at
 * the root, never every a.ts); deny globs without "/" match a name at any
 * depth (`.env*`), as in .gitignore.
 */
export function pathCovers(glob: string, path: string, kind: "allow" | "deny"): boolean {
  const g = glob.trim();
  if (g === "") return false;
  return globMatcher(kind === "allow" && !g.startsWith("/") ? `/${g}` : g)(path);
}
