/**
 * webfetch against real servers on loopback: the page converted to markdown
 * (turndown), truncation with an offset to read on, approval per host with
 * host rules (no rule over a public suffix), loopback refused by default
 * (also when a name resolves to loopback only at connect time), redirects to
 * another host not followed, the request carrying nothing but the URL, and
 * the app's proxy from the environment.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProxy } from "proxy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRuntime, type Proposal, type ToolRuntime, type UserAnswer } from "../../electron/core/tools";
import { errorText } from "../../electron/core/tools";
import { fetchPage } from "../../electron/core/webfetch/fetch-page";
import { hostCovers, hostRuleProblem, suggestHostRules } from "../../electron/core/webfetch/hosts";
import { isPrivateAddress } from "../../electron/core/webfetch/address";

const PAGE = `<!doctype html><html><head><title>T</title><style>body{color:red}</style><script>window.secret = "SCRIPT-BODY"</script></head>
<body><h1>Release notes</h1><p>Version <strong>2.0</strong> adds <a href="/docs">the docs</a>.</p><ul><li>one</li><li>two</li></ul></body></html>`;

let server: Server;
let base: string;
let seen: IncomingMessage[] = [];
let proxy: Server;
let proxyUrl: string;
let tunnels: string[] = [];
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "webfetch-ws-"));
  server = createServer((req, res) => {
    seen.push(req);
    if (req.url === "/page") return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    if (req.url === "/long") return res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(100_000) + "END");
    if (req.url === "/away") return res.writeHead(302, { location: "http://example.org/elsewhere" }).end();
    if (req.url === "/here") return res.writeHead(301, { location: "/page" }).end();
    if (req.url === "/bin") return res.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.alloc(10));
    res.writeHead(404).end("no");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy = createProxy(createServer());
  proxy.on("connect", (req: { url?: string }) => tunnels.push(req.url ?? ""));
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  proxy.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await new Promise<void>((r) => proxy.close(() => r()));
  rmSync(root, { recursive: true, force: true });
});

function runtime(
  opts: { allowPrivate?: boolean; env?: Record<string, string>; hostAllow?: string[]; hostDeny?: string[] } = {},
): ToolRuntime {
  return createToolRuntime({
    workspaceRoot: root,
    env: opts.env ?? {},
    policy: {
      write: "ask",
      edit: "ask",
      bash: "ask",
      bashAllow: [],
      bashDeny: [],
      hostAllow: opts.hostAllow ?? [],
      hostDeny: opts.hostDeny ?? [],
    },
    webFetch: () => ({ caFile: null, allowPrivate: opts.allowPrivate ?? false }),
  });
}

/** Runs one webfetch call; `answer` is the user's (recorded in `asked`). */
async function fetchCall(rt: ToolRuntime, args: Record<string, unknown>, answer: UserAnswer = { approved: true }) {
  const asked: Proposal[] = [];
  const outcome = await rt.run(
    { id: `c${Math.random()}`, name: "webfetch", arguments: args },
    {
      ask: async (p) => {
        asked.push(p);
        return answer;
      },
    },
  );
  const text = outcome.ok ? outcome.content.map((c) => (c.type === "text" ? c.text : "")).join("") : errorText(outcome.error);
  return { outcome, text, asked };
}

describe("webfetch through a loopback server (private addresses allowed)", () => {
  it("turns the HTML into markdown: headings, emphasis, links, lists; scripts and styles dropped", async () => {
    const { outcome, text, asked } = await fetchCall(runtime({ allowPrivate: true }), { url: `${base}/page` });
    expect(outcome.ok).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0].preview).toEqual({ kind: "fetch", url: `${base}/page`, host: "127.0.0.1" });
    expect(text).toContain("# Release notes");
    expect(text).toContain("Version **2.0** adds [the docs](/docs).");
    expect(text).toMatch(/-\s+one\n-\s+two/);
    expect(text).not.toMatch(/^T$/m);
    expect(text).not.toContain("SCRIPT-BODY");
    expect(text).not.toContain("color:red");
  });

  it("sends only the URL: a GET with no body, no cookie, no authorization, a fixed user agent", async () => {
    seen = [];
    await fetchCall(runtime({ allowPrivate: true }), { url: `${base}/page?q=1` });
    expect(seen).toHaveLength(1);
    const req = seen[0];
    expect(req.method).toBe("GET");
    expect(req.url).toBe("/page?q=1");
    expect(req.headers.cookie).toBeUndefined();
    expect(req.headers.authorization).toBeUndefined();
    expect(req.headers["content-length"]).toBeUndefined();
    expect(req.headers["user-agent"]).toBe("AgentWorkbench-webfetch/1");
  });

  it("cuts a long page with a hint, and offset reads on to the end", async () => {
    const rt = runtime({ allowPrivate: true });
    const first = await fetchCall(rt, { url: `${base}/long` });
    expect(first.text).toContain("[The page was cut at character 40000 of 100003: call webfetch with offset 40000 to read on.]");
    expect(first.outcome.ok && first.outcome.details?.truncated).toBe(true);
    const last = await fetchCall(rt, { url: `${base}/long`, offset: 80_000 });
    expect(last.text).toContain("Characters 80000–100003 of 100003.");
    expect(last.text.trimEnd().endsWith("END")).toBe(true);
    expect(last.outcome.ok && last.outcome.details?.truncated).toBe(false);
  });

  it("follows a redirect on the same host, not one to another host (that host is asked on its own)", async () => {
    const rt = runtime({ allowPrivate: true });
    const same = await fetchCall(rt, { url: `${base}/here` });
    expect(same.text).toContain("# Release notes");
    const away = await fetchCall(rt, { url: `${base}/away` });
    expect(away.outcome.ok).toBe(false);
    expect(away.text).toContain("redirects to another host: http://example.org/elsewhere");
  });

  it("refuses binary content and reports HTTP errors as typed errors", async () => {
    const rt = runtime({ allowPrivate: true });
    const bin = await fetchCall(rt, { url: `${base}/bin` });
    expect(!bin.outcome.ok && bin.outcome.error.errorCode).toBe("BINARY_FILE");
    const missing = await fetchCall(rt, { url: `${base}/nope` });
    expect(!missing.outcome.ok && missing.outcome.error.errorCode).toBe("NOT_FOUND");
  });
});

describe("loopback and private addresses are refused by default", () => {
  it("a loopback URL is refused before anyone is asked, and the server sees nothing", async () => {
    seen = [];
    for (const url of [`${base}/page`, "http://localhost:1/", "http://[::1]:1/", "http://[::ffff:127.0.0.1]:1/", "http://10.1.2.3/"]) {
      const { outcome, asked } = await fetchCall(runtime(), { url });
      expect(asked).toHaveLength(0);
      expect(!outcome.ok && outcome.error.errorCode).toBe("DENIED");
    }
    expect(seen).toHaveLength(0);
  });

  it("a name that resolves to loopback only when connecting (DNS rebinding) is refused at connect time", async () => {
    seen = [];
    const port = (server.address() as AddressInfo).port;
    let lookups = 0;
    // First answer public (the check before sending), then loopback (the socket's own lookup).
    const resolve = (_host: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) => {
      lookups++;
      cb(null, [{ address: lookups === 1 ? "93.184.215.14" : "127.0.0.1", family: 4 }]);
    };
    const result = await fetchPage(new URL(`http://rebind.example:${port}/page`), { env: {}, allowPrivate: false, resolve });
    expect(lookups).toBeGreaterThanOrEqual(2);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.failure.kind).toBe("private");
    expect(!result.ok && result.failure.message).toContain("127.0.0.1 when connecting");
    expect(seen).toHaveLength(0);
  });

  it("classifies addresses: loopback, private, link-local, CGNAT, mapped and NAT64 forms private; public ones not", () => {
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::10.0.0.1",
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ["93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]) expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe("approval per host", () => {
  it("approved for the session by host: the next call to that host is not asked, another host is", async () => {
    const rt = runtime({ allowPrivate: true });
    const first = await fetchCall(rt, { url: `${base}/page` }, { approved: true, forSession: true, rule: "127.0.0.1" });
    expect(first.asked).toHaveLength(1);
    const again = await fetchCall(rt, { url: `${base}/long` });
    expect(again.asked).toHaveLength(0);
    expect(again.outcome.ok).toBe(true);
    const other = await fetchCall(rt, { url: "http://example.invalid/" }, { approved: false, reason: "not that one" });
    expect(other.asked).toHaveLength(1);
    expect(!other.outcome.ok && errorText(other.outcome.error)).toContain("not that one");
  });

  it("saved host rules decide: allow without asking, deny wins over allow", async () => {
    const allowed = await fetchCall(runtime({ allowPrivate: true, hostAllow: ["127.0.0.1"] }), { url: `${base}/page` });
    expect(allowed.asked).toHaveLength(0);
    expect(allowed.outcome.ok).toBe(true);
    seen = [];
    const denied = await fetchCall(runtime({ allowPrivate: true, hostAllow: ["127.0.0.1"], hostDeny: ["127.0.0.1"] }), {
      url: `${base}/page`,
    });
    expect(denied.asked).toHaveLength(0);
    expect(!denied.outcome.ok && denied.outcome.error.errorCode).toBe("DENIED");
    expect(seen).toHaveLength(0);
  });

  it("no rule over a public suffix: *.co.uk, *.github.io and * are refused; the card offers the host and its own domain", async () => {
    expect(hostRuleProblem("*.co.uk")).toMatch(/public suffix/);
    expect(hostRuleProblem("*.github.io")).toMatch(/public suffix/);
    expect(hostRuleProblem("*.com")).toMatch(/public suffix/);
    expect(hostRuleProblem("*")).not.toBeNull();
    expect(hostRuleProblem("https://x.org/")).not.toBeNull();
    expect(hostRuleProblem("*.bbc.co.uk")).toBeNull();
    expect(suggestHostRules("www.bbc.co.uk")).toEqual(["www.bbc.co.uk", "*.bbc.co.uk"]);
    expect(suggestHostRules("alice.github.io")).toEqual(["alice.github.io", "*.alice.github.io"]);
    expect(hostCovers("*.python.org", "docs.python.org")).toBe(true);
    expect(hostCovers("*.python.org", "python.org")).toBe(true);
    expect(hostCovers("*.python.org", "evilpython.org")).toBe(false);
    expect(hostCovers("*.co.uk", "bbc.co.uk")).toBe(false);
    const rt = runtime({ allowPrivate: true });
    const proposed = await rt.propose({ id: "p1", name: "webfetch", arguments: { url: "https://www.bbc.co.uk/news" } });
    expect("proposal" in proposed).toBe(true);
    if (!("proposal" in proposed)) return;
    expect(rt.checkRule(proposed.proposal, "*.co.uk")).toMatch(/public suffix/);
    expect(rt.checkRule(proposed.proposal, "*.bbc.co.uk")).toBeNull();
    expect(rt.checkRule(proposed.proposal, "example.com")).toMatch(/does not cover this host/);
    rt.cancel(proposed.proposal);
  });

  it("refuses URLs it will not send: other schemes and credentials in the URL", async () => {
    for (const url of ["file:///etc/passwd", "ftp://x.org/", "https://user:pw@example.org/", "not a url"]) {
      const { outcome, asked } = await fetchCall(runtime(), { url });
      expect(asked).toHaveLength(0);
      expect(!outcome.ok && outcome.error.errorCode).toBe("INVALID_ARGUMENTS");
    }
  });
});

describe("through the app's proxy (HTTP_PROXY from the environment)", () => {
  it("the request goes through the proxy and the page comes back", async () => {
    tunnels = [];
    const { outcome, text } = await fetchCall(runtime({ allowPrivate: true, env: { HTTP_PROXY: proxyUrl } }), { url: `${base}/page` });
    expect(outcome.ok).toBe(true);
    expect(text).toContain("# Release notes");
    expect(tunnels).toEqual([new URL(base).host]);
  });

  it("a proxy that refuses the connection is named in the error", async () => {
    const { outcome, text } = await fetchCall(runtime({ allowPrivate: true, env: { HTTP_PROXY: "http://127.0.0.1:1" } }), {
      url: `${base}/page`,
    });
    expect(outcome.ok).toBe(false);
    expect(text).toContain("the proxy 127.0.0.1:1 (HTTP_PROXY) refused the connection");
  });
});
