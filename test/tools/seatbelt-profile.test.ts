/**
 * The macOS profile as text. sandbox-exec cannot run here (the tests run on
 * Linux), so this checks what the profile says, not what macOS does with it:
 * everything denied unless allowed, writes only to the workspace and the
 * temp folders, git's control paths and the secrets denied after the allows
 * (in SBPL the last matching rule wins), Unix sockets only in the
 * workspace, IP networking only when the session allows it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planGitProtection } from "../../electron/core/tools/git-protect";
import { sandboxPolicy } from "../../electron/core/tools/sandbox-policy";
import { seatbeltProfile } from "../../electron/core/tools/seatbelt-profile";
import { scanWorkspace } from "../../electron/core/tools/workspace-scan";

const base = realpathSync(mkdtempSync(join(tmpdir(), "awb-seatbelt-")));
const ws = join(base, "ws");
const home = join(base, "home");
mkdirSync(ws);
mkdirSync(join(home, ".ssh"), { recursive: true });
execFileSync("git", ["init", "-q"], { cwd: ws });
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function profile(network: boolean): Promise<string> {
  const git = await planGitProtection(ws, (await scanWorkspace(ws)).git);
  return seatbeltProfile(sandboxPolicy({ workspace: ws, cwd: ws, home, hidden: [], network, git }));
}

describe("macOS sandbox-exec profile (rendered, not run)", () => {
  it("denies by default and allows writes only to the workspace and the temp folders", async () => {
    const p = await profile(false);
    expect(p.startsWith("(version 1)\n(deny default)\n")).toBe(true);
    expect(p).not.toContain("(allow default)");
    const writes = p.split("\n").filter((l) => l.startsWith("(allow file-write*"));
    expect(writes).toEqual([
      `(allow file-write* (subpath ${JSON.stringify(ws)}) (subpath "/private/tmp") (subpath "/private/var/folders"))`,
    ]);
  });

  it("denies writes to git's control paths (the absent ones too) and reads of the secrets, after the allows", async () => {
    const lines = (await profile(false)).split("\n");
    const gitDeny = lines.findIndex((l) => l.startsWith("(deny file-write*") && l.includes(join(ws, ".git", "config")));
    const secrets = lines.findIndex((l) => l.startsWith("(deny file-read* file-write*") && l.includes(join(home, ".ssh")));
    const allowWrite = lines.findIndex((l) => l.startsWith("(allow file-write*"));
    expect(gitDeny).toBeGreaterThan(allowWrite);
    expect(secrets).toBeGreaterThan(allowWrite);
    for (const name of ["hooks", "info", "commondir", "modules"]) expect(lines[gitDeny]).toContain(join(ws, ".git", name));
    expect(lines).toContain(`(deny file-write-unlink (literal ${JSON.stringify(join(ws, ".git"))}))`);
  });

  it("Unix sockets only inside the workspace; IP networking only when allowed", async () => {
    const off = await profile(false);
    expect(off).toContain(`(allow network-outbound (remote unix-socket (subpath ${JSON.stringify(ws)})))`);
    expect(off).not.toContain("(remote ip)");
    expect(off).not.toContain("com.apple.dnssd.service");
    const on = await profile(true);
    expect(on).toContain("(allow network-outbound (remote ip))");
    expect(on).toContain("com.apple.dnssd.service");
    expect(on).not.toMatch(/\(allow network\*\)/);
  });
});
