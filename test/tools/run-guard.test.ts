/**
 * The checks around a sandboxed command, on their own (no sandbox needed):
 * what git protection a workspace gets, and what the after-run check reports
 * when something the mounts cannot refuse changed. The same checks run
 * inside real bash calls in bash-sandbox-git/-hardlinks.test.ts.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { planGitProtection } from "../../electron/core/tools/git-protect";
import { prepareRunGuard } from "../../electron/core/tools/run-guard";
import { scanWorkspace } from "../../electron/core/tools/workspace-scan";

let base: string;
let ws: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "awb-guard-")));
  ws = join(base, "ws");
  mkdirSync(ws);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "ignore" });
const plan = async () => planGitProtection(ws, (await scanWorkspace(ws)).git);

describe("git protection plan", () => {
  it("a repository: its control paths read-only, .git pinned, what is absent watched", async () => {
    git(ws, "init", "-q");
    writeFileSync(join(ws, ".gitmodules"), "");
    const p = await plan();
    expect(p.pin).toEqual([join(ws, ".git")]);
    expect(p.readOnly).toEqual(
      expect.arrayContaining([join(ws, ".git", "config"), join(ws, ".git", "hooks"), join(ws, ".git", "info"), join(ws, ".gitmodules")]),
    );
    expect(p.watch.map((w) => w.path)).toEqual(expect.arrayContaining([join(ws, ".git", "commondir"), join(ws, ".git", "modules")]));
    expect(p.watch.every((w) => w.before === null)).toBe(true);
  });

  it("no repository: the root's .git is watched as a new repository, nothing is mounted", async () => {
    const p = await plan();
    expect(p).toMatchObject({ pin: [], readOnly: [], watch: [{ path: join(ws, ".git"), before: null, newRepository: true }] });
  });

  it("a .git pointer file into the workspace: the pointer and the git folder it names are protected, a pointer out is left (read-only anyway)", async () => {
    mkdirSync(join(ws, "data"));
    git(ws, "init", "-q", `--separate-git-dir=${join(ws, "data", "repo")}`);
    const p = await plan();
    expect(p.readOnly).toEqual(
      expect.arrayContaining([join(ws, ".git"), join(ws, "data", "repo", "config"), join(ws, "data", "repo", "hooks")]),
    );
    // Every folder down to the git folder is pinned, so none can be renamed away with it.
    expect(p.pin).toEqual([join(ws, "data"), join(ws, "data", "repo")]);
    const out = join(base, "outside-repo");
    writeFileSync(join(ws, ".git"), `gitdir: ${out}\n`);
    mkdirSync(out);
    rmSync(join(ws, "data"), { recursive: true });
    expect((await plan()).readOnly).toEqual([join(ws, ".git")]);
  });

  it("a control path that is a link is watched (no mount can hold a link), and what it leads to inside is read-only", async () => {
    git(ws, "init", "-q");
    mkdirSync(join(ws, "shared-hooks"));
    rmSync(join(ws, ".git", "hooks"), { recursive: true });
    symlinkSync(join(ws, "shared-hooks"), join(ws, ".git", "hooks"));
    const p = await plan();
    expect(p.readOnly).toContain(join(ws, "shared-hooks"));
    expect(p.watch.find((w) => w.path === join(ws, ".git", "hooks"))?.before?.kind).toBe("link");
  });
});

describe("after-run check", () => {
  it("reports an outside write through a hard link, a linked file removed, and a planted commondir; nothing when nothing changed", async () => {
    git(ws, "init", "-q");
    const store = join(base, "store");
    mkdirSync(store);
    for (const name of ["a.js", "b.js", "c.js"]) {
      writeFileSync(join(store, name), "x\n");
      linkSync(join(store, name), join(ws, name));
    }
    const quiet = await prepareRunGuard(ws);
    expect(await quiet.check()).toEqual({ outsideWrites: [], outsideUnchecked: [], gitWarnings: [], warnings: [] });

    const guard = await prepareRunGuard(ws);
    appendFileSync(join(ws, "a.js"), "pwned\n");
    unlinkSync(join(ws, "b.js"));
    writeFileSync(join(ws, ".git", "commondir"), "../elsewhere\n");
    const report = await guard.check();
    expect(report.outsideWrites).toEqual(["a.js"]);
    expect(report.outsideUnchecked).toEqual(["b.js"]);
    expect(report.gitWarnings).toEqual([
      expect.stringMatching(/^The command created \.git\/commondir \(git commondir\), which the sandbox could not make read-only/),
    ]);
    expect(report.warnings).toHaveLength(3);
  });

  it("a repository created below the root is reported, one already there is not", async () => {
    mkdirSync(join(ws, "old"));
    git(join(ws, "old"), "init", "-q");
    const guard = await prepareRunGuard(ws);
    mkdirSync(join(ws, "deep", "er"), { recursive: true });
    git(join(ws, "deep", "er"), "init", "-q");
    const report = await guard.check();
    expect(report.gitWarnings).toEqual([expect.stringContaining("deep/er/.git")]);
    expect(report.gitWarnings[0]).not.toContain("old/.git");
  });

  it("a workspace past the walk's bound is said to be checked only in part", async () => {
    for (let i = 0; i < 20; i++) writeFileSync(join(ws, `f${i}`), "");
    const guard = await prepareRunGuard(ws, undefined, { maxEntries: 5, maxMs: 60_000 });
    const report = await guard.check();
    expect(report.warnings).toEqual([
      "The workspace check before the command stopped after 5 entries: hard links and git repositories past that point were not checked.",
    ]);
  });
});
