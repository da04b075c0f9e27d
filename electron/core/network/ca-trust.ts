/**
 * Whether a server's certificate chain is vouched for by one of the user's
 * extra CAs (the Settings CA file): the desktop app's certificate check uses
 * it when Chromium's own verification (the OS store) said no. Pure.
 */
import { X509Certificate } from "node:crypto";

/**
 * `chain`: the server's certificates as PEM, leaf first (what it sent).
 * True when the leaf is for `host`, every certificate up to the one a CA
 * issued is in its validity period and signed by the next, and that CA
 * signed it.
 */
export function chainTrustedBy(chain: readonly string[], caPems: readonly string[], host: string, now: Date = new Date()): boolean {
  if (chain.length === 0 || caPems.length === 0) return false;
  let certs: X509Certificate[];
  let cas: X509Certificate[];
  try {
    certs = chain.map((pem) => new X509Certificate(pem));
    cas = caPems.map((pem) => new X509Certificate(pem));
  } catch {
    // A certificate that does not parse cannot be trusted: the connection is refused.
    return false;
  }
  const inPeriod = (cert: X509Certificate) => now >= new Date(cert.validFrom) && now <= new Date(cert.validTo);
  cas = cas.filter((ca) => ca.ca && inPeriod(ca));
  const leaf = certs[0];
  const forHost = /^[\d.]+$|:/.test(host) ? leaf.checkIP(host) !== undefined : leaf.checkHost(host) !== undefined;
  if (!forHost) return false;
  for (let i = 0; i < certs.length; i++) {
    const cert = certs[i];
    if (!inPeriod(cert)) return false;
    if (cas.some((ca) => cert.checkIssued(ca) && cert.verify(ca.publicKey))) return true;
    const next = certs[i + 1];
    if (next === undefined || !next.ca || !cert.checkIssued(next) || !cert.verify(next.publicKey)) return false;
  }
  return false;
}
