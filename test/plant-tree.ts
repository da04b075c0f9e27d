/** Temporary file trees for tests of repository checks; removed after each test. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/** Returns `plant(files)`, which writes the files (path → text) into a fresh folder and returns it. */
export function treePlanter(prefix: string): (files: Record<string, string>) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return (files) => {
    const root = mkdtempSync(join(tmpdir(), `${prefix}-`));
    dirs.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };
}
