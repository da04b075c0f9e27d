/**
 * Provider calls in the desktop app: the SDK clients get the session's
 * `net.fetch` (Chromium's network stack: the system proxy settings and PAC,
 * the OS certificate store). A CA file set in Settings (or
 * NODE_EXTRA_CA_CERTS, which the packaged app's fuses keep from Node) is
 * added to what that stack trusts through the session's certificate check.
 * See docs/networks.md.
 */
import type { Session } from "electron";
import type { NetworkSettings } from "../../shared/api";
import { chainTrustedBy } from "../core/network/ca-trust";
import { readCaFile } from "../core/network/node-fetch";

type FetchFunction = typeof globalThis.fetch;

/** Chromium's answers to a certificate check: accept, or use its own verification result. */
const ACCEPT = 0;
const USE_CHROMIUM_RESULT = -3;

interface ChainLink {
  data: string;
  issuerCert?: ChainLink;
}

function chainOf(certificate: ChainLink): string[] {
  const pems: string[] = [];
  for (let c: ChainLink | undefined = certificate; c !== undefined && pems.length < 10; c = c.issuerCert === c ? undefined : c.issuerCert) {
    pems.push(c.data);
  }
  return pems;
}

/**
 * The `providerFetch` for the core: `session.fetch`, with the session's
 * certificate check following the CA file setting (re-read when it changes).
 */
export function desktopProviderFetch(session: Session, log: (line: string) => void): (network: NetworkSettings) => FetchFunction {
  let current: string | null | undefined;
  const fetch: FetchFunction = (input, init) => session.fetch(input instanceof URL ? input.href : input, init);
  return (network) => {
    const caFile = network.caFile ?? process.env.NODE_EXTRA_CA_CERTS ?? null;
    if (caFile === current) return fetch;
    current = caFile;
    if (caFile === null) {
      session.setCertificateVerifyProc(null);
      return fetch;
    }
    let cas: string[];
    try {
      cas = readCaFile(caFile, network.caFile ? "Settings → Network → CA file" : "NODE_EXTRA_CA_CERTS");
    } catch (err) {
      log(`network: ${err instanceof Error ? err.message : String(err)}`);
      session.setCertificateVerifyProc(null);
      const failure = err instanceof Error ? err : new Error(String(err));
      return () => Promise.reject(failure);
    }
    session.setCertificateVerifyProc((request, callback) => {
      if (request.errorCode === 0) return callback(USE_CHROMIUM_RESULT);
      callback(chainTrustedBy(chainOf(request.certificate), cas, request.hostname) ? ACCEPT : USE_CHROMIUM_RESULT);
    });
    log(`network: trusting ${cas.length} extra CA certificate(s) from ${caFile}`);
    return fetch;
  };
}
