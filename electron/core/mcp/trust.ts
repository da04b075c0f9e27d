/**
 * Trust for MCP servers that come from a workspace's `.mcp.json`.
 *
 * Such a file arrives with a cloned repository, so starting its servers means
 * running commands (or sending `${VAR}` values from the user's environment to
 * URLs) chosen by whoever wrote the repository. A workspace server therefore
 * starts only once the user has trusted it: trust stores the fingerprint of
 * its launch pin (launch-pin.ts: the entry and the workspace files it runs),
 * and any change to either (command, args, env, URL, headers…, the script,
 * the modules beside it, its package.json) makes it untrusted again, with the
 * reason. Servers from the user's own config folder are the user's choice and
 * need no trust. See docs/mcp-trust.md.
 */
import { z } from "zod";
import type { McpServerEntry } from "./config";
import type { LaunchPin } from "./launch-pin";

export const UNTRUSTED_REASON = "not started: it comes from the workspace's .mcp.json and has not been trusted in Settings";

/** What the user trusted for one server: the fingerprint, and the parts it covers (to say what changed). */
export const TrustedPinSchema = z.object({
  fingerprint: z.string(),
  configHash: z.string().optional(),
  files: z.record(z.string(), z.string()).optional(),
});
export type TrustedPin = z.infer<typeof TrustedPinSchema>;

/** Stored per workspace: server name → what the user trusted. */
export type McpTrustRecord = Record<string, TrustedPin>;

export type TrustVerdict = { trusted: true } | { trusted: false; reason: string };

export interface McpTrust {
  verdict(entry: McpServerEntry, pin: LaunchPin): TrustVerdict;
}

export function needsTrust(entry: McpServerEntry): boolean {
  return entry.source === "workspace";
}

export function trustedPinOf(pin: LaunchPin): TrustedPin {
  return { fingerprint: pin.fingerprint, configHash: pin.configHash, files: pin.files };
}

/** Whether the entry may start as pinned now, and if not, why (what changed since the user trusted it). */
export function trustVerdict(record: McpTrustRecord, entry: McpServerEntry, pin: LaunchPin): TrustVerdict {
  if (!needsTrust(entry)) return { trusted: true };
  const trusted = record[entry.name];
  if (!trusted) return { trusted: false, reason: UNTRUSTED_REASON };
  if (trusted.fingerprint === pin.fingerprint) return { trusted: true };
  const { configHash, files } = trusted;
  // Stored by a version whose trust covered the entry only.
  if (configHash === undefined || files === undefined)
    return {
      trusted: false,
      reason: "not started: it was trusted before trust covered the files it runs; review it in Settings and trust it again",
    };
  return {
    trusted: false,
    reason: `not started: ${whatChanged({ configHash, files }, pin)} since you trusted it; review it in Settings and trust it again`,
  };
}

function whatChanged(trusted: { configHash: string; files: Record<string, string> }, pin: LaunchPin): string {
  if (trusted.configHash !== pin.configHash) return "its entry in .mcp.json changed";
  const before = trusted.files;
  const paths = [...new Set([...Object.keys(before), ...Object.keys(pin.files)])].filter((p) => before[p] !== pin.files[p]).sort();
  if (paths.length === 0) return "the files it runs changed";
  const named = paths.slice(0, 3).join(", ") + (paths.length > 3 ? ` and ${paths.length - 3} more` : "");
  return `${named} changed`;
}

const quoteArg = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/**
 * One line saying what starting the server does: the command line (with the
 * names of the environment variables it sets) or the URL (with the names of
 * the headers it sends). Values of `${VAR}` references are never expanded
 * here: the line names the variables, so a user sees which secrets would leave.
 */
export function launchSummary(entry: McpServerEntry): string {
  const { config } = entry;
  const refs = new Set<string>();
  const noteRefs = (v: string) => {
    for (const m of v.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) refs.add(m[1]);
  };
  let line: string;
  if (config.transport === "stdio") {
    [config.command, ...config.args, ...Object.values(config.env), config.cwd ?? ""].forEach(noteRefs);
    line = [config.command, ...config.args].map(quoteArg).join(" ");
    const envNames = Object.keys(config.env);
    if (envNames.length > 0) line += ` (env: ${envNames.join(", ")})`;
    if (config.cwd) line += ` (cwd: ${config.cwd})`;
  } else {
    [config.url, ...Object.values(config.headers)].forEach(noteRefs);
    line = config.url;
    const headerNames = Object.keys(config.headers);
    if (headerNames.length > 0) line += ` (headers: ${headerNames.join(", ")})`;
  }
  if (refs.size > 0) line += ` (reads from your environment: ${[...refs].join(", ")})`;
  return line.length > 600 ? `${line.slice(0, 597)}…` : line;
}
