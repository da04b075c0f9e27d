/** Search everything: the request and its grouped answer (`search.everything`, docs/search.md). */
import { z } from "zod";
import { SessionAgentSchema } from "./foreign-agents";

export const SearchFiltersSchema = z
  .object({
    workspaceId: z.string().min(1).max(200).optional(),
    /** A model id (e.g. "claude-sonnet-4-5"): sessions one of whose answers it wrote, or whose current model it is. */
    model: z.string().min(1).max(200).optional(),
    /** Hits at or after / before this time (ms since the epoch). */
    from: z.number().int().nonnegative().optional(),
    to: z.number().int().nonnegative().optional(),
    /** Only sessions with at least one review note. */
    hasNotes: z.boolean().optional(),
    /** Only sessions that called this tool (its name, e.g. "bash"). */
    tool: z.string().min(1).max(200).optional(),
    /** Only sessions with a tool call on this path (exact, or its trailing path segments, e.g. "src/a.ts"). */
    file: z.string().min(1).max(4096).optional(),
    /** Only sessions of this agent: "ours" (run in this app) or the agent an imported session came from. */
    agent: SessionAgentSchema.optional(),
  })
  .strict();
export type SearchFilters = z.infer<typeof SearchFiltersSchema>;

export const SearchEverythingParamsSchema = z
  .object({
    query: z.string().min(1).max(500),
    filters: SearchFiltersSchema.optional(),
    /** Hits read (newest first) before grouping. */
    limit: z.number().int().min(1).max(500).optional(),
  })
  .strict();

export const GroupHitSchema = z.object({
  seq: z.number().int(),
  /** Entry kind of the hit: user, assistant or toolResult. */
  kind: z.string(),
  /** Text with matches wrapped in \u0002…\u0003 markers; stored text never carries those markers (render as text). */
  snippet: z.string(),
  timestamp: z.number(),
});
export type GroupHit = z.infer<typeof GroupHitSchema>;

export const SearchGroupSchema = z.object({
  sessionId: z.string(),
  sessionTitle: z.string(),
  workspaceId: z.string(),
  workspaceName: z.string(),
  workspacePath: z.string(),
  /** The session's current model id, if any. */
  model: z.string().nullable(),
  /** Hits of this session among those read. */
  hitCount: z.number().int(),
  /** The session's best hits (most matches in the snippet, then newest), at most three. */
  hits: z.array(GroupHitSchema),
  /** Newest hit's time: groups come newest first. */
  newest: z.number(),
});
export type SearchGroup = z.infer<typeof SearchGroupSchema>;

export const SearchEverythingResultSchema = z.object({
  groups: z.array(SearchGroupSchema),
  /** The limit was reached: older hits exist that were not read. */
  truncated: z.boolean(),
});
export type SearchEverythingResult = z.infer<typeof SearchEverythingResultSchema>;
