/**
 * The model reads where its bash commands run, in the bash tool's
 * description, so a sandbox refusal (read-only file system, no network) is
 * recognised rather than retried in another form.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BashSandboxInfo } from "../../electron/core/tools/bash-sandbox";
import { createToolRuntime, type ToolRuntimeOptions } from "../../electron/core/tools/runtime";

const ws = mkdtempSync(join(tmpdir(), "awb-bash-desc-"));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const bwrap: BashSandboxInfo = { kind: "bwrap", binary: "/usr/bin/bwrap" };
const none: BashSandboxInfo = { kind: "none", reason: "bubblewrap (bwrap) is not installed" };

function bashDescription(options: Partial<ToolRuntimeOptions>): string {
  const spec = createToolRuntime({ workspaceRoot: ws, ...options })
    .specs()
    .find((s) => s.name === "bash");
  if (!spec) throw new Error("no bash spec");
  return spec.description;
}

describe("bash description says where commands run", () => {
  it("sandboxed without network: workspace writable, the rest read-only, secrets hidden, no network, do not retry blindly", () => {
    const d = bashDescription({ bashSandboxInfo: bwrap, bashSandbox: "auto" });
    expect(d).toMatch(
      /run in an OS sandbox \(bubblewrap\): the workspace is writable, except git's config and hooks .*; everything else is read-only/,
    );
    expect(d).toContain("~/.ssh, ~/.aws");
    expect(d).toMatch(/There is no network/);
    expect(d).toMatch(/will not go away when the command is retried/);
    expect(d).not.toMatch(/Network access is allowed/);
    // What fails there and why, so the model does not retry it blindly.
    expect(d).toMatch(/git's config and hooks \(\.git\/config, \.git\/hooks.*\), which are read-only \(git add and commit still work\)/);
    expect(d).toMatch(/No Unix socket can be opened \(EPERM\).*node --import tsx/);
  });

  it("sandboxed with network allowed for the session", () => {
    const d = bashDescription({ bashSandboxInfo: bwrap, bashNetwork: true });
    expect(d).toMatch(/OS sandbox/);
    expect(d).toContain("Network access is allowed.");
    expect(d).not.toMatch(/There is no network/);
  });

  it("sandbox turned off, or none on this machine: says the command is not sandboxed", () => {
    for (const d of [bashDescription({ bashSandboxInfo: bwrap, bashSandbox: "off" }), bashDescription({ bashSandboxInfo: none })]) {
      expect(d).toMatch(/run without a sandbox, with all of the user's permissions/);
      expect(d).not.toMatch(/OS sandbox/);
    }
  });

  it("sandbox required but unavailable: says commands are refused and why", () => {
    const d = bashDescription({ bashSandboxInfo: none, bashSandbox: "required" });
    expect(d).toMatch(/Commands are refused here: .*require a sandbox.*bubblewrap \(bwrap\) is not installed/);
  });

  it("the other tools' descriptions are untouched", () => {
    const withBox = createToolRuntime({ workspaceRoot: ws, bashSandboxInfo: bwrap }).specs();
    const without = createToolRuntime({ workspaceRoot: ws, bashSandbox: "off" }).specs();
    expect(withBox.filter((s) => s.name !== "bash")).toEqual(without.filter((s) => s.name !== "bash"));
  });
});
