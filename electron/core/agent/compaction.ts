/**
 * Compaction: summarise the older part of a session with the current model
 * so the conversation fits the context window again. The cut never separates
 * a tool call from its result (it falls before a user message).
 */
import type { CompactionEntry, Message, StoredEntry } from "../../../shared/protocol";
import type { LlmContext, StreamEvent, StreamOptions } from "../providers/types";
import { compactionCut, estimateTokens, historyForModel } from "./context";
import type { ResolvedModel } from "./ports";

export const COMPACTION_SYSTEM_PROMPT =
  "You compact coding-agent conversations. Write a summary that lets the agent continue the work without the original messages: the user's goals and constraints, decisions taken, files read and changed (with paths), commands run and their outcomes, open problems and the next steps. Be factual and complete; no preamble.";
export const COMPACTION_REQUEST = "Summarise the conversation so far for your own continuation, as instructed.";

export interface CompactionInput {
  entries: readonly StoredEntry[];
  resolved: ResolvedModel;
  signal: AbortSignal;
  stream(resolved: ResolvedModel, context: LlmContext, options: Omit<StreamOptions, "apiKey">): AsyncIterable<StreamEvent>;
  now(): number;
  /**
   * Text that must outlive the compaction (the todo plan, todo.ts): appended
   * verbatim to the summary, which is the first message the model reads after it.
   */
  survivors?: readonly string[];
}

export type CompactionResult = { kind: "compacted"; entry: CompactionEntry } | { kind: "nothing" } | { kind: "failed"; error: string };

export async function compactHistory(input: CompactionInput): Promise<CompactionResult> {
  const { entries, resolved } = input;
  const keepTokens = Math.floor(resolved.model.contextWindow * 0.25);
  const firstKeptSeq = compactionCut(entries, keepTokens);
  if (firstKeptSeq === null) return { kind: "nothing" };
  const older = historyForModel(entries.filter((e) => e.seq < firstKeptSeq));
  const tokensBefore = estimateTokens(historyForModel(entries));
  const messages: Message[] = [...older, { role: "user", content: [{ type: "text", text: COMPACTION_REQUEST }], timestamp: input.now() }];
  let summary = "";
  let error: string | null = null;
  for await (const event of input.stream(
    resolved,
    { systemPrompt: COMPACTION_SYSTEM_PROMPT, messages, tools: [] },
    { signal: input.signal },
  )) {
    if (event.type === "done") {
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
  if (input.survivors && input.survivors.length > 0) summary = [summary, ...input.survivors].join("\n\n");
  return {
    kind: "compacted",
    entry: {
      type: "compaction",
      summary,
      firstKeptSeq,
      tokensBefore,
      model: { provider: resolved.model.provider, api: resolved.model.api, id: resolved.model.id },
      timestamp: input.now(),
    },
  };
}
