/** Splits a search snippet on its \u0002…\u0003 match markers. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

export function splitSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let match = false;
  let buf = "";
  for (const ch of snippet) {
    if (ch === "\u0002" || ch === "\u0003") {
      if (buf) parts.push({ text: buf, match });
      buf = "";
      match = ch === "\u0002";
      continue;
    }
    buf += ch;
  }
  if (buf) parts.push({ text: buf, match });
  return parts;
}
