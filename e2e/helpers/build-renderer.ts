/**
 * Builds only the renderer (the `renderer` section of electron.vite.config.ts)
 * into out/renderer. The e2e specs and the UI benchmark need nothing else, and
 * this keeps working while other parts of the app are mid-change.
 */
import { resolve } from "node:path";
import { build, loadConfigFromFile, type InlineConfig } from "vite";

export async function buildRenderer(root = process.cwd()): Promise<void> {
  // Vite's loader bundles the config file and provides __dirname to it.
  const loaded = await loadConfigFromFile(
    { command: "build", mode: "production" },
    resolve(root, "electron.vite.config.ts"),
    root,
    "silent",
  );
  const sections = (loaded?.config ?? {}) as { renderer?: InlineConfig };
  if (!sections.renderer) throw new Error("electron.vite.config.ts has no renderer section");
  const rendererBuild = sections.renderer.build ?? {};
  await build({
    ...sections.renderer,
    build: { ...rendererBuild, emptyOutDir: true },
    configFile: false,
    logLevel: "warn",
    mode: "production",
  });
}

if (process.argv[1]?.endsWith("build-renderer.ts")) {
  buildRenderer().catch((err: unknown) => {
    console.error(`renderer build failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
