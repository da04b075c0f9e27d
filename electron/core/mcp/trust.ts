/**
 * Trust for MCP servers that come from a workspace's `.mcp.json`.
 *
 * Such a file arrives with a cloned repository, so starting its servers means
 * running commands (or sending `${VAR}` values from the user's environment to
 * URLs) chosen by whoever wrote the repository. A workspace server therefore
 * starts only once the user has trusted its exact configuration: trust stores
 * a fingerprint of the entry, and any change to the entry (command, args, env,
 * URL, headers…) makes it untrusted again. Servers from the user's own config
 * folder are the user's choice and need no trust. See docs/mcp-trust.md.
 */
import { createHash } from "node:crypto";
import type { McpServerEntry } from "./config";

/** Stored per workspace: server name → the fingerprint the user trusted. */
export type McpTrustRecord = Record<string, string>;

export interface McpTrust {
  isTrusted(entry: McpServerEntry): boolean;
}

/** JSON with sorted object keys, so equal configurations give equal fingerprints. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** sha256 over the server's name and its whole configuration as written in the file. */
export function mcpServerFingerprint(entry: McpServerEntry): string {
  return createHash("sha256")
    .update(canonical({ name: entry.name, config: entry.config }))
    .digest("hex");
}

export function needsTrust(entry: McpServerEntry): boolean {
  return entry.source === "workspace";
}

export function isTrustedBy(record: McpTrustRecord, entry: McpServerEntry): boolean {
  return !needsTrust(entry) || record[entry.name] === mcpServerFingerprint(entry);
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
