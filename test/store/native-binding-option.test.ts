import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The Node-ABI addon this test process can load, as the Electron app loads its own build. */
function nodeAddon(): string {
  const pkg = createRequire(import.meta.url).resolve("better-sqlite3/package.json");
  return join(dirname(pkg), "build", "Release", "better_sqlite3.node");
}

describe("the store's nativeBinding option (how the Electron app loads its own ABI build)", () => {
  it("opens, writes and reopens a database through an addon outside node_modules", () => {
    const dir = mkdtempSync(join(tmpdir(), "native-"));
    dirs.push(dir);
    const addon = join(dir, "better_sqlite3.node");
    copyFileSync(nodeAddon(), addon);
    const dbPath = join(dir, "wb.db");
    const store = SessionStore.open(dbPath, { nativeBinding: addon });
    const ws = store.addWorkspace(dir);
    const s = store.createSession({ workspaceId: ws.id });
    store.appendEntry(s.id, { type: "message", message: { role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 } });
    store.close();
    const again = SessionStore.open(dbPath, { nativeBinding: addon });
    expect(again.loadEntries(s.id)).toHaveLength(1);
    again.close();
  });

  it("fails with an error, not a crash, when the addon is missing", () => {
    const dir = mkdtempSync(join(tmpdir(), "native-"));
    dirs.push(dir);
    expect(() => SessionStore.open(join(dir, "wb.db"), { nativeBinding: join(dir, "missing.node") })).toThrow();
  });
});
