/**
 * A pg pool for the team library from Settings → Team and the password from
 * the key store. TLS "verify" checks the server's certificate (against the
 * CA file when one is set) and its name; there is no "accept any certificate".
 */
import { readFileSync } from "node:fs";
import pg from "pg";
import type { TeamConnection } from "../../../shared/team";
import { TeamError } from "./errors";

/** Reads `postgresql://user[:password]@host[:port]/db` into fields; the password comes back apart, for the key store. */
export function parseTeamUrl(url: string, defaultProject: string): { connection: TeamConnection; password: string | null } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TeamError("TEAM_INVALID", "The team URL is not a URL (postgresql://user@host:5432/database)");
  }
  if (u.protocol !== "postgresql:" && u.protocol !== "postgres:")
    throw new TeamError("TEAM_INVALID", "The team URL must start with postgresql://");
  const database = decodeURIComponent(u.pathname.replace(/^\//, ""));
  const sslmode = u.searchParams.get("sslmode");
  return {
    connection: {
      host: u.hostname.replace(/^\[|\]$/g, ""),
      port: u.port ? Number(u.port) : 5432,
      database: database || "postgres",
      user: decodeURIComponent(u.username),
      tls: sslmode === "verify-full" || sslmode === "verify-ca" || sslmode === "require" ? "verify" : "off",
      caFile: null,
      defaultProject,
    },
    password: u.password ? decodeURIComponent(u.password) : null,
  };
}

export function poolConfig(conn: TeamConnection, password: string | null): pg.PoolConfig {
  let ssl: pg.PoolConfig["ssl"] = false;
  if (conn.tls === "verify") {
    let ca: string | undefined;
    if (conn.caFile) {
      try {
        ca = readFileSync(conn.caFile, "utf8");
      } catch (e) {
        throw new TeamError("TEAM_INVALID", `The team CA file cannot be read (${conn.caFile}): ${(e as Error).message}`);
      }
    }
    ssl = { rejectUnauthorized: true, ...(ca ? { ca } : {}) };
  }
  return {
    host: conn.host,
    port: conn.port,
    database: conn.database,
    user: conn.user,
    password: password ?? undefined,
    ssl,
    max: 4,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A statement stuck on a dead server must not hold a publish forever.
    query_timeout: 120_000,
    application_name: "agent-workbench",
  };
}
