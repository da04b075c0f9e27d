/**
 * Bash allow rules cannot be stretched: each of these lines tries to run
 * something other than what the allow rules name (or to hide what it runs),
 * and each must be asked, never auto-allowed. The rules are the kind a user
 * saves; the control rows show the same rules do allow the plain commands.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ensureShellParser, evaluatePolicy, type ToolPolicy } from "../../electron/core/tools";

const policy: ToolPolicy = {
  write: "ask",
  edit: "ask",
  bash: "ask",
  bashAllow: [
    "git diff *",
    "git status",
    "ls *",
    "npm test *",
    "echo *",
    "cat *",
    "find *",
    "grep *",
    "xargs *",
    "env *",
    "command *",
    "sh *",
    "bash *",
    "eval *",
    "make",
  ],
  bashDeny: [],
};
// The workspace is /w: every path under it counts as inside (tests of real paths: allow-rules.test.ts).
const inside = (p: string) => p === "/w" || p.startsWith("/w/");
const verdict = (command: string) =>
  evaluatePolicy(policy, [], "bash", { kind: "command", command, cwd: "/w", timeoutMs: 1000 }, new Set(), { inside }).action;

const BYPASSES: [string, string][] = [
  // environment assignments change what an allowed program does
  ["env var runs the changed file as a diff tool", "GIT_EXTERNAL_DIFF=sh git diff"],
  ["LD_PRELOAD into an allowed program", "LD_PRELOAD=./x.so ls"],
  ["PATH hijack", "PATH=.:$PATH ls"],
  ["BASH_ENV sources a file (aliases) before the command", "BASH_ENV=./evil.sh ls"],
  ["GIT_PAGER", "GIT_PAGER='sh -c id' git diff"],
  ["GIT_DIR elsewhere", "GIT_DIR=/tmp/x git status"],
  ["NODE_OPTIONS require", "NODE_OPTIONS='--require ./x.js' npm test"],
  ["assignment only", "ls=1"],
  ["export then run", "export PATH=.; ls"],
  // program by path or resolved differently
  ["program by relative path", "./ls"],
  ["program by absolute path", "/tmp/x/ls"],
  ["program by parent path", "../bin/ls -la"],
  ["tilde path", "~/bin/ls"],
  ["glob in program position", "l? -la"],
  ["star glob program", "/bin/l* ."],
  ["bracket glob program", "[l]s"],
  ["brace expansion program", "{ls,rm} -rf x"],
  ["variable as program", "$CMD x"],
  ["quoted program name", "'ls' -la"],
  ["escaped program name", "l\\s"],
  ["unicode look-alike program (Cyrillic е)", "еcho hi"],
  ["fullwidth look-alike", "ｌｓ"],
  // chaining with something not allowed
  ["semicolon", "npm test; rm -rf x"],
  ["and", "ls && rm -rf x"],
  ["or", "ls || rm -rf x"],
  ["pipe into shell", "cat x | sh"],
  ["background", "ls & rm -rf x"],
  ["pipe stderr too", "ls |& sh"],
  ["newline", "ls\nrm -rf x"],
  ["carriage return hides the rest", "ls\rrm -rf x"],
  ["vertical tab", "ls\u000brm -rf x"],
  ["zero-width space", "ls\u200b -la"],
  ["right-to-left override", "echo \u202e x"],
  ["tag characters hide text", "ls \u{e0072}\u{e006d}"],
  ["line separator", "ls\u2028rm -rf x"],
  ["line continuation", "ls \\\n-la"],
  // substitutions and subshells
  ["command substitution", "echo $(rm -rf x)"],
  ["backticks", "echo `rm -rf x`"],
  ["substitution in double quotes", 'echo "$(rm -rf x)"'],
  ["backticks in double quotes", 'echo "`id`"'],
  ["process substitution", "cat <(rm -rf x)"],
  ["subshell", "(rm -rf x)"],
  ["subshell of allowed", "(ls)"],
  ["group", "{ ls; }"],
  ["arithmetic expansion", "echo $((1+2))"],
  ["parameter expansion with default", "echo ${X:-$(id)}"],
  ["variable expansion", "echo $HOME"],
  // redirections
  ["output redirection", "echo x > ~/.bashrc"],
  ["append redirection", "echo x >> .git/hooks/pre-commit"],
  ["input redirection", "cat < /etc/shadow"],
  ["fd redirection", "ls 2>&1"],
  ["here-document", "cat <<EOF\nx\nEOF"],
  ["here-string", "cat <<< x"],
  ["clobber", "ls >| x"],
  // quoting tricks
  ["ANSI-C quoting", "echo $'\\x72\\x6d'"],
  ["translated string", 'echo $"x"'],
  ["escaped space joins words", "ls a\\ b"],
  ["double-quoted escape", 'echo "a\\"b"'],
  ["history expansion", "echo !!"],
  ["comment hides nothing but unicode does", "ls # \u2066rm\u2069"],
  // programs that run other programs (rules `xargs *`, `env *`, `sh *`… do not cover them)
  ["env rm", "env rm -rf x"],
  ["command rm", "command rm -rf x"],
  ["xargs rm", "ls | xargs rm"],
  ["find -exec", "find . -exec rm {} ;"],
  ["find -execdir", "find . -execdir sh -c id ;"],
  ["find -delete", "find . -delete"],
  ["find -ok", "find . -ok rm {} ;"],
  ["sh -c", "sh -c 'rm -rf x'"],
  ["bash -c", "bash -c id"],
  ["eval", "eval rm -rf x"],
  ["git -c core.pager", "git -c core.pager=id diff"],
  ["exec", "exec rm -rf x"],
  ["source", "source ./evil.sh"],
  ["dot source", ". ./evil.sh"],
  ["sudo", "sudo ls"],
  ["timeout wrapper", "timeout 5 rm -rf x"],
  ["nohup wrapper", "nohup rm -rf x"],
  ["function definition", "ls() { rm -rf x; }; ls"],
  ["alias", "alias ls='rm -rf x'; ls"],
  ["negation", "! ls"],
  ["not a command at all", "if true; then rm -rf x; fi"],
  ["for loop", "for f in x; do rm $f; done"],
  ["exact rule stretched with arguments", "git status; git status --porcelain"],
  ["exact rule with extra argument", "make install"],
  ["similar program name", "lsblk"],
  ["prefix of a program name", "npm testing"],
  ["unparsable", "ls 'unterminated"],
];

describe("bash allow rules: bypass attempts are asked", () => {
  it("holds at least 60 attempts", () => {
    expect(BYPASSES.length).toBeGreaterThanOrEqual(60);
  });
  beforeAll(() => ensureShellParser());
  it.each(BYPASSES)("asks: %s", (_name, command) => {
    expect(verdict(command)).toBe("ask");
  });
});

describe("bash allow rules: the same rules allow the plain commands (control)", () => {
  beforeAll(() => ensureShellParser());
  it.each([
    ["git diff --stat"],
    ["git status"],
    ["ls -la src"],
    ["npm test -- --watch=false"],
    ["echo 'hello world'"],
    ['cat "my file.txt"'],
    ["find . -name '*.ts'"],
    ["ls && npm test"],
    ["ls | grep foo"],
    ["make"],
  ])("allows: %s", (command) => {
    expect(verdict(command)).toBe("allow");
  });
});
