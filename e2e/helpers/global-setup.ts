/** Builds the renderer when out/renderer is missing or older than its sources. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeReplayModule } from "../../scripts/build-html-replay";
import { buildRenderer } from "./build-renderer";
import { MODELS_URL_ENV } from "../../electron/core/providers/catalog/live-catalog";

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

export default async function globalSetup(): Promise<void> {
  const root = process.cwd();
  // No host or app an e2e starts fetches the model catalog from the network.
  process.env[MODELS_URL_ENV] ??= "off";
  // The hosts export HTML replays: bundle their script from its typed source.
  writeReplayModule(root);
  const built = newest(join(root, "out", "renderer", "index.html"));
  const sources = Math.max(newest(join(root, "renderer")), newest(join(root, "shared")), newest(join(root, "electron.vite.config.ts")));
  if (built >= sources) return;
  console.log("e2e: building the renderer…");
  await buildRenderer(root);
}
