/**
 * A sandboxed command cannot plant code that the user's own git runs later,
 * outside any sandbox: the repository's config, hooks, info/, commondir,
 * modules/, worktrees/ and `.gitmodules` are read-only inside the sandbox,
 * `.git` cannot be moved aside and rebuilt, and a worktree's `.git` pointer
 * cannot be redirected. What no mount can refuse (a repository created during
 * the run) is reported. The rest of the workspace, the index and the object
 * store stay writable: git add and commit work in the sandbox.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { detectBashSandbox } from "../../electron/core/tools/bash-sandbox";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";
import { approved, makeFixture, text, type Fixture } from "./helpers";

const info = detectBashSandbox();
const bwrap = info.kind === "bwrap";
const title = bwrap
  ? "bash sandbox (bubblewrap): git cannot be made to run planted code"
  : `bash sandbox: git — skipped: ${info.reason ?? `${info.kind} is not bubblewrap`}`;

const home = mkdtempSync("/var/tmp/awb-git-home-");
const ENV = {
  PATH: process.env.PATH,
  HOME: home,
  LANG: "C.UTF-8",
  GIT_AUTHOR_NAME: "Ada",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada",
  GIT_COMMITTER_EMAIL: "ada@example.com",
};
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** git as the user runs it later: on the host, no sandbox. */
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: ENV, encoding: "utf8" });

describe.skipIf(!bwrap)(title, () => {
  let fx: Fixture;
  let marker: string;
  beforeEach(() => {
    fx = makeFixture({ env: ENV });
    // Outside the sandbox's private /tmp: a planted command that ran would leave it here.
    marker = join(home, `pwned-${Math.random().toString(36).slice(2)}`);
    git(fx.ws, "init", "-q");
    writeFileSync(join(fx.ws, "a.txt"), "a\n");
    writeFileSync(join(fx.ws, ".gitmodules"), "");
    git(fx.ws, "add", ".");
    git(fx.ws, "commit", "-qm", "first");
  });
  afterEach(() => fx.cleanup());

  const run = async (command: string, f: Fixture = fx) => {
    const outcome = await approved(f.runtime, "bash", { command });
    return { outcome, seen: text(f.runtime, outcome) };
  };

  it(
    "git config core.fsmonitor fails inside the sandbox, and the user's next git status runs nothing",
    async () => {
      const config = readFileSync(join(fx.ws, ".git", "config"), "utf8");
      const { seen } = await run(
        `git config core.fsmonitor "touch ${marker}"; git config alias.st "!touch ${marker}"; echo x >> .git/config`,
      );
      expect(seen).toMatch(/could not (write|lock) config file|Read-only file system|Device or resource busy/);
      // The clear message: which paths are read-only and where to go instead.
      expect(seen).toContain("read-only inside the sandbox");
      expect(seen).toContain("Run unsandboxed");
      expect(readFileSync(join(fx.ws, ".git", "config"), "utf8")).toBe(config);
      git(fx.ws, "status");
      expect(existsSync(marker)).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a hook cannot be written, nor .git moved aside and rebuilt with one",
    async () => {
      const { seen } = await run(
        [
          `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/pre-commit`,
          "chmod +x .git/hooks/pre-commit",
          "mv .git .git-aside",
          "mv .git/hooks .git/hooks-aside",
          "echo done",
        ].join("; "),
      );
      expect(seen).toMatch(/Read-only file system/);
      expect(seen).toMatch(/Device or resource busy/);
      expect(existsSync(join(fx.ws, ".git", "hooks", "pre-commit"))).toBe(false);
      expect(existsSync(join(fx.ws, ".git-aside"))).toBe(false);
      writeFileSync(join(fx.ws, "b.txt"), "b\n");
      git(fx.ws, "add", "b.txt");
      git(fx.ws, "commit", "-qm", "second");
      expect(existsSync(marker)).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    ".gitmodules and .git/info/attributes cannot be written, a planted .git/commondir is reported, a nested user namespace undoes nothing",
    async () => {
      const { outcome, seen } = await run(
        [
          "echo '[submodule \"x\"]' >> .gitmodules",
          "echo '* filter=evil' > .git/info/attributes",
          "echo /elsewhere > .git/commondir",
          // Root in a new user namespace, but the sandbox's mounts are locked there.
          "unshare -Urm sh -c 'umount .git/config; umount -l .git; echo y >> .git/config' 2>&1",
          "echo done",
        ].join("; "),
      );
      expect(seen).toContain("done");
      expect(readFileSync(join(fx.ws, ".gitmodules"), "utf8")).toBe("");
      expect(existsSync(join(fx.ws, ".git", "info", "attributes"))).toBe(false);
      expect(readFileSync(join(fx.ws, ".git", "config"), "utf8")).not.toContain("y\n");
      // commondir did not exist, so no mount could refuse it: the run reports it.
      expect(outcome.details?.gitWarnings).toEqual([expect.stringContaining(".git/commondir")]);
      expect(seen).toContain(".git/commondir");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "the workspace, the index and the objects stay writable: git add and commit work in the sandbox",
    async () => {
      const { seen } = await run("echo new > new.txt && git add new.txt && git commit -qm 'from the sandbox' && git log --oneline | wc -l");
      expect(seen).toMatch(/^2$/m);
      expect(git(fx.ws, "log", "--format=%s", "-1").trim()).toBe("from the sandbox");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a worktree's .git pointer cannot be redirected, and its git folder inside the workspace is protected too",
    async () => {
      const sep = makeFixture({ env: ENV });
      try {
        // `.git` is a file (gitdir: …) pointing at a git folder elsewhere in the workspace.
        git(sep.ws, "init", "-q", `--separate-git-dir=${join(sep.ws, "repo-data")}`);
        const pointer = readFileSync(join(sep.ws, ".git"), "utf8");
        const { seen } = await run(
          [
            `git config core.fsmonitor "touch ${marker}"`,
            "echo 'gitdir: /elsewhere' > .git",
            `printf '#!/bin/sh\\ntouch ${marker}\\n' > repo-data/hooks/post-checkout`,
            "mv repo-data repo-aside",
            "echo done",
          ].join("; "),
          sep,
        );
        expect(seen).toContain("done");
        expect(readFileSync(join(sep.ws, ".git"), "utf8")).toBe(pointer);
        expect(readFileSync(join(sep.ws, "repo-data", "config"), "utf8")).not.toContain("fsmonitor");
        expect(existsSync(join(sep.ws, "repo-data", "hooks", "post-checkout"))).toBe(false);
        git(sep.ws, "status");
        expect(existsSync(marker)).toBe(false);
      } finally {
        sep.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a repository the command creates where there was none is reported on the card and to the model",
    async () => {
      const plain = makeFixture({ env: ENV });
      try {
        const { outcome, seen } = await run(`git init -q && git config core.fsmonitor "touch ${marker}" && echo made`, plain);
        expect(seen).toContain("made");
        expect(outcome.details?.gitWarnings).toEqual([expect.stringContaining(".git")]);
        expect(seen).toMatch(/created .*\.git.*not protected/i);
      } finally {
        plain.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a nested repository registered in the index (git status would enter it) is reported",
    async () => {
      const { outcome, seen } = await run(
        [
          "mkdir -p vendor/lib && cd vendor/lib && git init -q",
          `git config core.fsmonitor "touch ${marker}"`,
          "git commit -q --allow-empty -m x && cd ../..",
          "git update-index --add --cacheinfo 160000,$(git -C vendor/lib rev-parse HEAD),vendor/lib",
          "echo planted",
        ].join(" && "),
      );
      expect(seen).toContain("planted");
      expect(outcome.details?.gitWarnings).toEqual([expect.stringContaining("vendor/lib/.git")]);
      expect(seen).toContain("vendor/lib/.git");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "an existing nested repository's config and hooks are read-only too",
    async () => {
      mkdirSync(join(fx.ws, "sub"));
      git(join(fx.ws, "sub"), "init", "-q");
      const { seen } = await run(`cd sub && git config core.fsmonitor "touch ${marker}"; echo x > .git/hooks/pre-commit; echo done`);
      expect(seen).toContain("done");
      expect(readFileSync(join(fx.ws, "sub", ".git", "config"), "utf8")).not.toContain("fsmonitor");
      expect(existsSync(join(fx.ws, "sub", ".git", "hooks", "pre-commit"))).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
