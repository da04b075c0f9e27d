/**
 * Sessions of other agents the app imports (electron/core/importers/): which
 * agents, where an imported session came from, and what discovery found.
 *
 * Pure module: zod only (see docs/architecture.md#layers).
 */
import { z } from "zod";

export const FOREIGN_AGENTS = ["claude-code", "codex", "pi"] as const;
export const ForeignAgentSchema = z.enum(FOREIGN_AGENTS);
export type ForeignAgent = z.infer<typeof ForeignAgentSchema>;

export const FOREIGN_AGENT_LABELS: Record<ForeignAgent, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  pi: "pi",
};

/** Settings key prefix of an imported session's origin record (`<prefix><sessionId>`); the store's agent filter reads it. */
export const ORIGIN_SETTING_PREFIX = "import.origin:";

/** Search's agent filter: sessions this app ran ("ours"), or those imported from one agent. */
export const SESSION_AGENTS = ["ours", ...FOREIGN_AGENTS] as const;
export const SessionAgentSchema = z.enum(SESSION_AGENTS);
export type SessionAgent = z.infer<typeof SessionAgentSchema>;

/** Where an imported session came from; the replay header shows it with what the format could not hold. */
export const SessionOriginSchema = z.object({
  agent: ForeignAgentSchema,
  foreignId: z.string(),
  path: z.string(),
  importedAt: z.number(),
  notHeld: z.array(z.string()),
  /** The imported parent session, on a sub-agent transcript. */
  parentSessionId: z.string().nullable(),
  /** Imported sub-agent transcripts, on a parent. */
  children: z.array(z.string()),
});
export type SessionOrigin = z.infer<typeof SessionOriginSchema>;

export const FoundSessionSchema = z.object({
  agent: ForeignAgentSchema,
  path: z.string(),
  bytes: z.number(),
  modifiedAt: z.number(),
  /** Ids of the sessions already imported from this file. */
  importedAs: z.array(z.string()),
});
export type FoundForeignSession = z.infer<typeof FoundSessionSchema>;

export const AgentListingSchema = z.object({
  agent: ForeignAgentSchema,
  label: z.string(),
  folder: z.string(),
  exists: z.boolean(),
  sessions: z.array(FoundSessionSchema),
  truncated: z.boolean(),
});
export type AgentListing = z.infer<typeof AgentListingSchema>;
