/**
 * Where the blocks of a user message came from: the prompt template and the
 * @-mentioned files that `chat.send` read (docs/prompt-files.md). The message
 * builder tags the blocks it made; when the loop stores the message, its
 * tagged blocks become records with the message's seq, kept per session in
 * the settings table (as the Ask mode changes are), for "what the model saw".
 * A fork or an import does not carry them.
 */
import { z } from "zod";
import type { SessionEntry } from "../../../shared/protocol";
import { PromptSourceSchema, type PromptSource } from "../../../shared/review";
import type { SessionStore } from "../store";

const key = (sessionId: string) => `session.promptSources.${sessionId}`;
const Recorded = z.array(PromptSourceSchema);

export class PromptSourceLog {
  /** Keyed by the block object itself: the message the loop stores holds the very blocks chat.send built. */
  private readonly tags = new WeakMap<object, Omit<PromptSource, "seq">>();

  constructor(private readonly store: Pick<SessionStore, "getSetting" | "setSetting">) {}

  tag(block: object, source: Omit<PromptSource, "seq">): void {
    this.tags.set(block, source);
  }

  /** The journal's append hook. */
  afterAppend(sessionId: string, seq: number, entry: SessionEntry): void {
    if (entry.type !== "message" || entry.message.role !== "user") return;
    const found: PromptSource[] = [];
    for (const block of entry.message.content) {
      const source = this.tags.get(block);
      if (source) found.push({ ...source, seq });
    }
    if (found.length > 0) this.store.setSetting(key(sessionId), [...this.list(sessionId), ...found]);
  }

  list(sessionId: string): PromptSource[] {
    const parsed = Recorded.safeParse(this.store.getSetting(key(sessionId)));
    return parsed.success ? parsed.data : [];
  }
}
