/**
 * Damage to the database file costs only the damaged part, end to end through
 * the core: a damaged search-index page is reported as such while the app
 * runs (export still works), and at the next start every entry is copied into
 * a fresh database and the notice says so; a damaged page of entries loses
 * only its rows, shown as missing in their session; the kept file is offered
 * for recovery.
 */
import Database from "better-sqlite3";
import { closeSync, openSync, writeSync } from "node:fs";
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

function history(path: string, n: number): string {
  const store = SessionStore.open(path);
  const s = store.createSession({ workspaceId: store.addWorkspace("/project").id, title: "history" });
  for (let i = 1; i <= n; i++) store.appendEntry(s.id, user(`entry ${i} on ${i % 10 === 0 ? "giraffes" : "cattle"} ${"text ".repeat(30)}`));
  store.close();
  return s.id;
}

function damagePage(path: string, table: string): void {
  const db = new Database(path, { readonly: true });
  const size = db.pragma("page_size", { simple: true }) as number;
  const pages = db.prepare(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno`).pluck().all(table) as number[];
  db.close();
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, (pages[Math.floor(pages.length / 2)] - 1) * size);
  closeSync(fd);
}

describe("a damaged database file", () => {
  it("a damaged search-index page: reported as the index only, export works, and the next start saves every entry", async () => {
    dir = tempDir();
    const path = dir.file("workbench.db");
    const id = history(path, 1502);
    damagePage(path, "entries_fts_data");

    h = await startHarness({ dbPath: path });
    const info = await h.call("app.info", {});
    const atStart = info.notices.find((n) => n.includes("session database"));
    if (atStart === undefined) {
      // Opened as it is: the background check finds the damage and says where it is.
      const notice = await h.waitFor("app.notice", (p) => p.message.includes("search index is damaged"));
      expect(notice.message).toMatch(/Your sessions are not affected/);
      const file = await h.call("review.export", { sessionId: id, format: "json" });
      expect((JSON.parse(file.content) as { entries: unknown[] }).entries).toHaveLength(1502);
      await h.close();
      h = await startHarness({ dbPath: path });
    }
    const notices = (await h.call("app.info", {})).notices;
    // One session more when the first start opened the file as it was (the harness made its own session there).
    expect(notices.find((n) => n.includes("was damaged"))).toMatch(
      /Nothing was lost: 1,502 entries in (1 session|2 sessions) were saved\./,
    );
    const loaded = await h.call("session.load", { sessionId: id });
    expect(loaded.entries).toHaveLength(1502);
    expect(loaded.damaged).toEqual([]);
    // Every tenth entry is about giraffes: the rebuilt index finds all 150.
    const hits = await h.call("session.search", { query: "giraffes", limit: 200 });
    expect(hits).toHaveLength(150);

    const kept = await h.call("storage.keptFiles", {});
    expect(kept).toHaveLength(1);
    const again = await h.call("storage.recover", { path: kept[0].path });
    expect(again).toMatchObject({ sessions: 0, entries: 0 });
    expect(again.alreadyPresent).toBeGreaterThanOrEqual(1);
    expect((await h.call("session.load", { sessionId: id })).entries).toHaveLength(1502);
  });

  it("a damaged page of entries: the rest is saved, the notice counts both, and the session shows the gap", async () => {
    dir = tempDir();
    const path = dir.file("workbench.db");
    const id = history(path, 2000);
    damagePage(path, "entries");
    // The app's own start-up check would find it in the background; the next start checks at open (its marker).
    const check = SessionStore.open(path, { integrityCheck: "background" });
    expect(await check.integrity()).toMatchObject({ ok: false, damaged: true, dataIntact: false });
    check.close();
    await check.whenStopped();

    h = await startHarness({ dbPath: path });
    const notice = (await h.call("app.info", {})).notices.find((n) => n.includes("was damaged")) ?? "";
    const m = /([\d,]+) entries in 1 session were saved; ([\d,]+) entr(?:y|ies) could not be read/.exec(notice);
    expect(m).not.toBeNull();
    const saved = Number(m![1].replace(/,/g, ""));
    const missing = Number(m![2].replace(/,/g, ""));
    expect(saved + missing).toBe(2000);
    const loaded = await h.call("session.load", { sessionId: id });
    expect(loaded.entries).toHaveLength(saved);
    expect(loaded.damaged).toEqual([expect.objectContaining({ code: "MISSING" })]);
    expect(notice).toContain("Settings → Storage");
  });
});
