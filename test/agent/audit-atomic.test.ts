/**
 * A tool result and its audit row commit together or not at all. The audit
 * insert is made to fail for real (a SQLite trigger added through a second
 * connection to the same file), and the user is told on that call.
 */
import Database from "better-sqlite3";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { expectEveryCallAnswered, resultsOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
let dir: string | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function breakAudit(dbPath: string): void {
  const db = new Database(dbPath);
  db.exec(`CREATE TRIGGER break_audit BEFORE INSERT ON tool_calls BEGIN SELECT RAISE(ABORT, 'audit table refused the row'); END;`);
  db.close();
}

describe("no silent loss of the audit", () => {
  it("a failed audit insert keeps the tool result out of the store and shows the error on that call", async () => {
    dir = mkdtempSync(join(tmpdir(), "wb-audit-"));
    const dbPath = join(dir, "store.db");
    h = await startHarness({ files: { "a.txt": "secret-content\n" }, dbPath });
    breakAudit(dbPath);
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "toolu_read", name: "read", arguments: { path: "a.txt" } }] },
      { type: "reply", content: [{ type: "text", text: "should not be asked" }] },
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "read a" });
    const error = await h.waitFor("turn.error", (p) => p.sessionId === h!.sessionId, from);
    await h.waitIdle(from);
    expect(error.message).toMatch(/result of read could not be recorded.*audit table refused the row/);

    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expectEveryCallAnswered(entries);
    const [result] = resultsOf(entries);
    // The tool's real output was not committed; an error result stands in its place.
    expect(result.isError).toBe(true);
    expect(JSON.stringify(entries)).not.toContain("secret-content");
    expect(JSON.stringify(result.content)).toContain("could not be recorded");
    const status = h.events
      .slice(from)
      .filter((e) => e.event === "tool.status")
      .map((e) => (e.payload as { status: string }).status);
    expect(status).toContain("error");
    expect(status).not.toContain("done");
    // The turn stopped: the model was not called again with a result the audit does not know.
    expect(h.faux.requests).toHaveLength(1);
  });

  it("a side-effect call whose proposal cannot be audited is not run", async () => {
    dir = mkdtempSync(join(tmpdir(), "wb-audit-"));
    const dbPath = join(dir, "store.db");
    h = await startHarness({ dbPath });
    breakAudit(dbPath);
    await h.call("settings.update", { approvalPolicy: { write: "allow", edit: "ask", bash: "ask", bashAllow: [], bashDeny: [] } });
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "toolu_w", name: "write", arguments: { path: "new.txt", content: "x" } }] },
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "write" });
    const error = await h.waitFor("turn.error", (p) => p.sessionId === h!.sessionId, from);
    await h.waitIdle(from);
    expect(error.message).toMatch(/could not be recorded/);
    expect(existsSync(join(h.workspace, "new.txt"))).toBe(false);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expectEveryCallAnswered(entries);
    expect(resultsOf(entries)[0].isError).toBe(true);
  });
});
