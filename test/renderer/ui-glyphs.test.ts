/**
 * The app ships no font files, so every character in the UI's own text (and
 * in the HTML replay it exports) must be one that common system fonts carry. Symbols from the "Miscellaneous
 * Technical" block (⏵ ⏸ ⏹ …) and emoji are missing from Debian's default
 * fonts and render as empty boxes there: icons are inline SVG instead
 * (components/icons.tsx).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const repo = join(import.meta.dirname, "..", "..");
/** The app's UI, and the offline HTML replay it exports (opened in any browser). */
const files = () => [...sources(join(repo, "renderer", "src")), join(repo, "electron", "core", "review", "export-html.ts")];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return /\.(tsx?|css)$/.test(d.name) ? [path] : [];
  });
}

/** Miscellaneous Technical, the emoji planes, and variation selectors (they ask for emoji presentation). */
// eslint-disable-next-line no-misleading-character-class -- single code points are matched on purpose (U+FE0F alone marks emoji presentation)
const RISKY = /[\u2300-\u23FF\uFE0F]|[\u{1F000}-\u{1FAFF}]/gu;

describe("UI glyphs", () => {
  it("no UI source uses a symbol that default system fonts lack (use an SVG icon)", () => {
    const found: string[] = [];
    for (const file of files()) {
      for (const [i, line] of readFileSync(file, "utf8").split("\n").entries()) {
        for (const m of line.matchAll(RISKY))
          found.push(`${relative(repo, file)}:${i + 1} U+${m[0].codePointAt(0)!.toString(16).toUpperCase()}`);
      }
    }
    expect(found).toEqual([]);
  });
});
