/**
 * One corrupted message in a 500-entry session (bytes changed in the file,
 * the b-tree intact: quick_check passes). The session loads the other 499
 * and lists the broken one as a damaged entry, in place; the JSON export keeps
 * its stored bytes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";
import { tempDir, user, type TempDir } from "../store/helpers";
import { startHarness, type Harness } from "./harness";

let h: Harness | null = null;
let dir: TempDir | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  dir?.remove();
  dir = null;
});

/** Changes `from` to `to` (same length) where it occurs once in the file: the row's bytes change, its length and the tree do not. */
function corruptInFile(path: string, from: string, to: string): void {
  const bytes = readFileSync(path);
  const at = bytes.indexOf(from);
  expect(at).toBeGreaterThan(0);
  expect(bytes.indexOf(from, at + 1)).toBe(-1);
  bytes.write(to, at, "latin1");
  writeFileSync(path, bytes);
}

describe("a corrupted entry", () => {
  it("is listed as damaged in place while the other 499 load, and its bytes go into the export", async () => {
    dir = tempDir();
    const path = dir.file("workbench.db");
    const store = SessionStore.open(path);
    const ws = store.addWorkspace(dir.file("ws"));
    const s = store.createSession({ workspaceId: ws.id });
    for (let i = 1; i <= 500; i++) store.appendEntry(s.id, user(`message-${String(i).padStart(3, "0")} body`));
    store.close();
    // `"text":"message-250` → `"text":\u0001message-250`: no longer JSON.
    corruptInFile(path, '"text":"message-250', '"text":\u0001message-250');

    const check = SessionStore.open(path, { integrityCheck: "atOpen" });
    check.close();
    h = await startHarness({ dbPath: path });
    const loaded = await h.call("session.load", { sessionId: s.id });
    expect(loaded.entries).toHaveLength(499);
    expect(loaded.damaged).toEqual([expect.objectContaining({ seq: 250, kind: "user", code: "INVALID_JSON" })]);
    const older = await h.call("session.entries", { sessionId: s.id, toSeq: 300 });
    expect(older.damaged).toEqual([expect.objectContaining({ seq: 250 })]);

    const file = await h.call("review.export", { sessionId: s.id, format: "json" });
    const envelope = JSON.parse(file.content) as { entries: unknown[]; problems: Array<{ seq: number; raw?: string }> };
    expect(envelope.entries).toHaveLength(499);
    expect(envelope.problems).toEqual([expect.objectContaining({ seq: 250, code: "INVALID_JSON" })]);
    expect(envelope.problems[0].raw).toContain("\u0001message-250 body");
  });
});
