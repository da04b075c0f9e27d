/**
 * A connection failure in one line that names its cause. What the SDKs throw
 * for these (`APIConnectionError` "Connection error.", undici's "fetch failed"
 * or "terminated") says nothing; the cause chain below it has the code
 * (ECONNREFUSED, a certificate code) and the address.
 */

/** Certificate problems: the fix is a CA the user adds, or a clock or host name to check. */
const UNTRUSTED_CODES = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
]);
const OTHER_CERT_CODES = new Set(["CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID", "ERR_TLS_CERT_ALTNAME_INVALID", "CERT_REVOKED"]);

/** Where to add a CA, said the same way everywhere. */
export const CA_ADVICE =
  "add the CA certificate (PEM) of your network or proxy in Settings → Network → CA file, or set NODE_EXTRA_CA_CERTS";

interface Link {
  name: string;
  message: string;
  code: string | undefined;
  address: string | undefined;
  port: number | undefined;
}

/** The error and its causes, outermost first. */
function chainOf(err: unknown): Link[] {
  const links: Link[] = [];
  let current: unknown = err;
  while (typeof current === "object" && current !== null && links.length < 8) {
    const e = current as { name?: unknown; message?: unknown; code?: unknown; address?: unknown; port?: unknown; cause?: unknown };
    links.push({
      name: typeof e.name === "string" ? e.name : "",
      message: typeof e.message === "string" ? e.message : "",
      code: typeof e.code === "string" ? e.code : undefined,
      address: typeof e.address === "string" ? e.address : undefined,
      port: typeof e.port === "number" ? e.port : undefined,
    });
    current = e.cause;
  }
  return links;
}

const CONNECTION_NAMES = new Set(["APIConnectionError", "APIConnectionTimeoutError"]);
const NETWORK_TEXT =
  /terminated|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|socket hang up|other side closed|fetch failed|network|connection error|premature close|aborted by the server/i;

/**
 * The one-line message for a connection failure, or undefined when `err` is
 * not one. `host` is the provider's host (certificate errors do not carry it).
 */
export function describeNetworkError(err: unknown, host?: string): string | undefined {
  const links = chainOf(err);
  if (links.length === 0) return undefined;
  // A failure already described for the user (the proxy-aware fetch names its proxy).
  const described = links.find((l) => l.name === "NetworkSetupError");
  if (described) return `network error: ${described.message}`;
  const coded = links.find((l) => l.code !== undefined && (UNTRUSTED_CODES.has(l.code) || OTHER_CERT_CODES.has(l.code)));
  if (coded?.code !== undefined) return certificateMessage(coded.code, host);
  // fetch refuses some ports outright (its spec's "bad port" list: 1, 25, 6000, 6665-6669 …).
  if (links.some((l) => l.message === "bad port")) {
    return "network error: fetch refuses this port (on its blocked-port list): run the server on another port";
  }
  const isConnection =
    links.some((l) => CONNECTION_NAMES.has(l.name) || l.name === "SocketError" || l.name === "ConnectTimeoutError") ||
    links.some((l) => NETWORK_TEXT.test(l.message));
  if (!isConnection) return undefined;
  const root = links[links.length - 1];
  const where = root.address !== undefined ? ` (${root.address}${root.port !== undefined ? `:${root.port}` : ""})` : "";
  const code = links.find((l) => l.code !== undefined && /^E[A-Z_]+$/.test(l.code))?.code;
  switch (code) {
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "ENETUNREACH":
    case "EHOSTUNREACH":
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return `network error: could not reach the provider: ${root.message}${root.message.includes(root.address ?? "\u0000") ? "" : where}`;
  }
  // The body stopped after the response began: undici says "terminated".
  if (links.some((l) => l.message === "terminated")) return `network error: the connection broke mid-stream: ${root.message}`;
  if (links[0].name === "APIConnectionTimeoutError") return "network error: no response from the provider (timed out)";
  const text = root !== links[0] && root.message ? root.message : links[0].message;
  return `network error: ${text || "the connection failed"}`;
}

function certificateMessage(code: string, host: string | undefined): string {
  const of = host ? ` of ${host}` : "";
  if (code === "CERT_HAS_EXPIRED") return `network error: the certificate${of} has expired (${code}): check the system clock`;
  if (code === "CERT_NOT_YET_VALID") return `network error: the certificate${of} is not valid yet (${code}): check the system clock`;
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID")
    return `network error: the certificate${of} is for another host name (${code}): check the provider's base URL`;
  return `network error: the certificate${of} is not trusted (${code}): ${CA_ADVICE}`;
}
