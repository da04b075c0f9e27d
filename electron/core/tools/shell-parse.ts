/**
 * Reads a bash command line with the real bash grammar (tree-sitter-bash,
 * run through web-tree-sitter's WASM build: no native module, nothing
 * downloaded at run time) for the approval policy.
 *
 * Contract:
 * - `ensureShellParser()` loads the grammar once; until it has, `plainCommands`
 *   answers "not parsed" (the policy then asks) and `allCommands` falls back
 *   to a coarse split.
 * - `plainCommands` returns the literal words of every simple command only when
 *   the whole line is nothing but plain commands joined by `;`, `&&`, `||`, `|`
 *   or newlines, every word being literal text (no expansion, substitution,
 *   redirection, assignment, glob, escape, control or invisible character).
 *   Anything else is `{ ok: false, reason }`: an allow rule cannot cover it.
 * - `allCommands` finds every command the line may run, wherever it sits
 *   (substitutions, subshells, `sh -c` strings, `find -exec`, wrappers such as
 *   `env`, `sudo`, `xargs`), with assignments stripped and programs reduced to
 *   their base name: what deny rules look at.
 * See docs/approvals.md.
 */
import { createRequire } from "node:module";
import { Language, Parser, type Node } from "web-tree-sitter";
import { DECEPTIVE } from "../../../shared/invisible-chars";
import { SHELLS, WRAPPERS } from "./approval/launchers";

let parser: Parser | null = null;

const kids = (n: Node): Node[] => n.children.filter((c): c is Node => c !== null);
const named = (n: Node): Node[] => n.namedChildren.filter((c): c is Node => c !== null);
let loading: Promise<void> | null = null;

/** Loads the bash grammar (once; later calls share the first load). */
export function ensureShellParser(): Promise<void> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const runtimeWasm = require.resolve("web-tree-sitter/tree-sitter.wasm");
    await Parser.init({ locateFile: () => runtimeWasm });
    const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
  })();
  return loading;
}

export type PlainCommands = { ok: true; commands: string[][] } | { ok: false; reason: string };

/** Unquoted characters with a meaning to bash beyond literal text (globs, expansions, escapes, history). */
const SPECIAL_IN_WORD = /[\\$`*?[\]{}~()<>!;&|'"\s]/;
/** Inside double quotes: expansions, escapes, history. */
const SPECIAL_IN_STRING = /[\\$`!]/;

export function plainCommands(command: string): PlainCommands {
  if (!parser) return { ok: false, reason: "the shell parser is not loaded" };
  if (DECEPTIVE.test(command)) return { ok: false, reason: "control or invisible characters" };
  const tree = parser.parse(command);
  if (!tree) return { ok: false, reason: "the command could not be parsed" };
  try {
    const root = tree.rootNode;
    if (root.hasError) return { ok: false, reason: "the command does not parse as bash" };
    const gap = uncoveredText(root, command);
    if (gap !== null) return { ok: false, reason: `text outside any word (${JSON.stringify(gap)})` };
    const commands: string[][] = [];
    const problem = collectPlain(root, commands);
    if (problem) return { ok: false, reason: problem };
    if (commands.length === 0) return { ok: false, reason: "no command" };
    return { ok: true, commands };
  } finally {
    tree.delete();
  }
}

/** The first stretch between tokens that is not plain blank space (a line continuation, a skipped \r). */
function uncoveredText(root: Node, source: string): string | null {
  let at = 0;
  const visit = (n: Node): string | null => {
    if (n.childCount === 0 || n.type === "string_content" || n.type === "raw_string" || n.type === "word") {
      const between = source.slice(at, n.startIndex);
      if (!/^[ \t\n]*$/.test(between)) return between;
      at = Math.max(at, n.endIndex);
      return null;
    }
    for (const c of kids(n)) {
      const r = visit(c);
      if (r !== null) return r;
    }
    return null;
  };
  const r = visit(root);
  if (r !== null) return r;
  const tail = source.slice(at);
  return /^[ \t\n]*$/.test(tail) ? null : tail;
}

const JOINERS: Record<string, readonly string[]> = {
  program: [";", "\n"],
  list: ["&&", "||"],
  pipeline: ["|"],
};

function collectPlain(node: Node, out: string[][]): string | null {
  const joiners = JOINERS[node.type];
  if (joiners) {
    for (const c of kids(node)) {
      if (!c.isNamed) {
        if (!joiners.includes(c.type)) return `the operator ${c.type}`;
        continue;
      }
      if (c.type === "comment") continue;
      const r = c.type === "command" ? plainCommand(c, out) : collectPlain(c, out);
      if (r) return r;
    }
    return null;
  }
  if (node.type === "command") return plainCommand(node, out);
  return describe(node);
}

function plainCommand(node: Node, out: string[][]): string | null {
  const words: string[] = [];
  for (const c of kids(node)) {
    if (c.type === "command_name") {
      const name = named(c)[0];
      if (c.childCount !== 1 || !name || name.type !== "word") return "a quoted or composed program name";
      if (/[/]/.test(name.text)) return "a program given by path";
      if (/[^\x21-\x7e]/.test(name.text)) return "a program name with non-ASCII characters";
      const v = literal(name);
      if (v === null) return `special characters in the program name ${name.text}`;
      words.push(v);
      continue;
    }
    if (!c.isNamed) return `the token ${c.type}`;
    const v = literal(c);
    if (v === null) return describe(c);
    words.push(v);
  }
  if (words.length === 0) return "no program";
  out.push(words);
  return null;
}

/** The literal value of a word, or null when bash would expand or interpret any of it. */
function literal(node: Node): string | null {
  switch (node.type) {
    case "word":
      return SPECIAL_IN_WORD.test(node.text) ? null : node.text;
    case "number":
      return /^-?[0-9]+$/.test(node.text) ? node.text : null;
    case "raw_string":
      return node.text.startsWith("'") && node.text.endsWith("'") ? node.text.slice(1, -1) : null;
    case "string": {
      if (!node.text.startsWith('"')) return null; // $"..." is a translated string
      let value = "";
      for (const c of kids(node)) {
        if (c.type === '"') continue;
        if (c.type !== "string_content" || SPECIAL_IN_STRING.test(c.text)) return null;
        value += c.text;
      }
      return value;
    }
    case "concatenation": {
      let value = "";
      for (const c of kids(node)) {
        const v = literal(c);
        if (v === null) return null;
        value += v;
      }
      return value;
    }
    default:
      return null;
  }
}

const DESCRIPTIONS: Record<string, string> = {
  variable_assignment: "an environment assignment",
  redirected_statement: "a redirection",
  file_redirect: "a redirection",
  heredoc_redirect: "a here-document",
  herestring_redirect: "a here-string",
  command_substitution: "a command substitution",
  process_substitution: "a process substitution",
  subshell: "a subshell",
  compound_statement: "a command group",
  simple_expansion: "a variable expansion",
  expansion: "a variable expansion",
  ansi_c_string: "an ANSI-C quoted string",
  translated_string: "a translated string",
  function_definition: "a function definition",
  negated_command: "a negated command",
  declaration_command: "a declaration",
};

function describe(node: Node): string {
  return DESCRIPTIONS[node.type] ?? `shell syntax (${node.type}) in ${JSON.stringify(node.text.slice(0, 40))}`;
}

// ------------------------------------------------------------ deny view

const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/**
 * Every command the line may run, as words (program reduced to its base name,
 * leading assignments and wrappers removed), for deny rules. Best effort by
 * design: dynamic words keep their source text.
 */
export function allCommands(command: string, depth = 0): string[][] {
  const found: string[][] = [];
  const addWords = (words: string[]) => {
    const stripped = stripWrappers(words);
    if (stripped.length === 0) return;
    found.push(stripped);
    const [program, ...rest] = stripped;
    // sh -c 'rm x', eval 'rm x': the string is itself a command line.
    if (SHELLS.has(program) && depth < 4) {
      const script = program === "eval" ? rest.join(" ") : rest.filter((w) => !w.startsWith("-")).join(" ");
      if (script) found.push(...allCommands(script, depth + 1));
    }
    if (program === "find") {
      for (let i = 0; i < rest.length; i++) {
        if (!FIND_EXEC.has(rest[i])) continue;
        const end = rest.findIndex((w, j) => j > i && (w === ";" || w === "\\;" || w === "+"));
        addWords(rest.slice(i + 1, end === -1 ? undefined : end));
      }
    }
  };
  if (parser) {
    const tree = parser.parse(command.replace(/\r/g, "\n"));
    if (tree) {
      try {
        const visit = (n: Node) => {
          if (n.type === "command") {
            const words: string[] = [];
            for (const c of named(n)) {
              if (c.type === "variable_assignment" || c.type.endsWith("_redirect")) continue;
              words.push(c.type === "command_name" ? basename(valueOf(c)) : valueOf(c));
            }
            addWords(words);
          }
          for (const c of kids(n)) visit(c);
        };
        visit(tree.rootNode);
      } finally {
        tree.delete();
      }
    }
  }
  // A coarse split too, so a line the grammar misreads is still checked.
  for (const part of command.split(/[;&|\n\r`()]+|\$\(/)) {
    const words = part.trim().split(/\s+/).filter(Boolean).map(unquote);
    while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) words.shift();
    if (words.length > 0) addWords([basename(words[0]), ...words.slice(1)]);
  }
  return found;
}

/** Shell keywords the coarse split leaves in front of a command (`if x; then rm y; fi`). */
const KEYWORDS = new Set(["then", "do", "else", "if", "while", "until", "!"]);

function stripWrappers(words: string[]): string[] {
  let w = words.map((x, i) => (i === 0 ? basename(x) : x));
  for (let guard = 0; guard < 8 && w.length > 0 && (WRAPPERS.has(w[0]) || KEYWORDS.has(w[0])); guard++) {
    let i = 1;
    // Options, assignments (env), durations and priorities (timeout 5, nice -n 5).
    while (i < w.length && (/^-/.test(w[i]) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[i]) || /^[0-9.]+[smhd]?$/.test(w[i]))) i++;
    w = w.slice(i);
    if (w.length > 0) w[0] = basename(w[0]);
  }
  return w;
}

function valueOf(node: Node): string {
  if (node.type === "command_name") {
    const inner = named(node)[0];
    return inner ? valueOf(inner) : node.text;
  }
  if (node.type === "raw_string") return node.text.slice(1, -1);
  if (node.type === "string")
    return named(node)
      .map((c) => (c.type === "string_content" ? c.text : c.text))
      .join("");
  if (node.type === "ansi_c_string") return unquote(node.text);
  if (node.type === "concatenation") return named(node).map(valueOf).join("");
  if (node.type === "word") return node.text.replace(/\\(.)/gs, "$1");
  return node.text;
}

function unquote(word: string): string {
  return word.replace(/^\$'/, "'").replace(/\\(.)/gs, "$1").replace(/['"]/g, "");
}

function basename(program: string): string {
  return program.replace(/^.*\//, "");
}
