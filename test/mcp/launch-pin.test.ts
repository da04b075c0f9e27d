/**
 * What trusting a workspace MCP server pins (docs/mcp-trust.md): the entry and
 * the workspace files it names, their folder and their package manifest; a
 * file created, changed or swapped for a link later gives another fingerprint,
 * and what cannot be pinned is said.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { McpServerEntry } from "../../electron/core/mcp/config";
import { PIN_MAX_FILES, pinLaunch } from "../../electron/core/mcp/launch-pin";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "awb-pin-"));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const stdio = (command: string, args: string[], extra: Record<string, unknown> = {}): McpServerEntry => ({
  name: "s",
  source: "workspace",
  file: ".mcp.json",
  config: { transport: "stdio", command, args, env: {}, ...extra },
});

describe("the launch pin", () => {
  it("covers the script, the folder it is in and the nearest package manifest, not the rest of the workspace", async () => {
    const ws = workspace({
      "srv/tools/server.mjs": "a",
      "srv/tools/sub/helper.mjs": "b",
      "srv/tools/node_modules/dep/index.js": "c",
      "srv/package.json": "{}",
      "srv/package-lock.json": "{}",
      "package.json": "{}",
      "src/app.ts": "d",
    });
    const pin = await pinLaunch(stdio("node", ["srv/tools/server.mjs", "--stdio"]), ws);
    expect(Object.keys(pin.files).sort()).toEqual([
      "srv/package-lock.json",
      "srv/package.json",
      "srv/tools/server.mjs",
      "srv/tools/sub/helper.mjs",
    ]);
    const again = await pinLaunch(stdio("node", ["srv/tools/server.mjs", "--stdio"]), ws);
    expect(again.fingerprint).toBe(pin.fingerprint);
    writeFileSync(join(ws, "src", "app.ts"), "changed elsewhere");
    expect((await pinLaunch(stdio("node", ["srv/tools/server.mjs", "--stdio"]), ws)).fingerprint).toBe(pin.fingerprint);
    writeFileSync(join(ws, "srv", "tools", "sub", "helper.mjs"), "changed");
    expect((await pinLaunch(stdio("node", ["srv/tools/server.mjs", "--stdio"]), ws)).fingerprint).not.toBe(pin.fingerprint);
  });

  it("a script that is missing when trusted, or swapped for a link leading out later, changes the fingerprint", async () => {
    const ws = workspace({ "package.json": "{}" });
    const outside = workspace({ "evil.mjs": "evil" });
    const entry = stdio("node", ["./server.mjs"], { cwd: "." });
    const missing = await pinLaunch(entry, ws);
    expect(missing.files["server.mjs"]).toBe("missing");
    symlinkSync(join(outside, "evil.mjs"), join(ws, "server.mjs"));
    const linked = await pinLaunch(entry, ws);
    expect(linked.fingerprint).not.toBe(missing.fingerprint);
    expect(linked.files["server.mjs"]).toMatch(/^refused: .*outside the workspace/);
  });

  it("a FIFO beside the script is recorded, never opened, and the pin completes", async () => {
    const ws = workspace({ "tools/server.mjs": "a" });
    expect(spawnSync("mkfifo", [join(ws, "tools", "pipe")]).status).toBe(0);
    const pin = await pinLaunch(stdio("node", ["tools/server.mjs"]), ws);
    expect(pin.files["tools/pipe"]).toBe("not a regular file");
    expect(pin.files["tools/server.mjs"]).toMatch(/^sha256:/);
  });

  it("says what it cannot pin: code fetched at start, files outside the workspace, a folder too large, a remote server", async () => {
    const ws = workspace({ "tools/server.mjs": "a" });
    for (let i = 0; i <= PIN_MAX_FILES; i++) writeFileSync(join(ws, "tools", `f${i}.js`), "x");
    expect((await pinLaunch(stdio("npx", ["-y", "@scope/server"]), ws)).notes).toContain(
      "npx fetches the server's code when it starts: that code is not pinned",
    );
    expect((await pinLaunch(stdio("node", ["/opt/elsewhere/server.js"]), ws)).notes).toContain(
      "/opt/elsewhere/server.js is outside the workspace: not pinned",
    );
    const big = await pinLaunch(stdio("node", ["tools/server.mjs"]), ws);
    expect(big.notes.join("\n")).toMatch(/tools\/ holds more than 500 files .*only the files named are pinned/);
    expect(Object.keys(big.files)).toEqual(["tools/server.mjs"]);
    const http: McpServerEntry = {
      name: "h",
      source: "workspace",
      file: ".mcp.json",
      config: { transport: "http", url: "https://x.example/mcp", headers: {} },
    };
    expect((await pinLaunch(http, ws)).notes).toEqual(["a remote server: what runs behind its URL is not pinned"]);
  });
});
