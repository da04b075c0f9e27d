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
import { ContextLedger } from "./context-ledger";
import { indexOfSeq, latestCompaction, modelMessageOf, viewOf, type ModelView } from "./context";
import type { AgentDeps } from "./ports";

type JournalDeps = Pick<AgentDeps, "store" | "emit" | "onAppended" | "now">;

export class SessionJournal {
  /**
   * The entries the model's view is built from: the latest compaction and
   * everything from its first kept entry on. Older entries stay in the store
   * (transcript, replay, "what the model saw") but not in memory, so a long
   * session through many compactions holds what the model sees, not its history.
   */
  private live: StoredEntry[];
  /** The model's view of `live` (context.ts), kept in step by `append` (one push per message, not a walk per request). */
  private view: ModelView;
  /** The size of the next request (context-ledger.ts). */
  readonly ledger = new ContextLedger();
  private last = 0;
  private pendingRequest: string | undefined;
  private messageSeen = false;

  /** `inspect` sees every stored entry once, before the journal keeps only what the view needs. */
  constructor(
    private readonly deps: JournalDeps,
    private readonly sessionId: string,
    inspect?: (entries: readonly StoredEntry[]) => void,
  ) {
    const entries = deps.store.loadEntries(sessionId);
    inspect?.(entries);
    this.last = entries.length === 0 ? 0 : entries[entries.length - 1].seq;
    this.messageSeen = entries.some((e) => e.entry.type === "message");
    this.live = entries;
    this.view = this.rebuild();
  }

  /** The entries the view is built from (the latest compaction on). Read-only: `append` owns them. */
  get entries(): readonly StoredEntry[] {
    return this.live;
  }

  /** The conversation as the model sees it (after the last compaction). Read-only: `append` owns it. */
  get history(): readonly Message[] {
    return this.view.messages;
  }

  /** The view with the seq behind each message. */
  get modelView(): ModelView {
    return this.view;
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
    return this.last;
  }

  /** Whether the session has any message (stored before or during this run). */
  hasMessages(): boolean {
    return this.messageSeen;
  }

  /** The body the latest request sent, stored with the next assistant message (the answer to it). */
  noteRequest(raw: string | undefined): void {
    this.pendingRequest = raw;
  }

  /** Stores the entry (with `alongside` in its transaction); throws, keeping nothing, when the store refuses. */
  append(entry: SessionEntry, alongside?: () => void): void {
    let both: ((seq: number) => void) | undefined = alongside;
    if (entry.type === "message" && entry.message.role === "assistant") {
      const raw = this.pendingRequest;
      this.pendingRequest = undefined;
      const { store } = this.deps;
      // One commit: the answer and the request it answered (docs/architecture.md#review-and-replay).
      if (raw !== undefined && store.recordRequest !== undefined) {
        both = (seq: number) => {
          alongside?.();
          store.recordRequest?.(this.sessionId, seq, raw);
        };
      }
    }
    const seq = this.deps.store.appendEntry(this.sessionId, entry, both);
    this.last = seq;
    this.live.push({ seq, entry });
    const message = modelMessageOf(entry);
    if (message) {
      if (entry.type === "message") this.messageSeen = true;
      this.view.messages.push(message);
      this.view.seqs.push(seq);
      this.ledger.push(message);
    } else if (entry.type === "compaction") {
      this.view = this.rebuild();
    }
    this.deps.emit("session.entry", { sessionId: this.sessionId, seq, entry });
    this.deps.onAppended(this.sessionId, seq, entry);
  }

  /** Drops what the latest compaction left out of the view, and builds the view and the ledger from the rest. */
  private rebuild(): ModelView {
    const compaction = latestCompaction(this.live);
    let compactionSeq = 0;
    if (compaction) {
      for (let i = this.live.length - 1; i >= 0; i--) {
        if (this.live[i].entry === compaction) {
          compactionSeq = this.live[i].seq;
          break;
        }
      }
      const from = Math.min(indexOfSeq(this.live, compaction.firstKeptSeq), indexOfSeq(this.live, compactionSeq));
      if (from > 0) this.live = this.live.slice(from);
    }
    const view = viewOf(this.live);
    // Messages kept from before the compaction were answered on a larger view: their counts do not apply.
    let liveFrom = view.seqs.length;
    while (liveFrom > 0 && (view.seqs[liveFrom - 1] ?? 0) > compactionSeq) liveFrom--;
    this.ledger.reset(view.messages, compaction ? liveFrom : 0);
    return view;
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
