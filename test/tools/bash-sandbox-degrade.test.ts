/**
 * Where the OS sandbox is missing or cannot start (bwrap not installed, or a
 * container that forbids user namespaces), bash degrades visibly: the probe
 * says why, the approval card says "Not sandboxed" with that reason, and with
 * Settings → Bash sandbox set to "required" the command is refused with a
 * typed SANDBOX_UNAVAILABLE and never runs. Runs everywhere (no sandbox needed).
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { probeBashSandbox, type BashSandboxInfo } from "../../electron/core/tools/bash-sandbox";
import { approved, makeFixture, text } from "./helpers";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A bin folder holding a `bwrap` that fails with `message`, by default the way it does in a container without user namespaces. */
function brokenBwrap(
  message = "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.",
): string {
  const bin = mkdtempSync(join(tmpdir(), "awb-fake-bwrap-"));
  dirs.push(bin);
  writeFileSync(join(bin, "bwrap"), `#!/bin/sh\necho '${message}' >&2\nexit 1\n`);
  chmodSync(join(bin, "bwrap"), 0o755);
  return bin;
}

describe.skipIf(process.platform !== "linux")("bash without a working sandbox (Linux probe)", () => {
  it("bwrap not installed: no sandbox, and the reason says how to get one", () => {
    const empty = mkdtempSync(join(tmpdir(), "awb-empty-path-"));
    dirs.push(empty);
    expect(probeBashSandbox(empty)).toEqual({
      kind: "none",
      reason: expect.stringMatching(/bubblewrap \(bwrap\) is not installed; install the bubblewrap package/),
    });
  });

  it("bwrap that cannot create its namespaces: no sandbox, and the reason quotes bwrap", () => {
    expect(probeBashSandbox(brokenBwrap())).toEqual({
      kind: "none",
      reason: expect.stringMatching(
        /^bubblewrap cannot create its namespaces here \(bwrap: No permissions to creating new namespace.*\); user namespaces may be disabled$/,
      ),
    });
  });

  it("bwrap that cannot load the socket filter (a kernel without seccomp): no sandbox, and the reason says so", () => {
    expect(probeBashSandbox(brokenBwrap("bwrap: prctl(PR_SET_SECCOMP): Invalid argument"))).toEqual({
      kind: "none",
      reason: "bubblewrap cannot load the sandbox's socket filter here (bwrap: prctl(PR_SET_SECCOMP): Invalid argument)",
    });
  });
});

describe("bash degrades visibly per Settings → Bash sandbox", () => {
  const none: BashSandboxInfo = {
    kind: "none",
    reason: "bubblewrap cannot create its namespaces here (bwrap: No permissions to creating new namespace)",
  };

  it('"auto": the card says plainly that the command is not sandboxed and why, and the approved command runs', async () => {
    const fx = makeFixture({ bashSandbox: "auto", bashSandboxInfo: none });
    try {
      const proposed = await fx.runtime.propose({ id: "d1", name: "bash", arguments: { command: "echo ran > ran.txt" } });
      expect("proposal" in proposed && proposed.proposal.preview).toMatchObject({
        sandboxed: false,
        sandbox: expect.stringMatching(
          /^Not sandboxed: bubblewrap cannot create its namespaces here .*The command can read and change anything your user can\.$/,
        ),
      });
      const outcome = await approved(fx.runtime, "bash", { command: "echo ran > ran.txt; echo ok" });
      expect(text(fx.runtime, outcome)).toContain("ok");
      expect(outcome.details?.sandbox).toBe("none");
      expect(existsSync(join(fx.ws, "ran.txt"))).toBe(true);
    } finally {
      fx.cleanup();
    }
  });

  it('"required": the call is refused with a typed SANDBOX_UNAVAILABLE before any approval, and nothing runs', async () => {
    const fx = makeFixture({ bashSandbox: "required", bashSandboxInfo: none });
    try {
      const proposed = await fx.runtime.propose({ id: "d2", name: "bash", arguments: { command: "echo ran > ran.txt" } });
      expect("outcome" in proposed && proposed.outcome).toMatchObject({
        ok: false,
        error: {
          errorCode: "SANDBOX_UNAVAILABLE",
          retryable: false,
          message: expect.stringContaining("No permissions to creating new namespace"),
          hint: expect.stringContaining("Settings → Bash sandbox"),
        },
      });
      let asked = false;
      const outcome = await fx.runtime.run(
        { id: "d3", name: "bash", arguments: { command: "echo ran > ran.txt" } },
        { ask: async () => ((asked = true), { approved: true }) },
      );
      expect(outcome).toMatchObject({ ok: false, error: { errorCode: "SANDBOX_UNAVAILABLE" } });
      expect(asked).toBe(false);
      expect(existsSync(join(fx.ws, "ran.txt"))).toBe(false);
    } finally {
      fx.cleanup();
    }
  });

  it('"required" with a working sandbox runs the command in it', async () => {
    const fx = makeFixture({ bashSandbox: "required", bashSandboxInfo: { kind: "bwrap", binary: "/usr/bin/bwrap" } });
    try {
      const proposed = await fx.runtime.propose({ id: "d4", name: "bash", arguments: { command: "true" } });
      expect("proposal" in proposed && proposed.proposal.preview).toMatchObject({
        sandboxed: true,
        sandbox: expect.stringMatching(/^Sandboxed \(bubblewrap\)/),
      });
    } finally {
      fx.cleanup();
    }
  });
});
