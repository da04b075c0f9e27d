/**
 * Every failure of the team library as a typed `TeamError`: unreachable
 * (writes queue), denied (the server's roles or RLS said no), invalid. The
 * password never reaches a message: it is cut out of whatever the driver says.
 */
import type { TeamErrorCode } from "../../../shared/team";

export class TeamError extends Error {
  constructor(
    readonly code: TeamErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "TeamError";
  }
}

// Socket-level failures: the server is down, restarting, or the network is.
const NET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);
// SQLSTATE classes 08 (connection exception), 57P0x (server shutting down / starting up).
const UNREACHABLE_STATES = /^(08|57P0[1-4]|53300)/;
// 28: invalid authorization; 42501: insufficient privilege (and RLS WITH CHECK); 3F000: no schema.
const DENIED_STATES = /^(28|42501|3F000|42P01)/;

export function toTeamError(e: unknown, secret?: string | null): TeamError {
  if (e instanceof TeamError) return e;
  const err = e as { code?: string; message?: string } | undefined;
  const raw = err?.message ?? String(e);
  const message = secret ? raw.split(secret).join("[REDACTED]") : raw;
  const code = err?.code ?? "";
  if (
    NET_CODES.has(code) ||
    UNREACHABLE_STATES.test(code) ||
    /Connection terminated|timeout expired|connect ECONN|socket hang up/i.test(raw)
  )
    return new TeamError("TEAM_UNREACHABLE", `The team server cannot be reached (${message})`);
  if (DENIED_STATES.test(code)) return new TeamError("TEAM_DENIED", `The team server refused: ${message}`);
  return new TeamError("TEAM_INVALID", `The team server failed: ${message}`);
}

export function isUnreachable(e: unknown): boolean {
  return e instanceof TeamError && e.code === "TEAM_UNREACHABLE";
}
