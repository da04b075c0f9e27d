/**
 * What follows an append outside the loop: the title from the first user
 * message, and the session summary (totals, counts, time) announced once per
 * burst of work instead of once per entry.
 */
import type { EventName, EventPayload, SessionSummary } from "../../../shared/api";
import type { SessionEntry } from "../../../shared/protocol";
import type { SessionStore } from "../store";
import { titleFromMessage } from "../../../shared/mentions";

export const DEFAULT_TITLE = "New session";

/**
 * How long a changed summary waits before it is announced. A timer, not an
 * immediate: the work from a response's end to the next request (store, tool,
 * build, the SDK) runs in one event-loop turn, and an immediate queued during
 * it runs in that turn's check phase before undici writes the request (its
 * idle-socket check is an immediate too), i.e. on the path the user waits on.
 * A timer runs at the start of a later turn: while the request is out. The
 * round trips of a tool loop within the delay share one announcement.
 */
export const SUMMARY_DELAY_MS = 50;

export class SessionSummaries {
  /** Sessions whose summary changed since it was last announced (announced after `SUMMARY_DELAY_MS`). */
  private readonly stale = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: SessionStore,
    private readonly emit: <E extends EventName>(event: E, payload: EventPayload<E>) => void,
  ) {}

  /** Renames and announces the appended rename entry, as the loop announces its own entries. */
  rename(sessionId: string, title: string): SessionSummary {
    const session = this.store.renameSession(sessionId, title);
    for (const stored of this.store.loadEntries(sessionId, { fromSeq: session.entryCount })) {
      this.emit("session.entry", { sessionId, seq: stored.seq, entry: stored.entry });
    }
    return session;
  }

  afterAppend(sessionId: string, entry: SessionEntry): void {
    // A tool result changes neither the title nor the usage totals.
    if (entry.type === "message" && entry.message.role === "toolResult") return;
    if (entry.type === "message" && entry.message.role === "user") {
      const session = this.store.getSession(sessionId);
      if (!session) return;
      const title = titleFromMessage(entry.message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])));
      if (session.title === DEFAULT_TITLE && title) {
        this.stale.delete(sessionId);
        this.emit("session.updated", this.rename(sessionId, title));
        return;
      }
    }
    this.stale.add(sessionId);
    this.timer ??= setTimeout(() => this.announceAll(), SUMMARY_DELAY_MS);
  }

  /** A turn's last summary is announced before the turn says it ended. */
  announce(sessionId: string): void {
    if (!this.stale.delete(sessionId)) return;
    const session = this.store.getSession(sessionId);
    if (session) this.emit("session.updated", session);
  }

  /** Announces what is pending now (at close, before the store goes). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.announceAll();
  }

  private announceAll(): void {
    this.timer = null;
    for (const sessionId of [...this.stale]) {
      try {
        this.announce(sessionId);
      } catch {
        // A session deleted meanwhile, or a store being closed: nothing to announce.
      }
    }
  }
}
