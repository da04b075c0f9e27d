/**
 * The text forms of @-mentions and prompt commands, shared by the composer
 * (parsing what the user typed) and the core (writing the attached block).
 * Pure.
 */

export interface MentionRef {
  path: string;
  startLine?: number;
  endLine?: number;
}

const TAG = /^<attached-file path="([^"]*)"(?: lines="(\d+)-(\d+)")?>\n/;

function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

function unescapeAttr(value: string): string {
  return value
    .replace(/&lt;/g, "<")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** The text block the model reads for an attached file. */
export function attachedFileBlock(ref: MentionRef, body: string, note?: string): string {
  const lines = ref.startLine !== undefined && ref.endLine !== undefined ? ` lines="${ref.startLine}-${ref.endLine}"` : "";
  return `<attached-file path="${escapeAttr(ref.path)}"${lines}>\n${body}\n${note ? `${note}\n` : ""}</attached-file>`;
}

/** The file a text block attaches, or null for ordinary text. */
export function parseAttachedFile(text: string): (MentionRef & { body: string }) | null {
  const m = TAG.exec(text);
  if (!m || !text.endsWith("</attached-file>")) return null;
  const ref: MentionRef & { body: string } = {
    path: unescapeAttr(m[1]),
    body: text.slice(m[0].length, -"</attached-file>".length).replace(/\n$/, ""),
  };
  if (m[2] !== undefined && m[3] !== undefined) {
    ref.startLine = Number(m[2]);
    ref.endLine = Number(m[3]);
  }
  return ref;
}

/** `src/a.ts`, `src/a.ts:10` or `src/a.ts:10-40` (what follows the @). */
export function parseMentionToken(token: string): MentionRef | null {
  const m = /^(.+?)(?::(\d+)(?:-(\d+))?)?$/.exec(token);
  if (!m || m[1] === "") return null;
  const ref: MentionRef = { path: m[1] };
  if (m[2] !== undefined) {
    ref.startLine = Number(m[2]);
    ref.endLine = m[3] !== undefined ? Number(m[3]) : ref.startLine;
    if (ref.startLine < 1 || ref.endLine < ref.startLine) return null;
  }
  return ref;
}

/** The @-mention being typed at the caret (`@` at the start or after a space), or null. */
export function mentionAtCaret(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return null;
  return { start: caret - m[2].length - 1, query: m[2] };
}

/** `$ARGUMENTS` (and `$1`, `$2` … by whitespace) replaced; arguments appended when the template does not use them. */
export function expandTemplate(template: string, args: string): string {
  const trimmed = args.trim();
  const positional = trimmed === "" ? [] : trimmed.split(/\s+/);
  const uses = /\$ARGUMENTS|\$\d/.test(template);
  const out = template.replace(/\$ARGUMENTS/g, trimmed).replace(/\$(\d)/g, (_m, d: string) => positional[Number(d) - 1] ?? "");
  return uses || trimmed === "" ? out : `${out}\n\n${trimmed}`;
}

/** `/name rest of line` → name and arguments, or null when the text is not a command. */
export function parseSlashCommand(text: string): { name: string; args: string } | null {
  const m = /^\/([\w.:-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1], args: m[2] ?? "" } : null;
}

/**
 * A session title as shown: without an attached file's markup, which titles
 * taken from a first message held before titles were cleaned
 * (`… <attached-file path="lib/s…`). A title that is only markup becomes the
 * file it attached.
 */
export function plainTitle(title: string): string {
  const at = title.indexOf("<attached-file");
  if (at < 0) return title;
  const before = title.slice(0, at).trim();
  if (before) return before;
  const path = /<attached-file path="([^"]*)/.exec(title)?.[1];
  return path ? unescapeAttr(path) : title;
}

/** A title from a first message's text blocks: the user's own words, never an attached file's block. */
export function titleFromMessage(texts: readonly string[]): string {
  const own = texts
    .filter((t) => parseAttachedFile(t) === null)
    .join(" ")
    .trim();
  const files = texts.map((t) => parseAttachedFile(t)?.path).filter((p): p is string => p !== undefined);
  const line = plainTitle(own.split("\n")[0].trim()) || (files.length > 0 ? files.join(", ") : "");
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
