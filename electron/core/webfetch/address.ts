/**
 * Which addresses webfetch may connect to. Loopback, private, link-local,
 * carrier-grade NAT, multicast and reserved ranges are refused unless the
 * user allowed them (Settings → Web fetch). The check runs on the address a
 * connection really goes to (`guardedLookup`, given to the socket), so a name
 * that resolves to a public address when asked and to 127.0.0.1 when
 * connecting (DNS rebinding) is still refused. See docs/conventions.md#web-fetch.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { BlockList, isIP } from "node:net";

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedV4(address: string): string | null {
  const lower = address.toLowerCase();
  const m = /^(?:::ffff:|64:ff9b::)(?:0:)?(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (m) return m[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = parseInt(hex[1], 16);
  const lo = parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether an IP address is loopback, private or otherwise not a public internet address. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, "ipv4");
  if (family === 6) {
    const v4 = embeddedV4(bare);
    if (v4 !== null) return blocked.check(v4, "ipv4");
    return blocked.check(bare, "ipv6");
  }
  return true;
}

export class PrivateAddressError extends Error {
  readonly code = "EWEBFETCH_PRIVATE";
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, a loopback or private address`);
    this.name = "PrivateAddressError";
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Resolver = (
  host: string,
  options: LookupAllOptions,
  cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for net/tls sockets that refuses private addresses (all of a
 * name's addresses must be public: a name with one private address is
 * refused whole). `resolve` is for tests; it defaults to the system resolver.
 */
export function guardedLookup(resolve: Resolver = dnsLookup) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    const family = typeof options.family === "number" ? options.family : 0;
    resolve(hostname, { all: true, family }, (err, addresses) => {
      if (err) return callback(err, []);
      const bad = addresses.find((a) => isPrivateAddress(a.address));
      if (bad) return callback(new PrivateAddressError(hostname, bad.address), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** Resolves a host (or takes an IP literal) and returns the first private address it has, or null. */
export async function privateAddressOf(host: string, resolve: Resolver = dnsLookup): Promise<string | null> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isIP(bare)) return isPrivateAddress(bare) ? bare : null;
  const addresses = await new Promise<LookupAddress[]>((done, fail) =>
    resolve(bare, { all: true }, (err, list) => (err ? fail(err) : done(list))),
  );
  return addresses.find((a) => isPrivateAddress(a.address))?.address ?? null;
}
