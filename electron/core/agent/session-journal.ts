/**
 * A session's stored entries and the model's view of them, kept in step.
 * Every write goes through `append`, which stores the entry first and only
 * then updates memory and tells the UI: what the agent sees is what is stored.
 */
import type {
  AssistantMessage,
  Message,
  SessionEntry,
  StoredEntry,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "../../../shared/protocol";
import { historyForModel, modelMessageOf } from "./context";
import type { AgentDeps } from "./ports";

type JournalDeps = Pick<AgentDeps, "store" | "emit" | "onAppended" | "now">;

export class SessionJournal {
  readonly entries: StoredEntry[];
  /** `historyForModel(this.entries)`, kept in step by `append` (one push per message, not a walk per request). */
  private messages: Message[];

  constructor(
    private readonly deps: JournalDeps,
    private readonly sessionId: string,
  ) {
    this.entries = deps.store.loadEntries(sessionId);
    this.messages = historyForModel(this.entries);
  }

  /** The conversation as the model sees it (after the last compaction). Read-only: `append` owns it. */
  get history(): readonly Message[] {
    return this.messages;
  }

  /** The seq of the stored assistant entry holding this tool call (the latest, ids may repeat), or null. */
  seqOfCall(toolCallId: string): number | null {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i].entry;
      if (
        e.type === "message" &&
        e.message.role === "assistant" &&
        e.message.content.some((b) => b.type === "toolCall" && b.id === toolCallId)
      )
        return this.entries[i].seq;
    }
    return null;
  }

  lastSeq(): number {
    return this.entries.length === 0 ? 0 : this.entries[this.entries.length - 1].seq;
  }

  /** Stores the entry (with `alongside` in its transaction); throws, keeping nothing, when the store refuses. */
  append(entry: SessionEntry, alongside?: () => void): void {
    const seq = this.deps.store.appendEntry(this.sessionId, entry, alongside);
    this.entries.push({ seq, entry });
    if (entry.type === "compaction") this.messages = historyForModel(this.entries);
    else {
      const message = modelMessageOf(entry);
      if (message) this.messages.push(message);
    }
    this.deps.emit("session.entry", { sessionId: this.sessionId, seq, entry });
    this.deps.onAppended(this.sessionId, seq, entry);
  }

  appendMessage(message: UserMessage | AssistantMessage | ToolResultMessage): void {
    this.append({ type: "message", message });
  }

  /** Error results for calls that never ran, so every stored call has its answer (docs/architecture.md#invariants). */
  appendSynthesized(calls: ToolCall[], kind: "aborted" | "error", text: string): void {
    for (const call of calls) {
      const result: ToolResultMessage = {
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        isError: true,
        content: [{ type: "text", text }],
        details: { errorCode: kind === "aborted" ? "ABORTED" : "IO_ERROR", synthesized: true },
        timestamp: this.deps.now(),
      };
      this.appendMessage(result);
      this.deps.emit("tool.status", {
        sessionId: this.sessionId,
        toolCallId: call.id,
        toolName: call.name,
        status: kind === "aborted" ? "aborted" : "error",
      });
    }
  }

  /** appendSynthesized as errors, for a store that may be failing: a write that fails is left to the repair at the next open. */
  tryAppendSynthesized(calls: ToolCall[], text: string): void {
    try {
      this.appendSynthesized(calls, "error", `error: ${text}`);
    } catch (err) {
      this.deps.emit("turn.error", { sessionId: this.sessionId, message: `The session could not be saved: ${errorText(err)}` });
    }
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
