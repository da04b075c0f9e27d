/**
 * Where an imported session came from, kept in a settings record keyed by
 * session (as review/import-times.ts keeps imported times): the agent, its own
 * id, the file, and what the format could not hold. The replay header and the
 * sidebar badge read it; nothing else depends on it.
 */
import { z } from "zod";
import type { ReviewStorePort } from "../review/store-port";
import { AGENTS } from "./types";

const PREFIX = "import.origin:";

export const OriginSchema = z.object({
  agent: z.enum(AGENTS),
  foreignId: z.string(),
  path: z.string(),
  importedAt: z.number(),
  notHeld: z.array(z.string()),
  /** The imported parent session, on a sub-agent transcript. */
  parentSessionId: z.string().nullable(),
  /** Imported sub-agent transcripts, on a parent. */
  children: z.array(z.string()),
});
export type Origin = z.infer<typeof OriginSchema>;

export function saveOrigin(store: Pick<ReviewStorePort, "setSetting">, sessionId: string, origin: Origin): void {
  store.setSetting(PREFIX + sessionId, origin);
}

export function loadOrigin(store: Pick<ReviewStorePort, "getSetting">, sessionId: string): Origin | null {
  const parsed = OriginSchema.safeParse(store.getSetting(PREFIX + sessionId));
  return parsed.success ? parsed.data : null;
}

export function deleteOrigin(store: Pick<ReviewStorePort, "deleteSetting">, sessionId: string): void {
  store.deleteSetting(PREFIX + sessionId);
}
