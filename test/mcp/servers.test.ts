/**
 * The MCP client against real servers from npm (server-everything over stdio
 * and streamable HTTP, server-filesystem on a temp folder) and our flaky
 * fixture, through the tool runtime: listing, calls, approval, failures.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpWorkspace, type McpWorkspaceStatus } from "../../electron/core/mcp/manager";
import { createToolRuntime, type ToolRuntime } from "../../electron/core/tools";
import { EVERYTHING_BIN, FILESYSTEM_BIN, FLAKY_SERVER, startEverythingHttp } from "./helpers";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

interface Setup {
  dir: string;
  mcp: McpWorkspace;
  runtime: ToolRuntime;
  statuses: McpWorkspaceStatus[];
}

async function setup(servers: Record<string, unknown>): Promise<Setup> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "awb-mcp-")));
  writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
  const statuses: McpWorkspaceStatus[] = [];
  const mcp = new McpWorkspace({
    workspaceRoot: dir,
    configDir: join(dir, "no-user-config"),
    env: process.env,
    clientVersion: "test",
    // Trust itself is tested in mcp-trust.test.ts; here every workspace server is trusted.
    trust: { verdict: () => ({ trusted: true }) },
    onStatus: (s) => statuses.push(s),
  });
  await mcp.whenStarted(150_000);
  const runtime = createToolRuntime({ workspaceRoot: dir, externalTools: () => mcp.toolSet() });
  return { dir, mcp, runtime, statuses };
}

function textOf(runtime: ToolRuntime, outcome: Awaited<ReturnType<ToolRuntime["runReadOnly"]>>): string {
  return runtime
    .toResultMessage({ id: "x", name: "x" }, outcome)
    .content.map((b) => (b.type === "text" ? b.text : `[image ${b.mimeType}]`))
    .join("\n");
}

/** Every MCP tool asks, whatever its annotations say (docs/mcp-trust.md): approved here, once. */
function approved(runtime: ToolRuntime, c: ReturnType<typeof call>) {
  return runtime.run(c, { ask: () => Promise.resolve({ approved: true }) });
}

let n = 0;
const call = (name: string, args: Record<string, unknown> = {}) => ({ id: `call_${++n}`, name, arguments: args });

describe("MCP: server-everything over stdio", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup({ everything: { command: process.execPath, args: [EVERYTHING_BIN, "stdio"] } });
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await s.mcp.close();
    rmSync(s.dir, { recursive: true, force: true });
  });

  it("lists the server's tools under namespaced names, with their schemas, and reports ready with N tools", () => {
    const status = s.mcp.status().servers[0];
    expect(status).toMatchObject({ name: "everything", state: "ready", transport: "stdio", source: "workspace" });
    expect(status.toolCount).toBeGreaterThan(5);
    const names = s.runtime.specs().map((t) => t.name);
    expect(names).toContain("read");
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__everything__get-sum");
    const sum = s.runtime.specs().find((t) => t.name === "mcp__everything__get-sum");
    expect(sum?.parameters).toMatchObject({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } } });
    expect(sum?.parameters).not.toHaveProperty("$schema");
    expect(s.statuses.some((st) => st.servers[0]?.state === "starting")).toBe(true);
  });

  it("a tool the server marks read-only (readOnlyHint) is still proposed and asked; approved, it maps text, images and structured content", async () => {
    expect(s.runtime.tier("mcp__everything__echo")).toBe("sideEffect");
    const proposed = await s.runtime.propose(call("mcp__everything__echo", { message: "unasked" }));
    if (!("proposal" in proposed)) throw new Error("expected a proposal");
    expect(proposed.proposal.preview).toMatchObject({ kind: "mcp", tool: "echo", readOnlyHint: true });
    expect(s.runtime.decide(proposed.proposal)).toBe("ask");
    expect((await s.runtime.execute(proposed.proposal)).ok).toBe(false);
    const unanswered = await s.runtime.run(call("mcp__everything__echo", { message: "no one asked" }));
    expect(unanswered.ok).toBe(false);
    const echo = await approved(s.runtime, call("mcp__everything__echo", { message: "hi there" }));
    expect(echo.ok).toBe(true);
    expect(textOf(s.runtime, echo)).toBe("Echo: hi there");

    const image = await approved(s.runtime, call("mcp__everything__get-tiny-image"));
    expect(image.ok && image.content.some((b) => b.type === "image" && b.mimeType === "image/png" && b.data.length > 10)).toBe(true);

    const structured = await approved(s.runtime, call("mcp__everything__get-structured-content", { location: "New York" }));
    expect(structured.ok).toBe(true);
    expect(structured.details?.structuredContent).toBeTypeOf("object");
  });

  it("a tool without readOnlyHint goes through proposal → approval, previewing the server, tool and arguments", async () => {
    expect(s.runtime.tier("mcp__everything__toggle-simulated-logging")).toBe("sideEffect");
    const proposed = await s.runtime.propose(call("mcp__everything__toggle-simulated-logging"));
    if (!("proposal" in proposed)) throw new Error("expected a proposal");
    expect(proposed.proposal.preview).toEqual({
      kind: "mcp",
      server: "everything",
      tool: "toggle-simulated-logging",
      argsJson: "{}",
      readOnlyHint: false,
    });
    expect(s.runtime.decide(proposed.proposal)).toBe("ask");
    const refused = await s.runtime.execute(proposed.proposal);
    expect(refused.ok).toBe(false);
    s.runtime.approve(proposed.proposal);
    const done = await s.runtime.execute(proposed.proposal);
    expect(done.ok).toBe(true);
    expect(textOf(s.runtime, done)).toMatch(/logging/i);
  });

  it("a server error for bad arguments comes back as a typed error result", async () => {
    const bad = await approved(s.runtime, call("mcp__everything__get-sum", { a: "one" }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(["TOOL_FAILED", "SERVER_UNAVAILABLE"]).toContain(bad.error.errorCode);
  });
});

describe("MCP: server-everything over streamable HTTP", () => {
  let s: Setup;
  let http: Awaited<ReturnType<typeof startEverythingHttp>>;
  beforeAll(async () => {
    http = await startEverythingHttp();
    s = await setup({ web: { type: "http", url: http.url, headers: { "X-Test": "${AWB_TEST_HEADER:-none}" } } });
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await s.mcp.close();
    http.stop();
    rmSync(s.dir, { recursive: true, force: true });
  });

  it("lists tools and round-trips a call", async () => {
    expect(s.mcp.status().servers[0]).toMatchObject({ name: "web", transport: "http", state: "ready" });
    const sum = await approved(s.runtime, call("mcp__web__get-sum", { a: 2, b: 40 }));
    expect(textOf(s.runtime, sum)).toContain("42");
  });
});

describe("MCP: server-filesystem scoped to a temp folder", () => {
  let s: Setup;
  let scope: string;
  beforeAll(async () => {
    scope = realpathSync(mkdtempSync(join(tmpdir(), "awb-mcp-fs-")));
    writeFileSync(join(scope, "hello.txt"), "hello from the scoped folder\n");
    s = await setup({ fs: { command: process.execPath, args: [FILESYSTEM_BIN, scope] } });
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await s.mcp.close();
    rmSync(s.dir, { recursive: true, force: true });
    rmSync(scope, { recursive: true, force: true });
  });

  it("reads inside the scope, refuses outside it, and writes only after approval", async () => {
    const read = await approved(s.runtime, call("mcp__fs__read_text_file", { path: join(scope, "hello.txt") }));
    expect(textOf(s.runtime, read)).toContain("hello from the scoped folder");
    const outside = await approved(s.runtime, call("mcp__fs__read_text_file", { path: "/etc/hostname" }));
    expect(outside.ok).toBe(false);

    expect(s.runtime.tier("mcp__fs__write_file")).toBe("sideEffect");
    const target = join(scope, "new.txt");
    const denied = await s.runtime.run(call("mcp__fs__write_file", { path: target, content: "x" }), {
      ask: () => Promise.resolve({ approved: false, reason: "no" }),
    });
    expect(denied.ok).toBe(false);
    const written = await s.runtime.run(call("mcp__fs__write_file", { path: target, content: "written via MCP" }), {
      ask: () => Promise.resolve({ approved: true }),
    });
    expect(written.ok).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("written via MCP");
  });
});

describe("MCP: a server that crashes, hangs or sends garbage costs only its own tools", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup({
      flaky: { command: process.execPath, args: [FLAKY_SERVER], timeout: 1500 },
      broken: { command: process.execPath, args: [FLAKY_SERVER, "--fail-start"] },
      everything: { command: process.execPath, args: [EVERYTHING_BIN, "stdio"] },
    });
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await s.mcp.close();
    rmSync(s.dir, { recursive: true, force: true });
  });

  it("a server that fails to start is 'failed' with its stderr tail; the others are ready", () => {
    const byName = Object.fromEntries(s.mcp.status().servers.map((x) => [x.name, x]));
    expect(byName.broken.state).toBe("failed");
    expect(byName.broken.stderrTail).toContain("missing database");
    expect(byName.flaky.state).toBe("ready");
    expect(byName.everything.state).toBe("ready");
  });

  it("garbage on stdout does not break the connection", async () => {
    const out = await approved(s.runtime, call("mcp__flaky__garbage"));
    expect(textOf(s.runtime, out)).toBe("survived garbage");
  });

  it("a hanging call times out with a typed error", async () => {
    const out = await approved(s.runtime, call("mcp__flaky__hang"));
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.errorCode).toBe("TIMEOUT");
  });

  it("killed mid-call: the call gets an error result, the server is failed, other servers keep working, and restart brings it back", async () => {
    const out = await approved(s.runtime, call("mcp__flaky__crash"));
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.errorCode).toBe("SERVER_UNAVAILABLE");
    const flaky = s.mcp.status().servers.find((x) => x.name === "flaky");
    expect(flaky?.state).toBe("failed");
    expect(flaky?.stderrTail).toContain("crashing on purpose");
    // Its tools are gone from the next turn's offer; the call by name answers a typed error.
    expect(s.runtime.specs().some((t) => t.name.startsWith("mcp__flaky__"))).toBe(false);
    const gone = await approved(s.runtime, call("mcp__flaky__ping"));
    expect(gone.ok).toBe(false);
    const other = await approved(s.runtime, call("mcp__everything__echo", { message: "still here" }));
    expect(textOf(s.runtime, other)).toBe("Echo: still here");

    expect(await s.mcp.restart("flaky")).toBe(true);
    expect(s.mcp.status().servers.find((x) => x.name === "flaky")?.state).toBe("ready");
    const back = await approved(s.runtime, call("mcp__flaky__ping"));
    expect(textOf(s.runtime, back)).toBe("pong");
  });

  it("structured content of a side-effect tool lands in details", async () => {
    const out = await s.runtime.run(call("mcp__flaky__write_note", { text: "n1" }), { ask: () => Promise.resolve({ approved: true }) });
    expect(out.ok && out.details?.structuredContent).toEqual({ stored: "n1" });
  });
});
