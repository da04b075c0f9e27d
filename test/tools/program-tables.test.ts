/**
 * The program tables against the programs themselves. A table that expands
 * abbreviated long options (`--in-pl` → `--in-place`) must list every long
 * option the program has, or an abbreviation the program reads as an
 * unlisted option would be expanded to a listed one: checked here against
 * the `--help` of the installed GNU programs. And the sed-script check,
 * which stands between `sed *` and GNU sed's `e`, `w` and `r` commands.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseWords } from "../../electron/core/tools/approval/command-words";
import { programNames, programSpec } from "../../electron/core/tools/approval/programs";
import { isPlainSedScript } from "../../electron/core/tools/approval/sed-script";

/** Long options a GNU `--help` lists (`--foo`, `--foo=X`, `--foo[=X]`). */
function helpLongOptions(program: string): string[] | null {
  const run = spawnSync(program, ["--help"], { encoding: "utf8", timeout: 30_000 });
  if (run.error || typeof run.stdout !== "string") return null;
  const names = new Set<string>();
  for (const line of run.stdout.split("\n")) {
    // Option lines start with indentation and a dash; descriptions mention options too, but after two spaces of text.
    const head = /^\s{1,8}(-.*?)(?:\s{2,}|$)/.exec(line)?.[1];
    if (!head) continue;
    // diff lists --GTYPE-group-format for four options it names below.
    for (const m of head.matchAll(/--[A-Za-z][-A-Za-z0-9]*/g)) if (!/[A-Z]{5}/.test(m[0])) names.add(m[0]);
  }
  return [...names];
}

const abbreviating = programNames().filter((name) => programSpec(name)?.abbreviations && !programSpec(name)?.subcommands);
const installed = abbreviating.filter((name) => spawnSync("sh", ["-c", `command -v ${name}`]).status === 0);

describe("tables that expand abbreviations list every long option of the program", () => {
  it("covers the GNU programs installed here", () => {
    // Debian's base system has coreutils, grep, sed, tar, diffutils and findutils.
    expect(installed).toEqual(expect.arrayContaining(["ls", "cat", "sort", "grep", "sed", "tar", "diff"]));
  });
  it.each(installed)("%s", (name) => {
    const listed = new Set(programSpec(name)?.options.flatMap((o) => o.names.filter((n) => n.startsWith("--"))));
    const help = helpLongOptions(name) ?? [];
    expect(help).toContain("--help");
    expect(help.filter((n) => !listed.has(n))).toEqual([]);
  });
});

describe("the tables read words as the programs do", () => {
  const read = (program: string, words: string[]) => {
    const spec = programSpec(program);
    if (!spec) throw new Error(program);
    return parseWords(words, spec);
  };
  it("splits bundles, takes attached and separate values, expands abbreviations only where the program does", () => {
    const sed = read("sed", ["-ni", "p", "x"]);
    expect(sed.ok && sed.value.options.map((o) => [o.canonical, o.values])).toEqual([
      ["--quiet", []],
      ["--in-place", []],
    ]);
    const tar = read("tar", ["xzf", "a.tgz", "member"]);
    expect(tar.ok && tar.value.options.map((o) => o.canonical)).toEqual(["--extract", "--gzip", "--file"]);
    expect(tar.ok && tar.value.operands.map((o) => o.word)).toEqual(["member"]);
    const abbreviated = read("tar", ["--checkpoint-act=exec=x", "-xf", "a"]);
    expect(abbreviated.ok && abbreviated.value.options[0].canonical).toBe("--checkpoint-action");
    // git's table is not every option git has: an abbreviation is unknown, never guessed.
    expect(read("git", ["diff", "--out=x"]).ok).toBe(false);
    const git = read("git", ["-C", ".", "log", "-5", "--oneline"]);
    expect(git.ok && git.value.path).toEqual(["log"]);
    expect(git.ok && git.value.options.map((o) => [o.level, o.canonical, o.values])).toEqual([
      [0, "-C", ["."]],
      [1, "--max-count", ["5"]],
      [1, "--oneline", []],
    ]);
    const node = read("node", ["app.js", "--inspect"]);
    expect(node.ok && node.value.operands.map((o) => [o.word, o.kind])).toEqual([
      ["app.js", "path"],
      ["--inspect", "text"],
    ]);
    const jq = read("jq", ["--rawfile", "x", "/etc/shadow", "-n", "$x"]);
    expect(jq.ok && jq.value.options[0].values).toEqual(["x", "/etc/shadow"]);
  });
});

describe("sed scripts a wildcard may stand for", () => {
  it.each(["p", "1,20p", "$d", "/re/d", "s/a/b/g", "s|a|b|2", "10q", "/x/!d;s/a/b/", "y/abc/xyz/", "1~2p", "/a/,+3p", "s/\\/x/y/"])(
    "accepts %s",
    (script) => expect(isPlainSedScript(script)).toBe(true),
  );
  it.each([
    "e",
    "1e id",
    "s/x/id/e",
    "s/x/y/w /tmp/f",
    "w /tmp/f",
    "W x",
    "r /etc/shadow",
    "R x",
    "1a text",
    "i\\x",
    "c x",
    ":a;ba",
    "{p}",
    "s/a/b",
    "1!e id",
    "s/a/b/ge",
  ])("refuses %s", (script) => expect(isPlainSedScript(script)).toBe(false));
});
