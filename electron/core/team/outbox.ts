/**
 * Writes to the team library wait here, in the local store's settings, until
 * the server has them: a write is queued before it is sent and leaves the
 * queue only when the server acknowledged it, so a server that goes away
 * mid-publish loses nothing (the transaction rolls back; the item stays).
 * Every item has a client id the server keeps unique, so an item sent again
 * after a lost acknowledgement is not stored twice. A refused item moves to
 * `failed`, kept with the reason, never dropped silently.
 */
import { z } from "zod";
import { ReviewStateSchema, TeamNoteInputSchema } from "../../../shared/team";

const OUTBOX_KEY = "team.outbox";

export const OutboxItemSchema = z.discriminatedUnion("kind", [
  z.object({ id: z.string().uuid(), kind: z.literal("publish"), queuedAt: z.number(), localSessionId: z.string(), project: z.string() }),
  z.object({ id: z.string().uuid(), kind: z.literal("note"), queuedAt: z.number(), note: TeamNoteInputSchema }),
  z.object({
    id: z.string().uuid(),
    kind: z.literal("review"),
    queuedAt: z.number(),
    sessionId: z.string().uuid(),
    state: ReviewStateSchema.optional(),
    assignee: z.string().min(1).max(63).optional(),
  }),
]);
export type OutboxItem = z.infer<typeof OutboxItemSchema>;

const OutboxSchema = z.object({
  queued: z.array(OutboxItemSchema),
  failed: z.array(z.object({ item: OutboxItemSchema, error: z.string() })),
});
type OutboxState = z.infer<typeof OutboxSchema>;

export interface SettingsPort {
  getSetting(key: string): unknown;
  setSetting(key: string, value: unknown): void;
}

export class Outbox {
  constructor(private readonly settings: SettingsPort) {}

  private read(): OutboxState {
    const parsed = OutboxSchema.safeParse(this.settings.getSetting(OUTBOX_KEY));
    return parsed.success ? parsed.data : { queued: [], failed: [] };
  }

  private write(state: OutboxState): void {
    this.settings.setSetting(OUTBOX_KEY, state);
  }

  queued(): OutboxItem[] {
    return this.read().queued;
  }

  failed(): OutboxState["failed"] {
    return this.read().failed;
  }

  add(item: OutboxItem): void {
    const s = this.read();
    s.queued.push(item);
    this.write(s);
  }

  /** Acknowledged by the server. */
  done(id: string): void {
    const s = this.read();
    this.write({ ...s, queued: s.queued.filter((i) => i.id !== id) });
  }

  /** Refused by the server: kept with the reason. */
  fail(id: string, error: string): void {
    const s = this.read();
    const item = s.queued.find((i) => i.id === id);
    if (!item) return;
    this.write({ queued: s.queued.filter((i) => i.id !== id), failed: [...s.failed, { item, error }] });
  }

  /** The user answered a refusal (retry or discard). */
  takeFailed(id: string): OutboxItem | null {
    const s = this.read();
    const hit = s.failed.find((f) => f.item.id === id);
    if (!hit) return null;
    this.write({ ...s, failed: s.failed.filter((f) => f.item.id !== id) });
    return hit.item;
  }
}
