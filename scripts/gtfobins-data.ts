/**
 * Regenerates test/fixtures/gtfobins/entries.json from a checkout of
 * GTFOBins (https://github.com/GTFOBins/GTFOBins.github.io, GPL-3.0): every
 * program's every function entry, with the context-specific variants
 * (sudo, suid) of its code. The data is GTFOBins'; this script only reads it.
 *
 *   npx tsx scripts/gtfobins-data.ts <checkout> [commit]
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

interface Entry {
  code?: string;
  contexts?: Record<string, { code?: string } | null>;
}

const [checkout, commit = "unknown"] = process.argv.slice(2);
if (!checkout) {
  console.error("usage: tsx scripts/gtfobins-data.ts <GTFOBins checkout> [commit]");
  process.exit(2);
}
const folder = join(checkout, "_gtfobins");
const programs: Record<string, { function: string; code: string }[]> = {};
for (const name of readdirSync(folder).sort()) {
  const text = readFileSync(join(folder, name), "utf8").replace(/\n\.\.\.\s*$/, "");
  const doc = parse(text.replace(/^---\n/, "")) as { functions?: Record<string, Entry[]> };
  const list: { function: string; code: string }[] = [];
  for (const [fn, entries] of Object.entries(doc.functions ?? {})) {
    for (const entry of entries) {
      const codes = [entry.code, ...Object.values(entry.contexts ?? {}).map((c) => c?.code)];
      for (const code of codes) if (code) list.push({ function: fn, code });
    }
  }
  programs[name] = list;
}
const out = {
  source: { repository: "https://github.com/GTFOBins/GTFOBins.github.io", commit, licence: "GPL-3.0-only" },
  programs,
};
writeFileSync(join(import.meta.dirname, "../test/fixtures/gtfobins/entries.json"), `${JSON.stringify(out, null, 1)}\n`);
console.log(`${Object.keys(programs).length} programs, ${Object.values(programs).flat().length} entries`);
