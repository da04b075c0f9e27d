/**
 * `workspace.browse`, web mode's folder browser: sub-folders only (never file
 * names), links followed to folders only, hidden folders on request, sorted
 * as a person expects, and typed errors for a bad path.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FOLDER_LISTING_MAX, listFolders } from "../../electron/core/api/folder-browser";
import { startHarness, type Harness } from "./harness";

let root: string;
let h: Harness;
beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "awb-browse-")));
  for (const d of ["src", "Docs", "item10", "item9", ".git", "node_modules"]) mkdirSync(join(root, d));
  writeFileSync(join(root, "secret-plan.txt"), "file names never leave the core\n");
  symlinkSync(join(root, "src"), join(root, "src-link"));
  symlinkSync(join(root, "secret-plan.txt"), join(root, "file-link"));
  symlinkSync(join(root, "missing"), join(root, "dangling"));
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
  rmSync(root, { recursive: true, force: true });
});

const names = (l: { folders: { name: string }[] }) => l.folders.map((f) => f.name);

describe("workspace.browse", () => {
  it("lists sub-folders only, links to folders included, in natural order; hidden ones only on request", async () => {
    const listing = await h.call("workspace.browse", { path: root });
    expect(names(listing)).toEqual(["Docs", "item9", "item10", "node_modules", "src", "src-link"]);
    expect(listing).toMatchObject({ path: root, parent: join(root, ".."), truncated: false });
    expect(listing.folders.every((f) => f.readable && f.path === join(root, f.name))).toBe(true);
    expect(JSON.stringify(listing)).not.toContain("secret-plan");
    expect(names(await h.call("workspace.browse", { path: root, showHidden: true }))).toContain(".git");
  });

  it("starts at the home folder, resolves links in the path, and stops at the root", async () => {
    const home = await listFolders(undefined, false, root);
    expect(home.path).toBe(root);
    expect((await listFolders(join(root, "src-link"), false)).path).toBe(join(root, "src"));
    expect((await listFolders("/", false)).parent).toBeNull();
  });

  it("refuses a relative path, a missing folder and a file with typed errors", async () => {
    await expect(h.call("workspace.browse", { path: "relative/dir" })).rejects.toThrow(/INVALID_REQUEST not an absolute path/);
    await expect(h.call("workspace.browse", { path: join(root, "nope") })).rejects.toThrow(/NOT_FOUND no folder/);
    await expect(h.call("workspace.browse", { path: join(root, "secret-plan.txt") })).rejects.toThrow(/NOT_FOUND not a folder/);
  });

  it(`says when a folder holds more than ${FOLDER_LISTING_MAX} folders`, async () => {
    const big = join(root, "big");
    mkdirSync(big);
    for (let i = 0; i <= FOLDER_LISTING_MAX; i++) mkdirSync(join(big, `d${i}`));
    const listing = await listFolders(big, false);
    expect(listing.folders).toHaveLength(FOLDER_LISTING_MAX);
    expect(listing.truncated).toBe(true);
  });
});
