/**
 * @-mention search benchmark (`npm run bench:mentions`). A script, not a
 * test: it prints figures and ends with one line `RESULT {json}`.
 *
 * Over a generated workspace of 20,000 files (temp dir, removed afterwards,
 * with a .gitignore'd build folder that must not be listed):
 * - indexBuildMs: the first FileIndex build (sandbox walk, .gitignore);
 * - mentionSearchMs: median time of one keystroke's search (fzf v2 over the
 *   whole list, top 30 with match positions), over queries typed one
 *   character at a time (target <= 50 ms);
 * - mentionSearchP95Ms: the 95th percentile of the same;
 * - substringFilterMs: the baseline in the same run, a plain
 *   `path.includes(query)` filter of the same list for the same keystrokes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileIndex } from "../electron/core/mentions/file-index";
import { seededRandom } from "./seeded-random";

const FILES = 20_000;
const PER_DIR = 50;
const ROUNDS = 5;
const QUERIES = ["src/compo/button", "utilsfmt", "README", "hooks/useSess", "test/store/sess"];

const { pick } = seededRandom(0x1f2e3d4c);
const AREAS = ["src", "lib", "test", "packages/core/src", "packages/ui/src", "apps/web/src", "scripts", "docs"];
const DIRS = ["components", "hooks", "stores", "utils", "api", "store", "session", "format", "layout", "widgets"];
const WORDS = [
  "button",
  "session",
  "store",
  "format",
  "dialog",
  "panel",
  "header",
  "list",
  "item",
  "view",
  "render",
  "parse",
  "fmt",
  "index",
];
const EXTS = ["ts", "tsx", "md", "json", "css"];

function generate(root: string): void {
  writeFileSync(join(root, ".gitignore"), "build/\n");
  mkdirSync(join(root, "build"), { recursive: true });
  for (let i = 0; i < 200; i++) writeFileSync(join(root, "build", `out${i}.js`), "");
  let dir = "";
  for (let i = 0; i < FILES; i++) {
    if (i % PER_DIR === 0) {
      dir = join(root, pick(AREAS), `${pick(DIRS)}${Math.floor(i / PER_DIR)}`, pick(DIRS));
      mkdirSync(dir, { recursive: true });
    }
    writeFileSync(join(dir, `${pick(WORDS)}-${pick(WORDS)}${i}.${pick(EXTS)}`), "");
  }
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "awb-bench-mentions-"));
  try {
    process.stdout.write(`generating ${FILES} files… `);
    generate(root);
    console.log("done");
    const index = new FileIndex(root);
    const t0 = performance.now();
    await index.ready();
    const indexBuildMs = performance.now() - t0;
    const listed = index.list();
    if (listed.some((p) => p.startsWith("build/"))) throw new Error("the index lists a .gitignore'd folder");
    console.log(`indexed ${listed.length} files in ${indexBuildMs.toFixed(0)} ms`);

    const fuzzy: number[] = [];
    const substring: number[] = [];
    let sink = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const query of QUERIES) {
        for (let n = 1; n <= query.length; n++) {
          const q = query.slice(0, n);
          let t = performance.now();
          sink += index.searchNow(q, 30).files.length;
          fuzzy.push(performance.now() - t);
          t = performance.now();
          sink += listed.filter((p) => p.includes(q)).slice(0, 30).length;
          substring.push(performance.now() - t);
        }
      }
    }
    const result = {
      files: listed.length,
      keystrokes: fuzzy.length,
      indexBuildMs: Math.round(indexBuildMs),
      mentionSearchMs: Number(percentile(fuzzy, 0.5).toFixed(2)),
      mentionSearchP95Ms: Number(percentile(fuzzy, 0.95).toFixed(2)),
      substringFilterMs: Number(percentile(substring, 0.5).toFixed(2)),
      targetMs: 50,
    };
    console.log(
      `fuzzy search per keystroke: median ${result.mentionSearchMs} ms, p95 ${result.mentionSearchP95Ms} ms (substring baseline ${result.substringFilterMs} ms) [${sink}]`,
    );
    index.close();
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
