/**
 * The sandbox policy (sandbox-policy.ts) as a macOS sandbox-exec profile:
 * `(deny default)`, then what dev tools need. In SBPL the last matching
 * rule wins, so the denies (hidden secrets, git's config and hooks) come
 * after the allows they narrow. Written from the SBPL operations Apple's own
 * profiles use; it is not run by this project's tests, which run on Linux
 * (docs/tool-sandbox.md#macos).
 */
import type { SandboxPolicy } from "./sandbox-policy";

const q = (p: string) => JSON.stringify(p);

/** Services every command needs: user and group look-ups, logging, notifications, preferences, file events. */
const BASE_SERVICES = [
  "com.apple.system.opendirectoryd.libinfo",
  "com.apple.system.opendirectoryd.membership",
  "com.apple.system.logger",
  "com.apple.logd",
  "com.apple.system.notification_center",
  "com.apple.cfprefsd.daemon",
  "com.apple.cfprefsd.agent",
  "com.apple.bsd.dirhelper",
  "com.apple.FSEvents",
  "com.apple.SecurityServer",
];
/** With the network: DNS (mDNSResponder), certificate checks, proxy settings. */
const NETWORK_SERVICES = ["com.apple.dnssd.service", "com.apple.trustd", "com.apple.trustd.agent", "com.apple.SystemConfiguration.configd"];

const services = (names: readonly string[]) => `(allow mach-lookup ${names.map((n) => `(global-name ${q(n)})`).join(" ")})`;

export function seatbeltProfile(policy: SandboxPolicy): string {
  const ws = q(policy.workspace);
  const rules = [
    "(version 1)",
    "(deny default)",
    "(allow process-fork process-exec)",
    "(allow process-info* signal (target same-sandbox))",
    "(allow sysctl-read user-preference-read)",
    "(allow ipc-posix-shm ipc-posix-sem)",
    services(BASE_SERVICES),
    "(allow file-read*)",
    `(allow file-write* (subpath ${ws}) (subpath "/private/tmp") (subpath "/private/var/folders"))`,
    '(allow file-read* file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
    // Unix sockets only inside the workspace: connecting is network-outbound, and nothing else allows it.
    `(allow network-bind network-inbound (local unix-socket (subpath ${ws})))`,
    `(allow network-outbound (remote unix-socket (subpath ${ws})))`,
  ];
  if (policy.network) {
    rules.push(
      "(allow network-outbound (remote ip))",
      "(allow network-inbound network-bind (local ip))",
      "(allow system-socket)",
      services(NETWORK_SERVICES),
    );
  }
  // Path rules hold for paths that do not exist yet, so here the watched git paths are refused too (a new repository stays allowed, as on Linux).
  const git = [...policy.git.readOnly, ...policy.readOnly, ...policy.git.watch.filter((w) => !w.newRepository).map((w) => w.path)];
  if (git.length > 0) rules.push(`(deny file-write* ${git.map((p) => `(subpath ${q(p)})`).join(" ")})`);
  // A pinned folder cannot be renamed or removed (what is inside stays writable).
  if (policy.git.pin.length > 0) rules.push(`(deny file-write-unlink ${policy.git.pin.map((p) => `(literal ${q(p)})`).join(" ")})`);
  if (policy.hidden.length > 0)
    rules.push(`(deny file-read* file-write* ${policy.hidden.map(({ path }) => `(subpath ${q(path)})`).join(" ")})`);
  // The last matching rule wins: the session's cut output stays readable inside the hidden data folder.
  if (policy.readable.length > 0) rules.push(`(allow file-read* ${policy.readable.map((p) => `(subpath ${q(p)})`).join(" ")})`);
  return rules.join("\n");
}
