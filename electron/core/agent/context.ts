/**
 * Turns a session's stored entries into the history the model is sent:
 * messages only, starting after the latest compaction (whose summary becomes
 * the first user message). Pure: entries are not modified.
 */
import type { CompactionEntry, Message, PlanEditEntry, SessionEntry, StoredEntry, UserMessage } from "../../../shared/protocol";
import { planEditText } from "../../../shared/todo";

export const COMPACTION_PREFIX = "Summary of the earlier part of this conversation (older messages were compacted):\n\n";

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
const summaries = new WeakMap<CompactionEntry, UserMessage>();

function summaryOf(compaction: CompactionEntry): UserMessage {
  let summary = summaries.get(compaction);
  if (summary === undefined) {
    summary = {
      role: "user",
      content: [{ type: "text", text: COMPACTION_PREFIX + compaction.summary }],
      timestamp: compaction.timestamp,
    };
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

export function historyForModel(entries: readonly StoredEntry[]): Message[] {
  const compaction = latestCompaction(entries);
  const out: Message[] = [];
  if (compaction) out.push(summaryOf(compaction));
  for (const { seq, entry } of entries) {
    if (compaction && seq < compaction.firstKeptSeq) continue;
    const message = modelMessageOf(entry);
    if (message) out.push(message);
  }
  return out;
}

/** Rough token estimate (4 characters a token) for deciding when to compact. */
export function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  for (const m of messages) {
    for (const block of m.content) {
      switch (block.type) {
        case "text":
          chars += block.text.length;
          break;
        case "thinking":
          chars += block.thinking.length;
          break;
        case "toolCall":
          chars += block.name.length + JSON.stringify(block.arguments).length;
          break;
        case "image":
          chars += 4_800; // ~1,200 tokens for a typical image
          break;
      }
    }
  }
  return Math.ceil(chars / 4);
}

/**
 * Where to cut for compaction: the seq of the first entry to keep verbatim.
 * Cuts only before a user message, so a tool call is never separated from its
 * result; keeps at least the last user turn. Returns null when there is
 * nothing worth compacting.
 */
export function compactionCut(entries: readonly StoredEntry[], keepTokens: number): number | null {
  const compaction = latestCompaction(entries);
  const candidates = entries.filter((e) => e.entry.type === "message" && (!compaction || e.seq >= compaction.firstKeptSeq));
  const userStarts = candidates.filter((e) => e.entry.type === "message" && e.entry.message.role === "user");
  if (userStarts.length < 2) return null;
  let kept = 0;
  let cut: number | null = null;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const e = candidates[i];
    if (e.entry.type !== "message") continue;
    kept += estimateTokens([e.entry.message]);
    if (e.entry.message.role === "user") {
      cut = e.seq;
      if (kept >= keepTokens) break;
    }
  }
  // Never keep everything: the first user message must be compacted away.
  if (cut === null || cut === userStarts[0].seq) cut = userStarts[userStarts.length - 1].seq;
  return cut === userStarts[0].seq ? null : cut;
}

/**
 * Tokens the next request will carry: the provider's own count from the
 * last response (input + cache + output) plus an estimate for what came
 * after it; a character estimate when there is no usable usage yet.
 */
export function contextTokens(history: readonly Message[]): number {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m.role !== "assistant" || m.stopReason === "error" || m.stopReason === "aborted") continue;
    const counted = m.usage.input + m.usage.cacheRead + m.usage.cacheWrite + m.usage.output;
    if (counted === 0) break;
    return counted + estimateTokens(history.slice(i + 1));
  }
  return estimateTokens(history);
}
