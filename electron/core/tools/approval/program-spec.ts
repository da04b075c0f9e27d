/**
 * The shape of the program tables (programs/*.ts): what a program's options
 * and operands are and what they can do, read from the program's own manual.
 * Bash allow rules with a wildcard are matched against these tables
 * (rule-match.ts); a program without a table gets exact rules only.
 * See docs/approvals.md#what-a-rule-covers.
 */

/** What an option or operand can make the program do beyond printing. */
export type Effect = "exec" | "write" | "read" | "network";

/**
 * What a word is to the program, which decides what a wildcard may stand for:
 * - path: a file or folder; covered only when it resolves inside the workspace (`-` is stdin);
 * - text: literal text the program does not run (a pattern, a message, a format);
 * - number: digits (and a sign or unit suffix);
 * - name: a script, target, package or branch name: no `=`, no leading `-`, no `/` outside the workspace;
 * - url: an http(s) URL, or else a name or path as above (never `file:`, `ext::` or other transports);
 * - code: a program in the program's own language (sed script, awk program): never covered by a wildcard;
 * - command: another command line or program to run: never covered by a wildcard.
 */
export type WordKind = "path" | "text" | "number" | "name" | "url" | "code" | "command";

export interface OptionSpec {
  /** Every spelling: `-n`, `--lines`. Long names may be abbreviated where the program allows it. */
  names: readonly string[];
  /**
   * A value: "required" (the next word, `--x=v` or `-xv`), "optional" (only
   * `--x=v` or `-xv`), "two" (the next two words: `jq --rawfile NAME FILE`).
   */
  arg?: "required" | "optional" | "two";
  /** What the (last) value is (default "text"). */
  value?: WordKind;
  /** With arg "two": what the first value is. */
  firstValue?: WordKind;
  /** What the option makes the program do, from its manual. */
  effect?: Effect;
  /**
   * Harmless: it changes only what is printed or how (format, verbosity,
   * sorting, recursion inside the named operands). A wildcard rule covers a
   * free option whether it spells it or not; every other option must be
   * spelled by the rule. Never free with an effect.
   */
  free?: true;
  /** The options end here: every later word is an operand (`node x.js --flag`: the flag is the script's). */
  endsOptions?: true;
}

export interface OperandShape {
  /** The first operands, in order (e.g. sed's script, grep's pattern). */
  leading?: readonly WordKind[];
  /** Canonical option names whose presence removes `leading` (`sed -e SCRIPT`, `grep -e PATTERN`). */
  leadingUnless?: readonly string[];
  /** Every further operand. */
  rest: WordKind;
  /** Operand kinds after `--`, when they differ (`npm test -- -u`: arguments for the script). */
  afterDashDash?: WordKind;
}

export interface ProgramSpec {
  /** Where the options were read from: the manual this table follows. */
  source: string;
  options: readonly OptionSpec[];
  operands: OperandShape;
  /** Long options may be abbreviated to any unambiguous prefix (GNU getopt_long). */
  abbreviations?: true;
  /** Long options start with one dash and are never bundled (`find -name`, `go test -run`). */
  singleDash?: true;
  /** The first word may be a dash-less bundle of short options (`tar xzf a.tgz`). */
  oldStyleBundle?: true;
  /** Options stop at the first operand (`node x.js --flag`, `python x.py -v`). */
  optionsEndAtFirstOperand?: true;
  /** `-<digits>` stands for this option with that value (`head -20`). */
  dashNumber?: string;
  /** Sub-commands (`git diff`, `npm test`); the program's own options come before it. */
  subcommands?: Readonly<Record<string, ProgramSpec>>;
  /** The program also runs without a sub-command (`vitest`, `vitest run`). */
  subcommandOptional?: true;
  /** Other spellings of sub-commands (`npm t` for `npm test`). */
  aliases?: Readonly<Record<string, string>>;
  /** In words: the program runs code from the workspace (package.json scripts, Makefile recipes, git hooks). Shown on the card. */
  runsWorkspaceCode?: string;
  /** The card never offers a wildcard rule for it (sed, find, tar, make): the user may still write one. */
  neverSuggestWildcard?: true;
  /** Checks an operand of kind "code" (sed scripts that can only print and substitute). */
  codeCheck?: (code: string) => boolean;
}

const KINDS = new Set<WordKind>(["path", "text", "number", "name", "url", "code", "command"]);
const TAGS = new Set(["free", "exec", "write", "read", "network", "-"]);

/**
 * Options written one a line: the spellings, then what the option is.
 *
 *     -n --lines=number    free     a value of kind number; free: harmless
 *     --color[=text]       free     an optional value
 *     -i --in-place[=text] write    what it does (exec, write, read, network)
 *     --registry=url       network
 *     --rawfile=name+path  free     two values (the next two words)
 *     -C=path              -        not free, no effect worth naming: the rule must spell it
 *
 * Throws on a malformed line: the tables are ours, and a typo must fail the tests, not widen a rule.
 */
export function options(table: string): OptionSpec[] {
  const out: OptionSpec[] = [];
  for (const raw of table.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const words = line.split(/\s+/);
    const tag = words.pop() ?? "";
    if (!TAGS.has(tag) || words.length === 0) throw new Error(`bad option line: ${line}`);
    let arg: OptionSpec["arg"];
    let value: WordKind | undefined;
    let firstValue: WordKind | undefined;
    const kind = (k: string): WordKind => {
      if (!KINDS.has(k as WordKind)) throw new Error(`bad value kind ${k} in: ${line}`);
      return k as WordKind;
    };
    const names = words.map((w) => {
      const m = /^(-[^=[]+)(\[?=([a-z]+)(?:\+([a-z]+))?\]?)?$/.exec(w);
      if (!m) throw new Error(`bad option spelling ${w} in: ${line}`);
      if (m[3] !== undefined) {
        if (m[4] !== undefined) {
          firstValue = kind(m[3]);
          value = kind(m[4]);
          arg = "two";
        } else {
          value = kind(m[3]);
          arg = m[2].startsWith("[") ? "optional" : "required";
        }
      }
      return m[1];
    });
    const spec: OptionSpec = { names, ...(arg ? { arg, value } : {}), ...(firstValue ? { firstValue } : {}) };
    if (tag === "free") {
      if ([value, firstValue].some((k) => k === "code" || k === "command"))
        throw new Error(`an option with a code or command value is never free: ${line}`);
      spec.free = true;
    } else if (tag !== "-") spec.effect = tag as Effect;
    out.push(spec);
  }
  return out;
}

/** The same options with `endsOptions` on the named ones (`python -m`, `go test -args`). */
export function endingOptions(list: OptionSpec[], ...names: string[]): OptionSpec[] {
  return list.map((o) => (o.names.some((n) => names.includes(n)) ? { ...o, endsOptions: true } : o));
}
