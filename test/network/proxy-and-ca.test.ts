/**
 * Provider calls on real networks: the faux provider reached through a real
 * forward proxy (npm `proxy`, CONNECT) and over HTTPS with a certificate from
 * a test CA. What the user depends on: HTTPS_PROXY / NO_PROXY are honoured,
 * a CA file (Settings or NODE_EXTRA_CA_CERTS) makes a TLS-inspecting network
 * work, and a proxy or certificate failure is one clear, retryable line.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createProxy } from "proxy";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { reply, startFauxProvider, text, type FauxProvider } from "../../electron/core/faux";
import { createNodeNetwork, NetworkSetupError, type NodeNetwork } from "../../electron/core/network/node-fetch";
import { streamModel } from "../../electron/core/providers";
import type { StreamEvent } from "../../electron/core/providers/types";
import type { FauxRoute } from "../../electron/core/faux";
import { API_KEY, context, fakeAwsCredentials, targets, user } from "../providers/adapters-fixtures";
import { makeTestCa, type TestCa } from "./test-ca";

let ca: TestCa;
let plain: FauxProvider;
let secure: FauxProvider;
let proxy: Server;
let proxyUrl: string;
/** The CONNECT targets the proxy was asked for, in order. */
let tunnels: string[] = [];
const networks: NodeNetwork[] = [];

beforeAll(async () => {
  fakeAwsCredentials();
  ca = makeTestCa();
  plain = await startFauxProvider();
  secure = await startFauxProvider({ tls: { key: ca.key, cert: ca.cert } });
  proxy = createProxy(createServer());
  proxy.on("connect", (req: { url?: string }) => tunnels.push(req.url ?? ""));
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(networks.map((n) => n.close()));
  await plain.close();
  await secure.close();
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  ca.remove();
});
afterEach(() => {
  tunnels = [];
  plain.reset();
  secure.reset();
});

function network(env: Record<string, string | undefined>, caFile?: string): NodeNetwork {
  const made = createNodeNetwork({ env, caFile });
  networks.push(made);
  return made;
}

async function ask(faux: FauxProvider, net: NodeNetwork, route: FauxRoute = "anthropic"): Promise<StreamEvent> {
  faux.script(reply([text("through")]));
  const target = targets(faux)[route];
  let last: StreamEvent | undefined;
  for await (const event of streamModel(target.model, target.provider, context([user("hi")]), { apiKey: API_KEY, fetch: net.fetch }))
    last = event;
  if (!last) throw new Error("no events");
  return last;
}

const hostOf = (faux: FauxProvider) => new URL(faux.baseUrls.anthropic).host;

describe("a forward proxy from the environment", () => {
  it("HTTPS_PROXY / HTTP_PROXY carry the call through the proxy (CONNECT), and the provider answers", async () => {
    const last = await ask(plain, network({ HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl }), "openai-responses");
    expect(last.type === "done" && last.message.content).toEqual([{ type: "text", text: "through" }]);
    expect(tunnels).toEqual([hostOf(plain)]);
    expect(plain.requests.map((r) => r.accepted)).toEqual([true]);
  });

  it("lower-case https_proxy works too, and HTTPS through the proxy with the test CA trusted", async () => {
    const last = await ask(secure, network({ https_proxy: proxyUrl }, ca.caFile));
    expect(last.type).toBe("done");
    expect(tunnels).toEqual([hostOf(secure)]);
  });

  it("NO_PROXY sends the listed host directly", async () => {
    const last = await ask(plain, network({ HTTP_PROXY: proxyUrl, NO_PROXY: "127.0.0.1" }));
    expect(last.type).toBe("done");
    expect(tunnels).toEqual([]);
  });

  it("a proxy that refuses the connection is one clear, retryable line naming it and what to check", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const last = await ask(plain, network({ HTTP_PROXY: `http://127.0.0.1:${port}` }));
    expect(last.type).toBe("error");
    if (last.type !== "error") return;
    expect(last.retryable).toBe(true);
    expect(last.message.errorMessage).toBe(
      `network error: the proxy 127.0.0.1:${port} (HTTP_PROXY) refused the connection: check HTTP_PROXY, or list ${hostOf(plain)} in NO_PROXY`,
    );
    expect(plain.requests).toHaveLength(0);
  });

  it("a proxy that answers CONNECT with 407 says it wants credentials", async () => {
    const strict = createProxy(createServer());
    strict.authenticate = () => false;
    await new Promise<void>((resolve) => strict.listen(0, "127.0.0.1", resolve));
    const address = `127.0.0.1:${(strict.address() as AddressInfo).port}`;
    try {
      const last = await ask(plain, network({ HTTPS_PROXY: `http://${address}`, HTTP_PROXY: `http://${address}` }));
      expect(last.type === "error" && last.retryable).toBe(true);
      expect(last.type === "error" && last.message.errorMessage).toMatch(
        new RegExp(
          `^network error: the proxy ${address} \\(HTTPS_PROXY\\) refused the tunnel to ${hostOf(plain)} with 407: it wants credentials`,
        ),
      );
    } finally {
      strict.closeAllConnections();
      await new Promise<void>((resolve) => strict.close(() => resolve()));
    }
  });
});

describe("certificates", () => {
  it("the provider over HTTPS with a certificate from a CA Node does not know: one clear line with what to set, retryable", async () => {
    const last = await ask(secure, network({}));
    expect(last.type).toBe("error");
    if (last.type !== "error") return;
    expect(last.retryable).toBe(true);
    expect(last.message.errorMessage).toMatch(
      new RegExp(
        `^network error: the certificate of ${hostOf(secure).replace(/\./g, "\\.")} is not trusted \\([A-Z_]+\\): add the CA certificate \\(PEM\\) of your network or proxy in Settings → Network → CA file, or set NODE_EXTRA_CA_CERTS$`,
      ),
    );
    expect(secure.requests).toHaveLength(0);
  });

  it("trusted through the CA file from Settings: the call works and Node's own roots stay trusted", async () => {
    const net = network({}, ca.caFile);
    const last = await ask(secure, net);
    expect(last.type === "done" && last.message.content).toEqual([{ type: "text", text: "through" }]);
    expect(secure.requests.map((r) => r.accepted)).toEqual([true]);
  });

  it("trusted through NODE_EXTRA_CA_CERTS", async () => {
    const last = await ask(secure, network({ NODE_EXTRA_CA_CERTS: ca.caFile }));
    expect(last.type).toBe("done");
  });

  it("a CA file that is missing or holds no certificate is refused with its path and the setting it came from", () => {
    expect(() => createNodeNetwork({ env: {}, caFile: `${ca.dir}/nope.pem` })).toThrow(NetworkSetupError);
    expect(() => createNodeNetwork({ env: {}, caFile: `${ca.dir}/nope.pem` })).toThrow(
      `the CA file ${ca.dir}/nope.pem (Settings → Network → CA file) cannot be read (ENOENT)`,
    );
    expect(() => createNodeNetwork({ env: { NODE_EXTRA_CA_CERTS: `${ca.dir}/server.csr` } })).toThrow(/holds no PEM certificate/);
  });
});

// Gemini (@google/genai) and Bedrock (the AWS SDK's fetch handler) take the same fetch as the others.
describe.each(["gemini", "bedrock"] as const)("%s on the same network settings", (route) => {
  it("goes through the proxy from the environment, over HTTPS with the CA file trusted", async () => {
    const last = await ask(secure, network({ HTTPS_PROXY: proxyUrl }, ca.caFile), route);
    expect(last.type === "done" && last.message.content).toEqual([{ type: "text", text: "through" }]);
    expect(tunnels).toEqual([hostOf(secure)]);
    expect(secure.requests.map((r) => [r.route, r.accepted])).toEqual([[route, true]]);
  });

  it("without the CA: the same clear, retryable certificate error, nothing sent", async () => {
    const last = await ask(secure, network({}), route);
    expect(last.type === "error" && last.retryable).toBe(true);
    expect(last.type === "error" && last.message.errorMessage).toMatch(
      new RegExp(
        `^network error: the certificate of ${hostOf(secure).replace(/\./g, "\\.")} is not trusted \\([A-Z_]+\\): add the CA certificate`,
      ),
    );
    expect(secure.requests).toHaveLength(0);
  });

  it("a proxy that refuses the connection is named", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const last = await ask(plain, network({ HTTP_PROXY: `http://127.0.0.1:${port}` }), route);
    expect(last.type === "error" && last.message.errorMessage).toBe(
      `network error: the proxy 127.0.0.1:${port} (HTTP_PROXY) refused the connection: check HTTP_PROXY, or list ${hostOf(plain)} in NO_PROXY`,
    );
  });
});
