/**
 * The fetch provider calls use under plain Node (web mode, the CLI): undici's
 * `EnvHttpProxyAgent`, so HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured,
 * and extra trusted CAs (NODE_EXTRA_CA_CERTS, the CA file set in Settings)
 * added to Node's own root certificates. A proxy that fails is named in the
 * error (`NetworkSetupError`), so the user reads which proxy and what to set.
 * See docs/networks.md.
 */
import { readFileSync } from "node:fs";
import type { LookupFunction } from "node:net";
import tls from "node:tls";
import { EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from "undici";

export type FetchFunction = typeof globalThis.fetch;

/**
 * undici's own wait for headers and between body bytes (its default: 300 s),
 * kept well above the app's idle-stream timeout so that one fires first.
 */
export const TRANSPORT_TIMEOUT_MS = 10 * 60 * 1000;

export interface NodeNetworkOptions {
  /** Where HTTPS_PROXY, HTTP_PROXY, NO_PROXY and NODE_EXTRA_CA_CERTS are read (either case). */
  env: Record<string, string | undefined>;
  /** A PEM file of extra trusted CA certificates (Settings → Network → CA file). */
  caFile?: string;
  /** Name resolution for direct connections (not the proxy's): webfetch's guard against private addresses. */
  lookup?: LookupFunction;
}

/** A failure of the network setup (proxy, CA file) already described for the user. */
export class NetworkSetupError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "NetworkSetupError";
  }
}

export interface NodeNetwork {
  fetch: FetchFunction;
  /** The proxies in use, for the record ("https via 10.0.0.1:3128"); empty without one. */
  proxies: string[];
  close(): Promise<void>;
}

function envOf(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM file; a file that cannot be read or holds none is a NetworkSetupError naming it. */
export function readCaFile(path: string, setting: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = typeof err === "object" && err !== null && "code" in err ? ` (${String(err.code)})` : "";
    throw new NetworkSetupError(`the CA file ${path} (${setting}) cannot be read${code}`, err);
  }
  const certs = text.match(PEM_BLOCK) ?? [];
  if (certs.length === 0)
    throw new NetworkSetupError(`the CA file ${path} (${setting}) holds no PEM certificate ("-----BEGIN CERTIFICATE-----")`);
  return certs;
}

/** host:port of a proxy URL, for messages (credentials never shown). */
function proxyAddress(uri: string): { host: string; port: string; label: string } | undefined {
  try {
    const url = new URL(uri.includes("://") ? uri : `http://${uri}`);
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    const host = url.hostname.replace(/^\[|\]$/g, "");
    return { host, port, label: `${url.hostname}:${port}` };
  } catch {
    // Not a URL: no proxy address to name in the message.
    return undefined;
  }
}

interface ErrorLink {
  code?: unknown;
  message?: unknown;
  address?: unknown;
  hostname?: unknown;
  port?: unknown;
  cause?: unknown;
}

function* chain(err: unknown): Generator<ErrorLink> {
  let current: unknown = err;
  for (let depth = 0; typeof current === "object" && current !== null && depth < 8; depth++) {
    const link: ErrorLink = current;
    yield link;
    current = link.cause;
  }
}

/**
 * Builds the fetch. Throws a NetworkSetupError when a CA file cannot be used
 * (the caller reports it; the request is not sent without the CA the user asked for).
 */
export function createNodeNetwork(options: NodeNetworkOptions): NodeNetwork {
  const extra: string[] = [];
  const envCa = envOf(options.env, "NODE_EXTRA_CA_CERTS");
  if (envCa) extra.push(...readCaFile(envCa, "NODE_EXTRA_CA_CERTS"));
  if (options.caFile) extra.push(...readCaFile(options.caFile, "Settings → Network → CA file"));
  // An explicit `ca` replaces Node's roots, so they go in first.
  const tlsOptions = extra.length > 0 ? { ca: [...tls.rootCertificates, ...extra] } : {};
  const httpsProxy = envOf(options.env, "HTTPS_PROXY");
  const httpProxy = envOf(options.env, "HTTP_PROXY");
  const noProxy = envOf(options.env, "NO_PROXY");
  const dispatcher: Dispatcher = new EnvHttpProxyAgent({
    // A backstop only: the adapters' idle watch (120 s) ends a stalled stream first and says so.
    headersTimeout: TRANSPORT_TIMEOUT_MS,
    bodyTimeout: TRANSPORT_TIMEOUT_MS,
    // An empty string, not undefined: undici would fall back to process.env.
    httpProxy: httpProxy ?? "",
    httpsProxy: httpsProxy ?? "",
    noProxy: noProxy ?? "",
    connect: options.lookup ? { ...tlsOptions, lookup: options.lookup } : tlsOptions,
    requestTls: tlsOptions,
    proxyTls: tlsOptions,
  });
  const proxies: Array<{ name: string; address: NonNullable<ReturnType<typeof proxyAddress>> }> = [];
  for (const [name, uri] of [
    ["HTTPS_PROXY", httpsProxy],
    ["HTTP_PROXY", httpProxy],
  ] as const) {
    const address = uri === undefined ? undefined : proxyAddress(uri);
    if (address && !proxies.some((p) => p.address.label === address.label)) proxies.push({ name, address });
  }

  /** A proxy failure in its own words, or the error unchanged. */
  const explain = (err: unknown, target: string): unknown => {
    for (const link of chain(err)) {
      const message = typeof link.message === "string" ? link.message : "";
      const tunnel = /^Proxy response \((\d+)\) !== 200 when HTTP Tunneling/.exec(message);
      if (tunnel && proxies.length > 0) {
        const status = Number(tunnel[1]);
        const advice = status === 407 ? ": it wants credentials — put them in the proxy URL (http://user:password@host:port)" : "";
        return new NetworkSetupError(
          `the proxy ${proxies.map((p) => `${p.address.label} (${p.name})`).join(" / ")} refused the tunnel to ${target} with ${status}${advice}`,
          err,
        );
      }
      const code = typeof link.code === "string" ? link.code : "";
      if (!/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)$/.test(code))
        continue;
      const port = typeof link.port === "number" || typeof link.port === "string" ? String(link.port) : undefined;
      const host = typeof link.hostname === "string" ? link.hostname : typeof link.address === "string" ? link.address : undefined;
      const proxy = proxies.find((p) => (port === undefined || p.address.port === port) && (host === undefined || p.address.host === host));
      if (proxy === undefined) continue;
      const what =
        code === "ECONNREFUSED"
          ? "refused the connection"
          : code === "ENOTFOUND" || code === "EAI_AGAIN"
            ? "cannot be found (DNS)"
            : `cannot be reached (${code})`;
      return new NetworkSetupError(
        `the proxy ${proxy.address.label} (${proxy.name}) ${what}: check ${proxy.name}, or list ${target} in NO_PROXY`,
        err,
      );
    }
    return err;
  };

  const fetch: FetchFunction = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    try {
      // undici's own fetch with its own agent (the global fetch may be another undici version,
      // whose Request it would not recognise: a Request, as the AWS SDK's handler sends, is unpacked).
      const fromRequest = typeof input === "object" && !(input instanceof URL) ? await requestInit(input) : {};
      const response = await undiciFetch(url, { ...fromRequest, ...(init as UndiciInit), dispatcher });
      return response as unknown as Response;
    } catch (err) {
      throw explain(err, hostOf(url));
    }
  };
  return {
    fetch,
    proxies: proxies.map((p) => `${p.name === "HTTPS_PROXY" ? "https" : "http"} via ${p.address.label}`),
    close: () => dispatcher.close(),
  };
}

type UndiciInit = NonNullable<Parameters<typeof undiciFetch>[1]>;

/** A Request's method, headers, body and signal as fetch options (the body read whole: requests are small). */
async function requestInit(request: Request): Promise<UndiciInit> {
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  return { method: request.method, headers: [...request.headers], body, signal: request.signal };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    // Only used to word an error message: the raw text names it well enough.
    return url;
  }
}
