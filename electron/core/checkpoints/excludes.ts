/**
 * What checkpoints leave out, besides what the workspace's own .gitignore
 * files ignore (git reads those as usual). Written to the private
 * repository's info/exclude; shown in Settings.
 */
export const DEFAULT_EXCLUDES: readonly string[] = [
  // dependencies
  "node_modules/",
  "bower_components/",
  "jspm_packages/",
  ".pnpm-store/",
  "vendor/bundle/",
  ".venv/",
  "venv/",
  "__pycache__/",
  "*.pyc",
  // build output and caches
  "dist/",
  "build/",
  "out/",
  "target/",
  ".next/",
  ".nuxt/",
  ".turbo/",
  ".parcel-cache/",
  ".cache/",
  "coverage/",
  ".gradle/",
  "*.o",
  "*.class",
  // editor and OS noise
  ".DS_Store",
  "Thumbs.db",
  "*.swp",
  // logs and local databases
  "*.log",
  "*.sqlite-wal",
  "*.sqlite-shm",
];

export function excludeFileText(extra: readonly string[] = []): string {
  return [
    "# Written by Agent Workbench: paths checkpoints never record (the workspace's .gitignore files apply too).",
    ...DEFAULT_EXCLUDES,
    ...extra,
    "",
  ].join("\n");
}
