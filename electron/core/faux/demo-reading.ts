/**
 * What the demo agent understands of a conversation and of tool output: the
 * user's intent, the files a `list` tree shows, a file's summary, and an edit
 * anchor that occurs exactly once in the file (the edit tool refuses an
 * ambiguous one with AMBIGUOUS_MATCH).
 */

export type DemoIntent = "greet" | "explain" | "change" | "explore";

const TEXT_EXTENSIONS = /\.(md|markdown|txt|ts|tsx|js|jsx|mjs|cjs|json|py|rb|go|rs|java|c|h|cpp|css|html|yml|yaml|toml|sh|d\.ts)$/i;
const CHANGE = /\b(add|adds|edit|change|fix|comment|annotate|insert|modify|update|write|tidy|clean|improve|refactor|rename|note)\b/i;
const EXPLAIN =
  /\b(explain|describe|summari[sz]e|what does|what's in|how does|read|show|look|tell me|review|understand|walk me through)\b/i;
const GREETING = /^\s*(hi|hello|hey|yo|hiya|howdy|good (morning|afternoon|evening)|thanks|thank you|ok|okay)\b[\s!.,?]*\S{0,20}[\s!.?]*$/i;

/** What the latest user message asks for. A change wins over an explanation ("add a note after reviewing"). */
export function intentOf(userText: string): DemoIntent {
  if (GREETING.test(userText) && namedFile(userText) === null) return "greet";
  if (CHANGE.test(userText)) return "change";
  if (EXPLAIN.test(userText) || namedFile(userText) !== null) return "explain";
  return "explore";
}

/** A file name the user typed (an @-mention or a bare path), without a leading "./" or "@". */
export function namedFile(userText: string): string | null {
  const named = userText
    .match(/@?[\w./-]+\.[A-Za-z0-9]+/g)
    ?.map((t) => t.replace(/^@/, "").replace(/^\.\//, ""))
    .find((t) => TEXT_EXTENSIONS.test(t));
  return named ?? null;
}

/**
 * Paths of the files in a `list` tree ("./", then two spaces per level,
 * folders ending in "/"); symlink arrows and notes are dropped.
 */
export function listedFiles(listing: string): string[] {
  const files: string[] = [];
  const folders: string[] = [];
  for (const raw of listing.split("\n")) {
    const match = /^( *)(\S.*)$/.exec(raw);
    if (!match || raw.trim() === "./") continue;
    const depth = Math.floor(match[1].length / 2) - 1;
    if (depth < 0) continue;
    const name = match[2].replace(/\s+->.*$/, "").trim();
    if (/\s/.test(name) || name.startsWith("[") || name.startsWith("(")) continue;
    folders.length = depth;
    if (name.endsWith("/")) folders[depth] = name.slice(0, -1);
    else files.push([...folders.slice(0, depth), name].join("/"));
  }
  return files;
}

/** The file the user named (matched against the listing, so "index.js" finds "src/index.js"), else README, else the first text file. */
export function pickFile(userText: string, listing: string): string | null {
  const files = listedFiles(listing).filter((f) => TEXT_EXTENSIONS.test(f));
  const named = namedFile(userText);
  if (named) {
    const lower = named.toLowerCase();
    return files.find((f) => f.toLowerCase() === lower) ?? files.find((f) => f.toLowerCase().endsWith(`/${lower}`)) ?? named;
  }
  return files.find((f) => /^readme\.(md|markdown|txt)$/i.test(f)) ?? files.find((f) => /(^|\/)readme\.md$/i.test(f)) ?? files[0] ?? null;
}

/** The lines of a `read` result, without their "N<TAB>" prefixes and notes. */
export function readLines(readOutput: string): string[] {
  return readOutput
    .split("\n")
    .filter((l) => /^\s*\d+\t/.test(l))
    .map((l) => l.replace(/^\s*\d+\t/, ""));
}

/**
 * A line to insert the note above: the first line when it is unique in the
 * file, else the first unindented line that occurs once as a substring of the
 * whole text (so the edit cannot be ambiguous). Never a shebang, a line read
 * cut, or a blank line.
 */
export function uniqueAnchor(lines: readonly string[]): string | null {
  const whole = lines.join("\n");
  const once = (line: string) => whole.indexOf(line) === whole.lastIndexOf(line);
  const usable = (line: string) => line.trim().length >= 3 && !line.startsWith("#!") && !line.includes("[line cut at") && once(line);
  const first = lines.findIndex((l) => l.trim() !== "");
  if (first >= 0 && usable(lines[first])) return lines[first];
  return lines.find((l) => !/^\s/.test(l) && usable(l)) ?? lines.find(usable) ?? null;
}

/** A few sentences on what a file holds, from its text alone. */
export function describeFile(path: string, lines: readonly string[]): string {
  const parts: string[] = [`\`${path}\` has ${lines.length} line${lines.length === 1 ? "" : "s"}.`];
  const heading = lines.find((l) => /^#{1,3}\s+\S/.test(l));
  if (/\.(md|markdown|txt)$/i.test(path)) {
    if (heading) parts.push(`It is titled "${heading.replace(/^#+\s*/, "").trim()}".`);
    const sections = lines.filter((l) => /^##\s+\S/.test(l)).map((l) => l.replace(/^#+\s*/, "").trim());
    if (sections.length > 0) parts.push(`Sections: ${listOf(sections, 8)}.`);
    const para = lines.find((l) => l.trim() !== "" && !/^[#<![>|`-]/.test(l.trim()));
    if (para) parts.push(`It starts: "${clip(para.trim(), 160)}"`);
    return parts.join(" ");
  }
  if (/\.json$/i.test(path)) {
    const keys = lines.filter((l) => /^ {2}"[^"]+":/.test(l)).map((l) => l.trim().split('"')[1]);
    if (keys.length > 0) parts.push(`Its top-level keys are ${listOf(keys, 10)}.`);
    return parts.join(" ");
  }
  const names = new Set<string>();
  for (const l of lines) {
    const m =
      /^\s*export\s+(?:default\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)/.exec(l) ??
      /^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/.exec(l) ??
      /^(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)/.exec(l) ??
      /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/.exec(l) ??
      /^(?:def|class|func|fn|pub fn)\s+([A-Za-z_]\w*)/.exec(l);
    if (m) names.add(m[1]);
  }
  const exportsDefault = lines.some((l) => /^\s*(export\s+default|module\.exports\s*=)/.test(l));
  if (names.size > 0) parts.push(`It defines ${listOf([...names], 10)}.`);
  if (exportsDefault) parts.push("It has a default export (the module's main entry).");
  const imports = lines.filter((l) =>
    /^\s*(import\s.+\sfrom\s|import\s+['"]|const\s+\w+\s*=\s*require\(|from\s+\S+\s+import\s)/.test(l),
  ).length;
  if (imports > 0) parts.push(`It imports from ${imports} module${imports === 1 ? "" : "s"}.`);
  const doc = lines.find((l) => /^\s*(\/\/|\/?\*{1,2}|#)\s*\w/.test(l) && !l.startsWith("#!"));
  if (doc) parts.push(`A comment near the top says: "${clip(doc.replace(/^\s*(\/\/|\/?\*{1,2}|#)\s*/, "").trim(), 140)}".`);
  return parts.join(" ");
}

/** A one-paragraph overview of the workspace from a `list` tree. */
export function describeListing(listing: string): string {
  const files = listedFiles(listing);
  if (files.length === 0) return "The workspace looks empty: the listing shows no files.";
  const top = files.filter((f) => !f.includes("/"));
  const folders = [...new Set(files.filter((f) => f.includes("/")).map((f) => f.split("/")[0]))];
  const parts = [`The workspace shows ${files.length} file${files.length === 1 ? "" : "s"} at the first levels.`];
  if (top.length > 0) parts.push(`At the top: ${listOf(top, 10)}.`);
  if (folders.length > 0)
    parts.push(
      `Folders: ${listOf(
        folders.map((f) => `${f}/`),
        10,
      )}.`,
    );
  parts.push("Ask me to explain a file, or to add a comment to one.");
  return parts.join(" ");
}

export function commentFor(path: string, note: string): string {
  if (/\.(md|markdown|html)$/i.test(path)) return `<!-- ${note} -->`;
  if (/\.(py|rb|sh|ya?ml|toml)$/i.test(path)) return `# ${note}`;
  if (/\.css$/i.test(path)) return `/* ${note} */`;
  if (/\.(json|txt)$/i.test(path)) return "";
  return `// ${note}`;
}

function listOf(items: readonly string[], max: number): string {
  const shown = items.slice(0, max).map((i) => `\`${i}\``);
  return items.length > max ? `${shown.join(", ")} and ${items.length - max} more` : shown.join(", ");
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
