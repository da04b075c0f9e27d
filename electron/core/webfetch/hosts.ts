/**
 * Host rules for webfetch: `docs.python.org` (that host) or
 * `*.python.org` (the domain and every host under it). A wildcard over a
 * public suffix (`*.co.uk`, `*.github.io`, `*`) is refused: it would allow
 * every site of everyone. The suffixes come from the Public Suffix List
 * (tldts, private domains included). See docs/conventions.md#web-fetch.
 */
import { parse } from "tldts";

const HOST_CHARS = /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/;

/** The host of a URL as rules see it: lower case, no trailing dot, IPv6 in brackets. */
export function ruleHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.$/, "");
}

/** Why this pattern cannot be a webfetch rule, or null. */
export function hostRuleProblem(pattern: string): string | null {
  const p = pattern.trim().toLowerCase();
  if (p === "" || p === "*" || p === "*.")
    return "a webfetch rule names a host (docs.example.com) or a domain (*.example.com), not every host";
  const wild = p.startsWith("*.");
  const base = wild ? p.slice(2) : p;
  if (!HOST_CHARS.test(base) || base.includes("*")) return `\`${pattern}\` is not a host name: write it without scheme, port or path`;
  if (wild) {
    const info = parse(base, { allowPrivateDomains: true });
    if (info.isIp) return "a wildcard rule needs a domain name, not an address";
    if (info.domain === null || info.domain !== base)
      return `\`${pattern}\` spans a public suffix (${info.publicSuffix ?? base}): every site under it would be allowed; name the site's own domain`;
  }
  return null;
}

/** Whether a (valid) rule covers the host: the same host, or for `*.d` the domain d and any host under it. */
export function hostCovers(pattern: string, host: string): boolean {
  const p = pattern.trim().toLowerCase();
  const h = host.toLowerCase().replace(/\.$/, "");
  if (hostRuleProblem(p) !== null) return false;
  if (!p.startsWith("*.")) return p === h;
  const base = p.slice(2);
  return h === base || h.endsWith(`.${base}`);
}

/** Rules an approval card offers for a host, narrowest first: the host, then its registrable domain. */
export function suggestHostRules(host: string): string[] {
  const out = [host];
  const info = parse(host.replace(/^\[|\]$/g, ""), { allowPrivateDomains: true });
  if (!info.isIp && info.domain && info.domain !== host) out.push(`*.${info.domain}`);
  else if (!info.isIp && info.domain === host) out.push(`*.${host}`);
  return out.filter((r) => hostRuleProblem(r) === null);
}
