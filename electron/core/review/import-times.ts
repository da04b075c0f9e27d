/**
 * Original times of imported notes and audit rows.
 *
 * The store stamps `createdAt`/`updatedAt` of notes and audit rows with its
 * own clock and offers no way to set them, so an import keeps the exported
 * times in a settings record keyed by session and the export puts them back
 * (export → import → export must be byte-identical apart from ids). A store
 * method that takes these times would make this file unnecessary.
 */
import { z } from "zod";
import type { ReviewStorePort } from "./store-port";

const PREFIX = "review.importedTimes:";

const TimesSchema = z.object({
  notes: z.record(z.string(), z.number()),
  /** audit row id -> [createdAt, updatedAt] */
  toolCalls: z.record(z.string(), z.tuple([z.number(), z.number()])),
});
export type ImportedTimes = z.infer<typeof TimesSchema>;

export function saveImportedTimes(store: ReviewStorePort, sessionId: string, times: ImportedTimes): void {
  store.setSetting(PREFIX + sessionId, times);
}

export function loadImportedTimes(store: ReviewStorePort, sessionId: string): ImportedTimes | null {
  const parsed = TimesSchema.safeParse(store.getSetting(PREFIX + sessionId));
  return parsed.success ? parsed.data : null;
}
