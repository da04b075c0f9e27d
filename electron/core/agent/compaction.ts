/**
 * Compaction: makes the next request fit the model's window again, in two
 * steps (docs/architecture.md#compaction-and-budgets). First prune: old tool
 * outputs become stubs (prune.ts); when that brings the request under the
 * target, that is all. Otherwise summarise: everything before a cut point
 * (context.ts: before any user or assistant message, so the kept part starts a
 * valid request) is replaced by a summary the current model writes. Each step
 * is one compaction entry; the stored messages are never changed.
 *
 * What must survive compaction (the todo plan) comes from carriers the
 * session registers: their `forSummary` goes into the summary request, their
 * `reinject` is stored with the entry and put back after the summary.
 */
import type { CompactionEntry, Message, StoredEntry, Usage } from "../../../shared/protocol";
import type { LlmContext, StreamEvent, StreamOptions } from "../providers/types";
import { summaryRequest, userText } from "./compaction-request";
import { AGENT_NOTE_PREFIX, compactionCut, latestCompaction, viewOf, type ModelView } from "./context";
import type { ResolvedModel } from "./ports";
import { pruneBoundary } from "./prune";

export { COMPACTION_REQUEST, COMPACTION_SYSTEM_PROMPT } from "./compaction-request";

/** What must survive a compaction, from one carrier. */
export interface CompactionCarry {
  /** Given to the summariser as something its summary must keep (e.g. the plan as it stands). */
  forSummary?: string;
  /** Put back verbatim right after the summary in the model's context (stored with the entry). */
  reinject?: string;
}

/** Asked at every compaction; what it returns survives it. Registered with `SessionAgent.addCompactionCarrier`. */
export type CompactionCarrier = () => CompactionCarry | null;

/** Shares of the model's window. */
export const COMPACTION_SHARES = {
  /** Newest tool outputs kept in full by a prune. */
  pruneKeep: 0.2,
  /** A compaction aims to leave the next request at most this full. */
  target: 0.5,
  /** Newest messages kept verbatim by a summary. */
  summaryKeep: 0.25,
  /** The summary request's input. */
  summaryInput: 0.6,
  /** The summary's length. */
  summaryOutput: 0.1,
} as const;

export type CompactionTrigger = NonNullable<CompactionEntry["trigger"]>;

export interface CompactionInput {
  /** The entries the model's view is built from (the journal's). */
  entries: readonly StoredEntry[];
  view: ModelView;
  resolved: ResolvedModel;
  trigger: CompactionTrigger;
  /** The next request's size now. */
  before: number;
  /** The size of a request carrying `messages` (with the current system prompt and tools). */
  size(messages: readonly Message[]): number;
  carry: readonly CompactionCarry[];
  signal: AbortSignal;
  stream(resolved: ResolvedModel, context: LlmContext, options: Omit<StreamOptions, "apiKey">): AsyncIterable<StreamEvent>;
  /** Prices the summary's usage (the budget charges it). */
  cost(message: Extract<StreamEvent, { type: "done" }>["message"]): Usage;
  now(): number;
}

export type CompactionResult =
  | { kind: "compacted"; entry: CompactionEntry; after: number }
  /** Nothing left to prune or summarise. */
  | { kind: "nothing" }
  | { kind: "failed"; error: string };

export async function compactHistory(input: CompactionInput): Promise<CompactionResult> {
  const { entries, resolved, trigger } = input;
  const window = resolved.model.contextWindow;
  const latest = latestCompaction(entries);
  const model = { provider: resolved.model.provider, api: resolved.model.api, id: resolved.model.id };
  const reinject = input.carry.flatMap((c) => (c.reinject ? [c.reinject] : [])).join("\n\n");
  const base = {
    type: "compaction" as const,
    tokensBefore: input.before,
    model,
    trigger,
    ...(reinject ? { carried: reinject } : {}),
  };
  const lastSeq = entries.length === 0 ? 0 : entries[entries.length - 1].seq;
  const viewWith = (entry: CompactionEntry) => viewOf([...entries, { seq: lastSeq + 1, entry }]);

  let view = input.view;
  let pruned: { entry: CompactionEntry; after: number } | null = null;
  const boundary = pruneBoundary(view, Math.floor(window * COMPACTION_SHARES.pruneKeep), latest?.prunedBeforeSeq);
  if (boundary.pruned > 0) {
    const entry: CompactionEntry = {
      ...base,
      summary: latest?.summary ?? "",
      firstKeptSeq: latest?.firstKeptSeq ?? 0,
      step: "prune",
      ...(latest?.userRequest ? { userRequest: latest.userRequest } : {}),
      prunedBeforeSeq: boundary.beforeSeq,
      pruned: boundary.pruned,
      timestamp: input.now(),
    };
    view = viewWith(entry);
    const after = input.size(view.messages);
    pruned = { entry: { ...entry, tokensAfter: after }, after };
    if (trigger !== "manual" && after <= window * COMPACTION_SHARES.target) return { kind: "compacted", ...pruned };
  }

  // An overflow the estimate did not see coming, or the user's "Compact now": summarise all but the newest step if need be.
  const cut =
    compactionCut(view, Math.floor(window * COMPACTION_SHARES.summaryKeep)) ?? (trigger === "threshold" ? null : compactionCut(view, 0));
  if (cut === null) return pruned ? { kind: "compacted", ...pruned } : { kind: "nothing" };
  const firstKeptSeq = view.seqs[cut] ?? 0;
  const { context, filesChanged } = summaryRequest(
    {
      older: view.messages.slice(0, cut),
      keep: input.carry.flatMap((c) => (c.forSummary ? [c.forSummary] : [])),
      budget: Math.floor(window * COMPACTION_SHARES.summaryInput),
    },
    input.now(),
  );
  const maxTokens = Math.min(resolved.model.maxOutput, Math.max(1_024, Math.floor(window * COMPACTION_SHARES.summaryOutput)));
  let summary = "";
  let usage: Usage | undefined;
  let error: string | null = null;
  for await (const event of input.stream(resolved, context, { signal: input.signal, maxTokens })) {
    if (event.type === "done") {
      usage = input.cost(event.message);
      summary = event.message.content
        .map((b) => (b.type === "text" ? b.text : ""))
        .join("")
        .trim();
    } else if (event.type === "error") {
      error = event.message.errorMessage ?? "the provider returned an error";
    }
  }
  if (error !== null) return { kind: "failed", error };
  if (!summary) return { kind: "failed", error: "the model returned an empty summary" };
  // Facts the code knows, kept whatever the summary says: the files written, the user's request word for word.
  if (filesChanged.length > 0) summary += `\n\nFiles changed in the summarised part: ${filesChanged.join(", ")}`;
  const userRequest = lastUserRequest(view, cut) ?? latest?.userRequest;
  const entry: CompactionEntry = {
    ...base,
    summary,
    firstKeptSeq,
    step: "summary",
    ...(userRequest ? { userRequest } : {}),
    ...(pruned || latest?.prunedBeforeSeq !== undefined
      ? { prunedBeforeSeq: pruned?.entry.prunedBeforeSeq ?? latest?.prunedBeforeSeq }
      : {}),
    ...(pruned ? { pruned: pruned.entry.pruned } : {}),
    ...(usage ? { usage } : {}),
    timestamp: input.now(),
  };
  const after = input.size(viewWith(entry).messages);
  return { kind: "compacted", entry: { ...entry, tokensAfter: after }, after };
}

/** The newest message of the user's own (not a summary, not the agent's note) before `cut`, word for word, or null. */
function lastUserRequest(view: ModelView, cut: number): string | null {
  for (let i = cut - 1; i >= 0; i--) {
    const m = view.messages[i];
    if (view.seqs[i] === null) return null;
    if (m.role !== "user") continue;
    const text = userText(m);
    if (text && !text.startsWith(AGENT_NOTE_PREFIX)) return text;
  }
  return null;
}
