/**
 * Builds the app (main, preload, renderer) when `out/` is missing or older than
 * the sources, so `npm run web` and the e2e tests never serve a stale renderer.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeReplayModule } from "./build-html-replay";

const root = process.cwd();
// The HTML export inlines a script bundled from typed code; keep it in step with its source.
writeReplayModule(root);
const marker = join(root, "out", "renderer", "index.html");

function newestMtime(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const full = join(dir, name);
    const st = statSync(full);
    newest = Math.max(newest, st.isDirectory() ? newestMtime(full) : st.mtimeMs);
  }
  return newest;
}

const sources = Math.max(
  newestMtime(join(root, "renderer")),
  newestMtime(join(root, "shared")),
  newestMtime(join(root, "electron")),
  existsSync(join(root, "electron.vite.config.ts")) ? statSync(join(root, "electron.vite.config.ts")).mtimeMs : 0,
);
const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;

if (built >= sources && process.argv[2] !== "--force") {
  process.exit(0);
}
console.log("Building the app (electron-vite build)…");
const result = spawnSync("npx", ["electron-vite", "build"], { stdio: "inherit", cwd: root });
process.exit(result.status ?? 1);
