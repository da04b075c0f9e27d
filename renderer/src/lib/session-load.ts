/**
 * Validating a loaded session without freezing the first paint: the envelope
 * and the last entries are checked at once (they are what the user sees
 * first), the rest in chunks between frames. Every entry is validated before
 * the transcript uses it; an entry that fails is left out and counted.
 */
import { z } from "zod";
import {
  DamagedEntrySchema,
  ModeChangeSchema,
  SessionSummarySchema,
  StoredEntrySchema,
  TurnStateSchema,
  WorkbenchApiError,
} from "../../../shared/api";
import type { DamagedEntry } from "../../../shared/api";
import type { StoredEntry } from "../../../shared/protocol";

export { TAIL_ENTRIES } from "./last-open";

const EnvelopeSchema = z.object({
  session: SessionSummarySchema,
  entries: z.array(z.unknown()),
  turn: TurnStateSchema,
  modeChanges: z.array(ModeChangeSchema).default([]),
  damaged: z.array(DamagedEntrySchema).default([]),
});

/** The damaged entries of a session.entries answer (none when absent or malformed: the rows are what matters). */
export function damagedOf(raw: unknown): DamagedEntry[] {
  const parsed = z.object({ damaged: z.array(DamagedEntrySchema).default([]) }).safeParse(raw);
  return parsed.success ? parsed.data.damaged : [];
}
export type LoadEnvelope = z.infer<typeof EnvelopeSchema>;

const CHUNK = 1000;

export function parseEnvelope(raw: unknown): LoadEnvelope {
  const parsed = EnvelopeSchema.safeParse(raw);
  if (!parsed.success) {
    throw new WorkbenchApiError({
      code: "INTERNAL",
      message: "Response to session.load does not match the contract",
      issues: parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  return parsed.data;
}

export interface ValidatedEntries {
  entries: StoredEntry[];
  invalid: number;
}

export function validateRange(raw: readonly unknown[], from: number, to: number): ValidatedEntries {
  const entries: StoredEntry[] = [];
  let invalid = 0;
  for (let i = from; i < to; i++) {
    const r = StoredEntrySchema.safeParse(raw[i]);
    if (r.success) entries.push(r.data);
    else invalid++;
  }
  return { entries, invalid };
}

/** Yields to the event loop (rendering and input) without the timer clamping of background tabs. */
function yieldToMain(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

export async function validateInChunks(
  raw: readonly unknown[],
  from: number,
  to: number,
  cancelled: () => boolean,
): Promise<ValidatedEntries | null> {
  const entries: StoredEntry[] = [];
  let invalid = 0;
  for (let start = from; start < to; start += CHUNK) {
    if (cancelled()) return null;
    const part = validateRange(raw, start, Math.min(to, start + CHUNK));
    for (const e of part.entries) entries.push(e);
    invalid += part.invalid;
    await yieldToMain();
  }
  return { entries, invalid };
}
