/**
 * What one approval rule covers. See docs/approvals.md.
 *
 * Bash allow rules are words: `npm test` covers exactly `npm test`; a last
 * word `*` covers any further arguments (`npm test *`); a `*` inside a word
 * covers any text within that one argument. The program word is compared
 * literally (`ls` never covers `./ls` or `/tmp/x/ls`), and a wildcard never
 * covers the arguments that make a program run another one (`xargs *`,
 * `find * -exec …`, `git -c …`): those need a rule that spells them out.
 *
 * Bash deny rules match more widely, on every command the line may run
 * (`allCommands`): a deny rule `rm` catches `FOO=1 /bin/rm -rf x`,
 * `env rm`, `sh -c 'rm x'`.
 *
 * Path rules (write, edit) are workspace-relative globs (`src/**`, `*.md`).
 */
import { globMatcher } from "./glob-match";

/** Programs whose arguments are another command: no wildcard covers them. */
const LAUNCHERS = new Set([
  "env",
  "command",
  "builtin",
  "exec",
  "eval",
  "source",
  ".",
  "xargs",
  "sudo",
  "doas",
  "su",
  "nohup",
  "nice",
  "ionice",
  "time",
  "timeout",
  "stdbuf",
  "setsid",
  "chrt",
  "taskset",
  "unbuffer",
  "chroot",
  "flock",
  "strace",
  "ltrace",
  "watch",
  "parallel",
  "busybox",
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "mksh",
  "ash",
  "fish",
  "script",
  "trap",
  "alias",
]);

/** Arguments with which an otherwise harmless program runs code or writes files of its choosing. */
const RISKY_ARGS: Record<string, RegExp> = {
  find: /^-(exec|execdir|ok|okdir|delete|fprint0?|fprintf|fls)$/,
  git: /^(-c|--config-env(=.*)?|--exec-path(=.*)?|--upload-pack(=.*)?|--receive-pack(=.*)?|-u)$/,
  rg: /^--pre(=.*)?$/,
  sed: /^(-i.*|--in-place(=.*)?)$/,
  tar: /^(--to-command(=.*)?|--use-compress-program(=.*)?|-I|--checkpoint-action(=.*)?)$/,
};

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
  return null;
}

/** True when the allow rule covers this one command (its literal words). */
export function bashAllowCovers(pattern: string, command: readonly string[]): boolean {
  const rule = ruleWords(pattern);
  if (invalidBashAllow(pattern) || command.length === 0 || rule[0] !== command[0]) return false;
  const program = command[0];
  const launcher = LAUNCHERS.has(program);
  const risky = RISKY_ARGS[program];
  const open = rule[rule.length - 1] === "*";
  // `sh *` must not cover `cat x | sh` either: a launcher reads its program from stdin or its arguments.
  if (launcher && (open || rule.some((w) => w.includes("*")))) return false;
  const fixed = open ? rule.slice(0, -1) : rule;
  if (open ? command.length < fixed.length : command.length !== fixed.length) return false;
  for (let i = 1; i < fixed.length; i++) {
    const want = fixed[i];
    const got = command[i];
    if (!want.includes("*")) {
      if (want !== got) return false;
      continue;
    }
    if (launcher || risky?.test(got) || !wordPattern(want).test(got)) return false;
  }
  if (open && fixed.length < command.length) {
    if (launcher) return false;
    if (risky && command.slice(fixed.length).some((w) => risky.test(w))) return false;
  }
  return true;
}

function wordPattern(word: string): RegExp {
  const source = word
    .split("*")
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "s");
}

/** A deny rule matches a command when its words start the command's words (`*` is a wildcard). */
export function bashDenyCovers(pattern: string, command: readonly string[]): boolean {
  const p = ruleWords(pattern).join(" ");
  if (p === "") return false;
  const source = p
    .split("*")
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}(?: .*)?$`, "s").test(command.join(" "));
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
