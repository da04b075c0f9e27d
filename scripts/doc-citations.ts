/**
 * Citations of documents in code and docs must point at something a
 * maintainer can open: `docs/<name>.md` must exist in the repo, and
 * `docs/<name>.md#<anchor>` must name one of its headings (GitHub's anchor
 * rules). The team handbook outside the repo is never cited. Used by
 * `npm run lint:docs` and test/docs-citations.test.ts; see
 * docs/architecture.md (its first paragraph) for the citation form.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

export interface CitationProblem {
  file: string;
  line: number;
  citation: string;
  problem: string;
}

const SCANNED_DIRS = ["electron", "shared", "renderer", "scripts", "bench", "e2e", "test", "docs"];
const SCANNED_EXT = /\.(ts|tsx|js|mjs|cjs|md|yml|css|html)$/;
const SKIPPED_DIRS = new Set(["node_modules", "out", "dist", "release", "test-results", "artifacts"]);
const DOC_CITATION = /\bdocs\/([\w.-]+\.md)(#[\w-]+)?/g;
/** The handbook files live outside the repository; citing them leaves a maintainer with nothing to read. */
const HANDBOOK = /\b(ARCHITECTURE\.md|CONVENTIONS\.md)\b|\.\.\/shared\/(reference|hooks)\b/g;
/** Relative links between docs: [text](file.md) or [text](file.md#anchor). */
const DOC_LINK = /\]\(([\w.-]+\.md)(#[\w-]+)?\)/g;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    const m = !inFence && /^#{1,6}\s+(.*)$/.exec(line);
    if (m) anchors.add(headingAnchor(m[1]));
  }
  return anchors;
}

function filesUnder(root: string, dir: string, out: string[]): void {
  const abs = join(root, dir);
  if (!existsSync(abs)) return;
  for (const name of readdirSync(abs)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const rel = join(dir, name);
    const st = statSync(join(root, rel));
    if (st.isDirectory()) filesUnder(root, rel, out);
    else if (SCANNED_EXT.test(name)) out.push(rel);
  }
}

export function checkCitations(root: string): CitationProblem[] {
  const files: string[] = [];
  for (const dir of SCANNED_DIRS) filesUnder(root, dir, files);
  for (const top of ["README.md", "electron-builder.yml", "package.json"]) if (existsSync(join(root, top))) files.push(top);
  const anchorCache = new Map<string, Set<string> | null>();
  const anchorsFor = (doc: string): Set<string> | null => {
    if (!anchorCache.has(doc)) {
      const path = join(root, "docs", doc);
      anchorCache.set(doc, existsSync(path) ? anchorsOf(readFileSync(path, "utf8")) : null);
    }
    return anchorCache.get(doc) ?? null;
  };
  const problems: CitationProblem[] = [];
  for (const file of files) {
    // This checker and its test name the forbidden forms on purpose.
    const rel = relative(root, join(root, file)).split(sep).join("/");
    if (rel === "scripts/doc-citations.ts" || rel === "test/docs-citations.test.ts") continue;
    const lines = readFileSync(join(root, file), "utf8").split("\n");
    lines.forEach((text, i) => {
      const at = (citation: string, problem: string) => problems.push({ file: rel, line: i + 1, citation, problem });
      for (const m of text.matchAll(HANDBOOK))
        at(m[0], "cites the team handbook, which is not in the repository: cite docs/architecture.md instead");
      const check = (doc: string, anchor: string | undefined, citation: string) => {
        const anchors = anchorsFor(doc);
        if (anchors === null) at(citation, `docs/${doc} does not exist`);
        else if (anchor !== undefined && !anchors.has(anchor.slice(1))) at(citation, `docs/${doc} has no section ${anchor}`);
      };
      for (const m of text.matchAll(DOC_CITATION)) check(m[1], m[2], m[0]);
      if (rel.startsWith("docs/")) for (const m of text.matchAll(DOC_LINK)) check(m[1], m[2], m[0]);
    });
  }
  return problems;
}
