/**
 * Settings → Storage: a session database the app kept aside as damaged is
 * listed with "Try to recover"; recovering copies its sessions into the
 * current database and says how much was saved; an entry that could not be
 * read shows in its session as a damaged entry, in place.
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { SessionStore } from "../../electron/core/store";
import { openWorkspace, transcript } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";

/** A database file as `moveAside` keeps one, holding one session in the host's workspace (its second entry unreadable). */
function keptDatabase(dir: string, workspace: string): string {
  const path = join(dir, "workbench.db.damaged-2025-01-02T03-04-05-678Z");
  const store = SessionStore.open(path);
  const s = store.createSession({ workspaceId: store.addWorkspace(workspace).id, title: "Rescued notes" });
  for (const text of ["the first note", "the second note", "the third note"])
    store.appendEntry(s.id, { type: "message", message: { role: "user", content: [{ type: "text", text }], timestamp: Date.now() } });
  store.close();
  const raw = new Database(path);
  raw.prepare(`UPDATE entries SET content = '{"type":"message","mess' WHERE seq = 2`).run();
  raw.close();
  return path;
}

test("a kept damaged database is offered in Settings, and Try to recover brings its session back", async ({ page, host }) => {
  const kept = keptDatabase(host.dir, host.workspace);
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);

  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const files = dialog.getByRole("list", { name: "Kept damaged databases" });
  await expect(files).toContainText(kept);
  await files.getByRole("button", { name: "Try to recover" }).click();
  await expect(files.getByRole("status")).toHaveText("Nothing was lost: 3 entries in 1 session were saved.");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);

  await page.getByRole("list", { name: "Session list" }).getByText("Rescued notes").click();
  await expect(transcript(page)).toContainText("the first note");
  await expect(transcript(page)).toContainText("the third note");
  await expect(transcript(page).getByRole("note").filter({ hasText: "Damaged entry 2 (user) could not be read" })).toBeVisible();
});
