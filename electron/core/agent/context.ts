/**
 * Turns a session's stored entries into the history the model is sent (its
 * "view"): messages only, from the latest compaction on, whose summary (and
 * the text carried across compaction) becomes the first user message, and
 * whose older tool results reach the model as a short stub (prune.ts). Pure:
 * entries are not modified. Contract: docs/architecture.md#compaction-and-budgets.
 */
import type { CompactionEntry, Message, PlanEditEntry, SessionEntry, StoredEntry, ToolCall, UserMessage } from "../../../shared/protocol";
import { planEditText } from "../../../shared/todo";
import { prunedResult } from "./prune";
import { messageTokens } from "./tokens";

export const COMPACTION_PREFIX = "Summary of the earlier part of this conversation (older messages were compacted):\n\n";
export const CARRIED_PREFIX = "Kept across compaction:\n\n";
/** How the agent's own notes to the model begin (the prompt to continue, a limit reached): not the user's words. */
export const AGENT_NOTE_PREFIX = "[Agent Workbench] ";
export const USER_REQUEST_PREFIX = "The user's request, verbatim:\n\n";

export function latestCompaction(entries: readonly StoredEntry[]): CompactionEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i].entry;
    if (e.type === "compaction") return e;
  }
  return null;
}

/**
 * One summary message per compaction entry: the same object on every request,
 * so the request builder recognises the history and resumes its kept pass.
 */
const summaries = new WeakMap<CompactionEntry, UserMessage | null>();

export function summaryOf(compaction: CompactionEntry): UserMessage | null {
  let summary = summaries.get(compaction);
  if (summary === undefined) {
    const parts = [
      ...(compaction.summary ? [COMPACTION_PREFIX + compaction.summary] : []),
      ...(compaction.userRequest ? [USER_REQUEST_PREFIX + compaction.userRequest] : []),
      ...(compaction.carried ? [CARRIED_PREFIX + compaction.carried] : []),
    ];
    summary =
      parts.length === 0 ? null : { role: "user", content: [{ type: "text", text: parts.join("\n\n") }], timestamp: compaction.timestamp };
    summaries.set(compaction, summary);
  }
  return summary;
}

/** The user's plan edit as the model reads it (docs/sub-agents.md#the-todo-plan): one object per entry, as for summaries. */
const planEdits = new WeakMap<PlanEditEntry, UserMessage>();

/** The message the model reads for an entry; null for entries it does not see (markers, approvals, compactions). */
export function modelMessageOf(entry: SessionEntry): Message | null {
  if (entry.type === "message") return entry.message;
  if (entry.type !== "planEdit") return null;
  let message = planEdits.get(entry);
  if (message === undefined) {
    message = { role: "user", content: [{ type: "text", text: planEditText(entry) }], timestamp: entry.timestamp };
    planEdits.set(entry, message);
  }
  return message;
}

/** The first index of `entries` (sorted by seq) whose seq is at least `seq`. */
export function indexOfSeq(entries: readonly StoredEntry[], seq: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid].seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface ModelView {
  messages: Message[];
  /** The seq of each message (null for the summary). */
  seqs: (number | null)[];
}

/** The model's view of `entries`, with the seq behind each message. */
export function viewOf(entries: readonly StoredEntry[]): ModelView {
  const compaction = latestCompaction(entries);
  const messages: Message[] = [];
  const seqs: (number | null)[] = [];
  const summary = compaction ? summaryOf(compaction) : null;
  if (summary) {
    messages.push(summary);
    seqs.push(null);
  }
  const prunedBefore = compaction?.prunedBeforeSeq ?? Number.NEGATIVE_INFINITY;
  const calls = new Map<string, ToolCall>();
  for (let i = compaction ? indexOfSeq(entries, compaction.firstKeptSeq) : 0; i < entries.length; i++) {
    const { seq, entry } = entries[i];
    const m = modelMessageOf(entry);
    if (m === null) continue;
    if (m.role === "assistant" && seq < prunedBefore) {
      for (const b of m.content) if (b.type === "toolCall") calls.set(b.id, b);
    }
    messages.push(m.role === "toolResult" && seq < prunedBefore ? prunedResult(m, calls.get(m.toolCallId)) : m);
    seqs.push(seq);
  }
  return { messages, seqs };
}

export function historyForModel(entries: readonly StoredEntry[]): Message[] {
  return viewOf(entries).messages;
}

/**
 * Where a compaction may cut: the index (into `view.messages`) of the first
 * message kept verbatim. A cut falls before a user message or an assistant
 * message (not a failed request's record), so the kept part starts a valid request on every API: the results
 * of the calls before it are all before it too (the loop stores them right
 * after their call), and the summary, a user message, comes first. Keeps as
 * many of the newest messages as fit `keepTokens`, and at least the last
 * assistant message and what followed it. Null when nothing before the last
 * boundary could be summarised.
 */
export function compactionCut(view: ModelView, keepTokens: number): number | null {
  const { messages, seqs } = view;
  let cut: number | null = null;
  let kept = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (seqs[i] === null) break;
    const m = messages[i];
    kept += messageTokens(m);
    // A failed request's record is no step of its own: the cut goes before what it failed on.
    if (m.role === "toolResult" || (m.role === "assistant" && (m.stopReason === "error" || m.stopReason === "aborted"))) continue;
    if (cut !== null && kept > keepTokens) break;
    cut = i;
  }
  // Something must be left to summarise: a real message before the cut.
  if (cut === null || !seqs.slice(0, cut).some((s) => s !== null)) return null;
  return cut;
}
