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
import { isStorageFailure, rewordStorageFailure } from "../store";
import { historyForModel } from "./context";
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

  lastSeq(): number {
    return this.entries.length === 0 ? 0 : this.entries[this.entries.length - 1].seq;
  }

  /** Stores the entry (with `alongside` in its transaction); throws, keeping nothing, when the store refuses. */
  append(entry: SessionEntry, alongside?: () => void): void {
    const seq = this.deps.store.appendEntry(this.sessionId, entry, alongside);
    this.entries.push({ seq, entry });
    if (entry.type === "message") this.messages.push(entry.message);
    else if (entry.type === "compaction") this.messages = historyForModel(this.entries);
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

  /**
   * A failed attempt that will be retried, with an error result for each of
   * its calls: the retry's message comes next, so nothing else would answer
   * them (docs/architecture.md#invariants).
   */
  appendFailedAttempt(message: AssistantMessage): void {
    this.appendMessage(message);
    const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");
    this.appendSynthesized(calls, "error", "error: the response failed before this tool call could run");
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

/** What a turn that threw tells the user: a storage failure in plain words with the way out, anything else as the bug it is. */
export function turnFailureText(err: unknown): string {
  return isStorageFailure(err) ? rewordStorageFailure(err, "press Retry") : `internal error: ${errorText(err)}`;
}
